package dev.sluice.examples.drill;

import dev.sluice.BreakerFlag;
import dev.sluice.RedisBreakerFlag;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * One play of the scenario: the instances, the cache they share (warm at the start, as after a long
 * steady run), an open-loop load generator (reads arrive at the offered rate whether or not earlier
 * ones have finished, as users do), and the outage: at {@code --outage-start} the cache dies and
 * the breaker opens; {@code --outage-length} seconds later the cache is back, empty unless
 * {@code --cache-return warm}, and the breaker closes.
 *
 * <p>Not threadsafe: one thread calls {@link #play}.
 */
final class Run {
  private static final long TICK_NANOS = 1_000_000;
  /** Both runs start from the same warm cache. */
  private static final long CACHE_SEED = 42;

  private final DrillOptions options;
  private final SimulatedDatabase db;
  private final boolean withSluice;
  /** Sluice with {@code sluice.concurrency=auto} (only with Sluice). */
  private final boolean auto;
  private final double warmHitRatio;

  Run(DrillOptions options, SimulatedDatabase db, boolean withSluice) {
    this(options, db, withSluice, false);
  }

  Run(DrillOptions options, SimulatedDatabase db, boolean withSluice, boolean auto) {
    this.options = options;
    this.db = db;
    this.withSluice = withSluice;
    this.auto = withSluice && auto;
    this.warmHitRatio = Summary.warmHitRatio(options);
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
    long start = System.nanoTime() + 200_000_000L; // let the pools fill first
    Recorder recorder = new Recorder(start, options.duration);
    SimulatedCache cache = new SimulatedCache(options.keys, options.skew,
        options.ttlSeconds * 1_000_000_000L, start);
    cache.warmUp(options.load, start, CACHE_SEED);
    List<AppInstance> instances = new ArrayList<>();
    try {
      for (int i = 0; i < options.instances; i++) {
        instances.add(new AppInstance(db.url(), options, withSluice, auto, breaker, cache,
            recorder));
      }
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
      for (; offered < due; offered++) {
        recorder.offered(now);
        instances.get(next).offer(now);
        next = next + 1 == instances.size() ? 0 : next + 1;
      }
      for (long dueWrites = (long) ((now - start) * writesPerNano); writes < dueWrites; writes++) {
        instances.get((int) (writes % instances.size())).offerWrite(now);
      }
      // a second's row is final once the next second is 50 ms old
      while (printed < options.duration - 1 && t >= printed + 1.05) {
        out.println(Table.row(recorder.second(printed), options, warmHitRatio, withSluice));
        printed++;
      }
      LockSupport.parkNanos(TICK_NANOS);
    }
    LockSupport.parkNanos(50_000_000L);
    for (; printed < options.duration; printed++) {
      out.println(Table.row(recorder.second(printed), options, warmHitRatio, withSluice));
    }
  }
}
