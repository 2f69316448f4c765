package dev.sluice.bench.realdb;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import dev.sluice.internal.limit.AdaptiveConcurrency;
import dev.sluice.internal.limit.ConcurrencyGate;
import dev.sluice.internal.limit.Ticker;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What stands between the callers and the pool in {@link RealDatabaseHarness}: one
 * {@link ConcurrencyGate}, and who sets its cap. Every capped variant drives the same gate class;
 * they differ only in what they learn from each statement's end.
 *
 * <p>This class is threadsafe.
 */
abstract class Gate {
  /** Every statement has the same text, so one shape: the controller's per-shape baseline. */
  static final int SHAPE = AdaptiveConcurrency.shapeOf(RealDatabaseHarness.SQL);

  final ConcurrencyGate gate;
  private final String name;

  private Gate(String name, int cap) {
    this.name = name;
    this.gate = new ConcurrencyGate(cap);
  }

  String name() {
    return name;
  }

  boolean tryAcquire() {
    return gate.tryAcquire();
  }

  int inFlight() {
    return gate.inFlight();
  }

  /** The cap it enforces; 0 for no cap. */
  int limit() {
    return gate.limit();
  }

  /**
   * An admitted statement ended: its place is given back, then its outcome is learned from.
   *
   * @param admittedNanos when the gate admitted it
   * @param endNanos when it ended
   * @param inFlightAtAdmission the gate's in-flight count just after it was admitted
   * @param overload whether it failed of overload (a statement timeout, the pool's timeout)
   */
  final void onEnd(long admittedNanos, long endNanos, int inFlightAtAdmission, boolean overload) {
    gate.release();
    learn(admittedNanos, endNanos, inFlightAtAdmission, overload);
  }

  abstract void learn(long admittedNanos, long endNanos, int inFlightAtAdmission,
      boolean overload);

  /** No cap: every caller goes on to the pool and waits there (HikariCP's own queue). */
  static Gate none() {
    return new Gate("no cap", Integer.MAX_VALUE / 2) {
      @Override
      int limit() {
        return 0;
      }

      @Override
      void learn(long admittedNanos, long endNanos, int inFlight, boolean overload) {}
    };
  }

  static Gate fixed(int cap) {
    return new Gate("fixed " + cap, cap) {
      @Override
      void learn(long admittedNanos, long endNanos, int inFlight, boolean overload) {}
    };
  }

  /**
   * Sluice's {@code auto}, fed as the limiter feeds it while limiting: one admitted statement in
   * the controller's stride is timed and reported, every overload is.
   */
  static Gate sluice(int max) {
    return new Gate("Sluice auto", max) {
      final AdaptiveConcurrency controller = new AdaptiveConcurrency(gate, 1, max, Ticker.system());
      final AtomicLong ended = new AtomicLong();

      @Override
      void learn(long admittedNanos, long endNanos, int inFlight, boolean overload) {
        if (ended.incrementAndGet() % controller.sampleStride() == 0 || overload) {
          controller.onSample(SHAPE, endNanos - admittedNanos, overload, endNanos);
        }
      }
    };
  }

  /** Netflix Gradient2 with its defaults, bounded to the pool, starting at it. */
  static Gate gradient2(int max) {
    return netflix("Netflix Gradient2", max, Gradient2Limit.newBuilder()
        .initialLimit(max).minLimit(1).maxConcurrency(max).build());
  }

  /** Netflix Vegas with its defaults, bounded to the pool, starting at it. */
  static Gate vegas(int max) {
    return netflix("Netflix Vegas", max, VegasLimit.newBuilder()
        .initialLimit(max).maxConcurrency(max).build());
  }

  /** Fed as Netflix's SimpleLimiter feeds a limit: every end, success or drop, is a sample. */
  private static Gate netflix(String name, int max, Limit limit) {
    return new Gate(name, max) {
      @Override
      void learn(long admittedNanos, long endNanos, int inFlight, boolean overload) {
        synchronized (limit) {
          limit.onSample(admittedNanos, endNanos - admittedNanos, inFlight, overload);
          gate.setLimit(Math.max(1, Math.min(max, limit.getLimit())));
        }
      }
    };
  }
}
