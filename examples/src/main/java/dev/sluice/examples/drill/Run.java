package dev.sluice.examples.drill;

import dev.sluice.BreakerFlag;
import dev.sluice.RedisBreakerFlag;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * One play of the scenario: the instances, the cache they share (warm at the start, as after a long
 * steady run), an open-loop load generator (reads arrive at the offered rate whether or not earlier
 * ones have finished, as users do), and the outage: at {@code --outage-start} the cache dies and
 * the breaker opens; {@code --outage-length} seconds later the cache is back, empty unless
 * {@code --cache-return warm}, and the breaker closes.
 *
 * <p>The generator notes how late it offers each read and write ({@link Recorder#behind}): a
 * machine too busy to run it on time makes the run invalid ({@link OfferCheck}).
 *
 * <p>Not threadsafe: one thread calls {@link #play}.
 */
final class Run {
  private static final long TICK_NANOS = 1_000_000;
  /** Both runs start from the same warm cache. */
  private static final long CACHE_SEED = 42;
  /** How long the pools may take to open their connections before the run starts anyway. */
  private static final long POOL_FILL_NANOS = 30_000_000_000L;

  private final DrillOptions options;
  private final SimulatedDatabase db;
  /** The drill's pools, or {@code null}: each instance opens its own. */
  private final Pools pools;
  private final RunKind kind;
  private final boolean withSluice;
  private final double warmHitRatio;
  /** How the generator waits between ticks; a test makes it stall. */
  private final LongConsumer pause;

  Run(DrillOptions options, SimulatedDatabase db, RunKind kind) {
    this(options, db, kind, LockSupport::parkNanos);
  }

  /**
   * A run whose generator waits between ticks with {@code pause} (given the tick's length in
   * nanoseconds) instead of parking for it.
   */
  Run(DrillOptions options, SimulatedDatabase db, RunKind kind, LongConsumer pause) {
    this(options, db, null, kind, pause);
  }

  /**
   * A run whose instances borrow the drill's {@code pools} (one per instance, left open), or
   * open their own if it is {@code null}.
   */
  Run(DrillOptions options, SimulatedDatabase db, Pools pools, RunKind kind,
      LongConsumer pause) {
    this.options = options;
    this.db = db;
    this.pools = pools;
    this.kind = kind;
    this.withSluice = kind.sluice();
    this.warmHitRatio = Summary.warmHitRatio(options);
    this.pause = pause;
  }

  /** Which run this is. */
  RunKind kind() {
    return kind;
  }

  /**
   * Plays the run, printing a row per second to {@code out} as it goes.
   *
   * @param out where the table goes
   * @return what was recorded
   * @throws Exception if the database or the pools fail
   */
  Recorder play(PrintStream out) throws Exception {
    BreakerFlag.Manual breaker = BreakerFlag.manual();
    // with --redis, the application's breaker publishes its decision to every instance
    RedisBreakerFlag shared = withSluice && options.redis != null
        ? RedisBreakerFlag.connect(options.redis, "drill") : null;
    if (shared != null) {
      shared.reset(); // a run cut short may have left the key open
    }
    Recorder recorder = new Recorder(options.duration);
    SimulatedCache cache = new SimulatedCache(options.keys, options.skew,
        options.ttlSeconds * 1_000_000_000L, System.nanoTime());
    List<AppInstance> instances = new ArrayList<>();
    try {
      for (int i = 0; i < options.instances; i++) {
        instances.add(pools == null
            ? new AppInstance(db.url(), options, kind, breaker, cache, recorder)
            : new AppInstance(pools.get(i), false, options, kind, breaker, cache, recorder));
      }
      // the clock starts once every pool is full: on a busy machine filling 200 connections
      // takes seconds, and a run that starts before is a run whose first seconds offer nothing
      for (AppInstance instance : instances) {
        instance.awaitPoolFilled(POOL_FILL_NANOS);
      }
      long start = System.nanoTime() + 50_000_000L;
      cache.warmUp(options.load, start, CACHE_SEED);
      recorder.begin(start);
      db.recordInto(recorder);
      LockSupport.parkNanos(start - System.nanoTime());
      generate(instances, cache, breaker, shared, recorder, out);
    } finally {
      db.loseHalfCapacity(false);
      breaker.reset();
      if (shared != null) {
        shared.reset();
        shared.close();
      }
      for (AppInstance instance : instances) {
        instance.close();
      }
      db.recordInto(null);
    }
    return recorder;
  }

  /**
   * Offers reads at the load, round-robin; fails and restores the cache and trips and resets the
   * breaker with it; notes Sluice's state; prints each second.
   */
  private void generate(List<AppInstance> instances, SimulatedCache cache,
      BreakerFlag.Manual breaker, RedisBreakerFlag shared, Recorder recorder, PrintStream out) {
    long start = recorder.startNanos();
    long end = start + options.duration * 1_000_000_000L;
    double perNano = options.load / 1e9;
    double writesPerNano = options.criticalWrites / 1e9;
    long writes = 0;
    long offered = 0;
    int printed = 0;
    int next = 0;
    for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
      double t = (now - start) / 1e9;
      boolean outage = options.outageAt(t);
      if (outage != breaker.isOpen()) {
        if (outage) {
          cache.fail();
          breaker.trip(); // the application's breaker opened on the cache's errors
          if (shared != null) {
            shared.trip(Duration.ofSeconds(options.outageLength + 10L));
          }
        } else {
          cache.restore(options.returnsEmpty);
          breaker.reset();
          if (shared != null) {
            shared.reset();
          }
        }
      }
      db.loseHalfCapacity(options.capacityLostAt(t));
      for (AppInstance instance : instances) {
        instance.recordSluiceState(now);
      }
      long due = (long) ((now - start) * perNano);
      long dueWrites = (long) ((now - start) * writesPerNano);
      recorder.behind(now, Math.max(lateness(start, now, offered, due, options.load),
          lateness(start, now, writes, dueWrites, options.criticalWrites)));
      for (; offered < due; offered++) {
        recorder.offered(now);
        instances.get(next).offer(now);
        next = next + 1 == instances.size() ? 0 : next + 1;
      }
      for (; writes < dueWrites; writes++) {
        instances.get((int) (writes % instances.size())).offerWrite(now);
      }
      // a second's row is final once the next second is 50 ms old
      while (printed < options.duration - 1 && t >= printed + 1.05) {
        out.println(Table.row(recorder.second(printed), options, warmHitRatio, withSluice));
        printed++;
      }
      pause.accept(TICK_NANOS);
    }
    // a stall across the end leaves reads that were due unoffered: as late as the end is now
    long now = System.nanoTime();
    recorder.behind(end - 1, Math.max(
        lateness(start, now, offered, (long) ((end - start) * perNano), options.load),
        lateness(start, now, writes, (long) ((end - start) * writesPerNano),
            options.criticalWrites)));
    LockSupport.parkNanos(50_000_000L);
    for (; printed < options.duration; printed++) {
      out.println(Table.row(recorder.second(printed), options, warmHitRatio, withSluice));
    }
  }

  /**
   * How late, at {@code now}, the oldest of the events not yet offered is: event {@code n} (from
   * 0) of a schedule of {@code perSecond} is due {@code (n + 1) / perSecond} s after the start; 0
   * when every due event has been offered.
   */
  static long lateness(long start, long now, long offered, long due, double perSecond) {
    if (offered >= due) {
      return 0;
    }
    long dueAt = start + (long) ((offered + 1) * 1e9 / perSecond);
    return Math.max(0, now - dueAt);
  }
}
