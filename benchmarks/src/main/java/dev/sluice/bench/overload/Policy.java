package dev.sluice.bench.overload;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import dev.sluice.internal.limit.AdaptiveConcurrency;
import dev.sluice.internal.limit.ConcurrencyGate;
import dev.sluice.internal.limit.Ticker;

/**
 * What stands in front of the simulated database: admits a statement or refuses it, and hears how
 * each admitted one ended. Every capped policy drives the same {@link ConcurrencyGate}; they differ
 * only in who sets its cap.
 */
abstract class Policy {

  static final int MIN = 1;
  static final int MAX = 256;
  static final int INITIAL = 32;

  abstract String name();

  abstract boolean tryAcquire();

  /** A statement admitted at {@code admittedNanos} ended: it ran {@code latencyNanos}. */
  abstract void onEnd(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload);

  abstract int limit();

  /** No cap at all: what the database gets when only a rate budget (or nothing) stands in front. */
  static Policy none() {
    return new Policy() {
      @Override
      String name() {
        return "no cap";
      }

      @Override
      boolean tryAcquire() {
        return true;
      }

      @Override
      void onEnd(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload) {}

      @Override
      int limit() {
        return 0;
      }
    };
  }

  static Policy fixed(int cap) {
    return new Gated("fixed " + cap, cap) {
      @Override
      void learn(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload) {}
    };
  }

  static Policy sluice(Ticker ticker) {
    return new Gated("Sluice auto", INITIAL) {
      final AdaptiveConcurrency controller = new AdaptiveConcurrency(gate, MIN, MAX, ticker);
      long ended;

      /** As the limiter does: one statement in the controller's stride sampled, every overload. */
      @Override
      void learn(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload) {
        if (++ended % controller.sampleStride() == 0) {
          controller.onSample(statement.shape, latencyNanos, overload);
        } else if (overload) {
          controller.onSample(0, 0, true);
        }
      }
    };
  }

  /** Netflix Gradient2 with its defaults, bounds as ours; fed as its SimpleLimiter feeds it. */
  static Policy gradient2() {
    return netflix("Netflix Gradient2", Gradient2Limit.newBuilder()
        .initialLimit(INITIAL).minLimit(MIN).maxConcurrency(MAX).build());
  }

  /** Netflix Vegas with its defaults, bounds as ours (it has no minimum but 1). */
  static Policy vegas() {
    return netflix("Netflix Vegas", VegasLimit.newBuilder()
        .initialLimit(INITIAL).maxConcurrency(MAX).build());
  }

  private static Policy netflix(String name, Limit limit) {
    return new Gated(name, INITIAL) {
      @Override
      void learn(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload) {
        // SimpleLimiter's listener: onSuccess and onDropped both sample, with the in-flight count
        // seen at admission; a refused call gives none.
        limit.onSample(statement.admittedNanos, latencyNanos, statement.inFlightAtAdmission,
            overload);
        gate.setLimit(Math.max(1, limit.getLimit()));
      }
    };
  }

  /** A policy over the gate; subclasses say what they learn from each end. */
  private abstract static class Gated extends Policy {
    final ConcurrencyGate gate;
    private final String name;

    Gated(String name, int cap) {
      this.name = name;
      this.gate = new ConcurrencyGate(cap);
    }

    @Override
    String name() {
      return name;
    }

    @Override
    boolean tryAcquire() {
      return gate.tryAcquire();
    }

    @Override
    void onEnd(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload) {
      gate.release();
      learn(statement, latencyNanos, overload);
    }

    abstract void learn(SimulatedDatabase.Statement statement, long latencyNanos, boolean overload);

    @Override
    int limit() {
      return gate.limit();
    }
  }
}
