package dev.sluice.internal.limit;

import dev.sluice.Priority;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The token bucket behind {@link dev.sluice.TokenBucket} and every limiter:
 * {@code permitsPerSecond} permits a second on average, at most {@code burst} at once, full at
 * first. Beside the public bucket's methods it gives each {@link Priority} its own depth
 * ({@code sluice.reserve}, {@link Reserve#classBurst}), takes permits into debt
 * ({@link #forceAcquire}) and changes its rate and burst together, as the limiter needs when the
 * share moves.
 *
 * <p>GCRA (ITU-T I.371, virtual scheduling): the whole state is the theoretical arrival time
 * {@code tat}, one {@link AtomicLong}. A request for {@code n} permits at {@code now} is admitted
 * iff {@code max(tat, now) + n*T - now <= burst*T}, {@code T = 1 s / rate}, and admission
 * publishes the new {@code tat} with one CAS. What the code keeps true:
 * <ul>
 *   <li>a rejection writes nothing; the clock is read once per call, before the state, and a retry
 *       after a lost CAS decides on that same reading, which is never more generous;
 *   <li>the state counts half-nanoseconds, its low bit the epoch of the {@code Rate} it was written
 *       under; a reader reads the state before the rate and converts an older epoch's state in its
 *       own CAS, so every decision is made wholly under one rate and nobody waits;
 *   <li>no state runs more than {@code 2^60} half-nanoseconds (about 18 years) ahead of the clock,
 *       so no sum wraps; a forced permit beyond that is the only one ever forgiven;
 *   <li>the interval is a whole number of nanoseconds, rounded up: the rate is never exceeded.
 * </ul>
 *
 * <p>This class is threadsafe. No method blocks, waits or allocates, except the rare rate change,
 * which serialises with other rate changes only.
 *
 * <p>The long form, each argument with the test that holds it: docs/how-it-works.md#the-bucket.
 */
public final class Bucket {

  /** The slowest rate accepted: one permit every 1,000 seconds. */
  public static final double MIN_RATE = 0.001;
  /** The fastest rate accepted: one permit a nanosecond. */
  public static final double MAX_RATE = 1e9;
  /**
   * How far ahead of the clock any state may reach, in half-nanoseconds (about 18.3 years): it
   * bounds both {@code burst * interval} and the debt, so every sum stays below {@code 2^62}.
   */
  public static final long MAX_SPAN = 1L << 60;
  private static final double HALF_NANOS_PER_SECOND = 2e9;

  /**
   * An immutable rate and burst, in the units the arithmetic uses: half-nanoseconds, always even,
   * so that the state's low bit stays free for the epoch. A rate of zero admits nothing: its burst
   * is zero, and its interval, which forced permits still cost, is that of {@link #MIN_RATE}.
   */
  private static final class Rate {
    final double permitsPerSecond;
    final int burst;
    final long interval;
    final long tolerance;
    /** The tolerance each priority sees, by ordinal: the top {@code reserve} part kept back. */
    final long[] tolerances;
    /** The most permits one call may ask for: the burst, and at least 1 (refused when zero). */
    final int maxPermits;
    final long previousInterval;
    final int previousBurst;
    final int epoch;

    Rate(double permitsPerSecond, int burst, double reserve, Rate previous, int epoch) {
      this.permitsPerSecond = permitsPerSecond;
      this.burst = burst;
      this.interval = intervalOf(permitsPerSecond == 0 ? MIN_RATE : permitsPerSecond);
      this.tolerance = burst * interval;
      this.tolerances = new long[Priority.values().length];
      for (int k = 0; k < tolerances.length; k++) {
        tolerances[k] = Reserve.classBurst(burst, reserve, k) * interval;
      }
      this.maxPermits = Math.max(1, burst);
      this.previousInterval = previous == null ? interval : previous.interval;
      this.previousBurst = previous == null ? burst : previous.burst;
      this.epoch = epoch;
    }
  }

  private final Ticker ticker;
  /** {@code sluice.reserve}: {@code 0} gives every priority the whole bucket. */
  private final double reserve;
  /** {@code 2 * tat + epoch}, tat in half-nanoseconds of the ticker. */
  private final AtomicLong state;
  private volatile Rate rate;
  /** Serialises {@link #setRate} calls (rare, off the request path; never held while waiting). */
  private final ReentrantLock rateChange = new ReentrantLock();

  private Bucket(double permitsPerSecond, int burst, double reserve, Ticker ticker) {
    this.ticker = ticker;
    this.reserve = reserve;
    this.rate = checkedRate(permitsPerSecond, burst, reserve, null, 0);
    this.state = new AtomicLong(now());
  }

  /**
   * Returns a bucket that admits {@code permitsPerSecond} on average and {@code burst} at once,
   * full at first.
   *
   * @param permitsPerSecond the refill rate, from 0.001 to 10<sup>9</sup>
   * @param burst the depth of the bucket in permits, at least 1
   * @return a new, full bucket
   * @throws IllegalArgumentException if the rate is not a finite number in range, or the burst is
   *     not positive, or the two together span more than about 18 years
   */
  public static Bucket of(double permitsPerSecond, int burst) {
    return new Bucket(permitsPerSecond, burst, 0, Ticker.system());
  }

  /** As {@link #of(double, int)}, on the given ticker: for tests. */
  public static Bucket of(double permitsPerSecond, int burst, Ticker ticker) {
    return new Bucket(permitsPerSecond, burst, 0, ticker);
  }

  /**
   * As {@link #of(double, int)}, with the top {@code reserve} part of the bucket kept for higher
   * priorities (see the class notes).
   *
   * @param reserve {@code sluice.reserve}, {@code 0 <= reserve < 1} (checked by the key)
   */
  public static Bucket of(double permitsPerSecond, int burst, double reserve, Ticker ticker) {
    return new Bucket(permitsPerSecond, burst, reserve, ticker);
  }

  /**
   * Takes one permit if one is available now.
   *
   * @return {@code true} if the permit was taken, {@code false} (taking nothing) otherwise
   */
  public boolean tryAcquire() {
    return tryAcquire(1);
  }

  /**
   * Takes {@code permits} permits if all are available now, or none.
   *
   * @param permits how many permits to take, at least 1 and at most the burst
   * @return {@code true} if the permits were taken, {@code false} (taking nothing) otherwise
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public boolean tryAcquire(int permits) {
    return tryAcquire(permits, 0); // the whole bucket, as before priorities existed
  }

  /**
   * Takes one permit if one is available now to {@code priority}: a lower priority sees less of
   * the bucket (see the class notes), in the same single CAS.
   *
   * @param priority the caller's priority
   * @return {@code true} if the permit was taken, {@code false} (taking nothing) otherwise
   */
  public boolean tryAcquire(Priority priority) {
    return tryAcquire(1, priority.ordinal());
  }

  private boolean tryAcquire(int permits, int priority) {
    long now = now(); // once: a retry after a lost CAS decides on this reading (see above)
    for (;;) {
      long current = state.get();
      Rate r = rate;
      if (epochOf(current) != r.epoch) {
        convert(current, r, now);
        continue;
      }
      checkPermits(permits, r);
      long next = later(current - r.epoch, now) + permits * r.interval;
      boolean canAcquireImmediately = next - now <= r.tolerances[priority];
      if (!canAcquireImmediately) {
        return false;
      }
      if (state.compareAndSet(current, next + r.epoch)) {
        return true;
      }
    }
  }

  /**
   * Takes {@code permits} permits whether or not they are available, going into debt if need be:
   * each forced permit delays later admissions by exactly one permit's interval, up to a debt
   * that reaches about 18 years ahead (see the class notes). For work that has already been
   * admitted and must not be cut in half.
   *
   * @param permits how many permits to charge, at least 1 and at most the burst
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public void forceAcquire(int permits) {
    long now = now(); // once: a retry after a lost CAS decides on this reading (see above)
    for (;;) {
      long current = state.get();
      Rate r = rate;
      if (epochOf(current) != r.epoch) {
        convert(current, r, now);
        continue;
      }
      checkPermits(permits, r);
      long tat = later(current - r.epoch, now);
      long room = Math.max(0, MAX_SPAN - (tat - now)); // the debt cap; never moves tat back
      long next = tat + Math.min(permits * r.interval, room);
      if (state.compareAndSet(current, next + r.epoch)) {
        return;
      }
    }
  }

  /**
   * Returns how long until {@code permits} permits are likely to be available, taking none.
   *
   * @param permits how many permits, at least 1 and at most the burst
   * @return nanoseconds to wait, {@code 0} if they are available now
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public long nanosUntilAvailable(int permits) {
    return nanosUntilAvailable(permits, 0);
  }

  /** As {@link #nanosUntilAvailable(int)}, for one permit at {@code priority}. */
  public long nanosUntilAvailable(Priority priority) {
    return nanosUntilAvailable(1, priority.ordinal());
  }

  private long nanosUntilAvailable(int permits, int priority) {
    long current = state.get();
    Rate r = rate;
    checkPermits(permits, r);
    long now = now();
    long tat = epochOf(current) == r.epoch ? current - r.epoch : converted(current, r, now);
    long next = later(tat, now) + permits * r.interval;
    return Math.max(0, next - now - r.tolerances[priority]) >>> 1;
  }

  /**
   * Places up to {@code permits} permits of a debt that {@link RateLimit.ClassDebts} owes, from
   * {@code tat} itself rather than from the later of {@code tat} and now: first the gap between
   * {@code tat} and now, capacity that time brought and nobody used (every admission moves
   * {@code tat} to now at least, so the gap is unused by construction, and it lies after the debt
   * was made, since a permit is owed only when {@code tat} was ahead of the clock); then, when
   * {@code depthOf} is given, that priority's depth above now, as its own admissions would take it.
   * It never places a permit beyond that reach: a debt without a depth leaves the bucket full.
   *
   * @param permits permits owed, at least 1
   * @param depthOf the priority whose depth may pay too, or {@code null} for the gap only
   * @return how many were placed, from 0 to {@code permits}
   */
  long repay(long permits, Priority depthOf) {
    long now = now(); // once, as in tryAcquire
    for (;;) {
      long current = state.get();
      Rate r = rate;
      if (epochOf(current) != r.epoch) {
        convert(current, r, now);
        continue;
      }
      if (r.permitsPerSecond == 0) {
        return 0; // a share of zero brings no capacity
      }
      long tat = current - r.epoch;
      long room = now - tat + (depthOf == null ? 0 : r.tolerances[depthOf.ordinal()]);
      long placed = room < r.interval ? 0 : Math.min(permits, room / r.interval);
      if (placed == 0 || state.compareAndSet(current, tat + placed * r.interval + r.epoch)) {
        return placed;
      }
    }
  }

  /**
   * How long until a door of {@code priority} is admitted when {@code owed} permits are owed
   * before it and nobody else calls: the debt placed from {@code tat} ({@link #repay}), then the
   * door's own permit within its depth.
   *
   * @return nanoseconds, {@code 0} if a door would be admitted now
   */
  long nanosUntilRepaid(long owed, Priority priority) {
    if (owed == 0) {
      return nanosUntilAvailable(priority);
    }
    long current = state.get();
    Rate r = rate;
    long now = now();
    long tat = epochOf(current) == r.epoch ? current - r.epoch : converted(current, r, now);
    long tolerance = r.tolerances[priority.ordinal()];
    if (owed < MAX_SPAN / r.interval) { // exact: every term below 2^61
      return Math.max(0, tat - now + (owed + 1) * r.interval - tolerance) >>> 1;
    }
    double wait = (double) (tat - now) + (owed + 1.0) * r.interval - tolerance;
    return (long) Math.min(Long.MAX_VALUE / 2.0, Math.max(0, wait) / 2);
  }

  /**
   * Changes the rate at once, keeping the burst. The permits already used stay used (counted in
   * the new interval), so an empty bucket stays empty and a change never hands out a fresh burst.
   *
   * @param permitsPerSecond the new rate, from 0.001 to 10<sup>9</sup>
   * @throws IllegalArgumentException if the rate is not a finite number in range, or the burst
   *     at that rate would span more than about 18 years; then nothing changes
   */
  public void setRate(double permitsPerSecond) {
    rateChange.lock();
    try {
      publish(checkedRate(permitsPerSecond, Math.max(1, rate.burst), reserve, rate,
          rate.epoch ^ 1));
    } finally {
      rateChange.unlock();
    }
  }

  /**
   * Changes the rate and the burst together, for a share that changed. The permits available
   * stay available, or fewer when the burst shrank: a change never refills the bucket. A rate of
   * zero admits nothing (forced permits are still charged, at the slowest rate's interval); the
   * bucket leaves it empty.
   *
   * @param permitsPerSecond the new rate: from 0.001 to 10<sup>9</sup>, or zero
   * @param burst the new burst, at least 1 (ignored for a zero rate)
   * @throws IllegalArgumentException if the two are out of range; then nothing changes
   */
  public void setRate(double permitsPerSecond, int burst) {
    rateChange.lock();
    try {
      Rate previous = rate;
      publish(permitsPerSecond == 0
          ? new Rate(0, 0, reserve, previous, previous.epoch ^ 1)
          : checkedRate(permitsPerSecond, burst, reserve, previous, previous.epoch ^ 1));
    } finally {
      rateChange.unlock();
    }
  }

  /** Publishes {@code next}, then returns once the state carries its epoch. */
  private void publish(Rate next) {
    rate = next;
    for (;;) {
      long current = state.get();
      if (epochOf(current) == next.epoch) {
        return;
      }
      convert(current, next, now());
    }
  }

  /**
   * Returns the largest burst a bucket may have at {@code permitsPerSecond}: about 18 years of it.
   *
   * @param permitsPerSecond a rate from 0.001 to 10<sup>9</sup>
   * @return the most permits, capped at {@link Integer#MAX_VALUE}
   */
  public static int maxBurst(double permitsPerSecond) {
    return (int) Math.min(Integer.MAX_VALUE, MAX_SPAN / intervalOf(permitsPerSecond));
  }

  /**
   * Returns the configured rate.
   *
   * @return permits per second as last set; {@code 0} while the bucket admits nothing
   */
  public double permitsPerSecond() {
    return rate.permitsPerSecond;
  }

  /**
   * Returns the depth of the bucket.
   *
   * @return the most permits that can be taken at once; {@code 0} while the bucket admits nothing
   */
  public int burst() {
    return rate.burst;
  }

  @Override
  public String toString() {
    Rate r = rate;
    return "Bucket[" + r.permitsPerSecond + " permits/s, burst " + r.burst + "]";
  }

  /** Publishes {@code current}, written under the previous rate, in the units of {@code r}. */
  private void convert(long current, Rate r, long now) {
    state.compareAndSet(current, converted(current, r, now) + r.epoch);
  }

  /**
   * The tat of {@code current} (written under the previous rate) in the units of {@code r}: the
   * permits still available stay available, never more than the new burst; a debt stays owed.
   * Computed in {@code double} and capped before the cast, so no debt can saturate or wrap.
   */
  private static long converted(long current, Rate r, long now) {
    long usedSpan = Math.max(0, (current - epochOf(current)) - now);
    double used = (double) usedSpan / r.previousInterval + (r.burst - r.previousBurst);
    double span = Math.min(Math.ceil(Math.max(0, used) * r.interval), MAX_SPAN);
    return now + roundUpToEven(span);
  }

  /** Reads the ticker in half-nanoseconds: always even. */
  private long now() {
    return ticker.read() << 1;
  }

  /** The later of two instants, compared by difference so that wrap-around is harmless. */
  private static long later(long a, long b) {
    return a - b > 0 ? a : b;
  }

  private static int epochOf(long state) {
    return (int) (state & 1);
  }

  /** One permit's interval in half-nanoseconds: whole nanoseconds, rounded up. */
  private static long intervalOf(double permitsPerSecond) {
    return roundUpToEven(Math.ceil(HALF_NANOS_PER_SECOND / permitsPerSecond));
  }

  private static long roundUpToEven(double halfNanos) {
    long value = (long) halfNanos;
    return value + (value & 1);
  }

  private static void checkPermits(int permits, Rate r) {
    if (permits < 1 || permits > r.maxPermits) {
      throw new IllegalArgumentException(
          "permits must be between 1 and the burst (" + r.burst + "), but was " + permits);
    }
  }

  private static Rate checkedRate(double permitsPerSecond, int burst, double reserve,
      Rate previous, int epoch) {
    if (!(permitsPerSecond >= MIN_RATE && permitsPerSecond <= MAX_RATE)) {
      throw new IllegalArgumentException("permitsPerSecond must be a number from " + MIN_RATE
          + " to " + MAX_RATE + ", but was " + permitsPerSecond);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, but was " + burst);
    }
    if (burst > maxBurst(permitsPerSecond)) {
      throw new IllegalArgumentException("a burst of " + burst + " at " + permitsPerSecond
          + " permits/s spans too long a time (at most " + maxBurst(permitsPerSecond)
          + " permits, about 18 years); lower the burst or raise the rate");
    }
    return new Rate(permitsPerSecond, burst, reserve, previous, epoch);
  }

  /**
   * Returns the burst {@code priority} sees now.
   *
   * @param priority a priority
   * @return permits it may take at once from a full bucket
   */
  public int burst(Priority priority) {
    return Reserve.classBurst(rate.burst, reserve, priority.ordinal());
  }
}
