package dev.sluice;

import dev.sluice.internal.limit.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock-free token bucket: {@code permitsPerSecond} permits a second on average, at most
 * {@code burst} at once. It starts full.
 *
 * <pre>{@code
 * TokenBucket bucket = TokenBucket.of(500, 50);
 * if (!bucket.tryAcquire()) {
 *   return serviceUnavailable();
 * }
 * }</pre>
 *
 * <p>This class is threadsafe. No method blocks, waits or allocates.
 *
 * <h2>How it works</h2>
 *
 * <p>This is the generic cell rate algorithm (GCRA, ITU-T I.371; the "virtual scheduling" form).
 * Each permit costs one emission interval {@code T = 1 s / rate}. The whole state is one number,
 * the theoretical arrival time {@code tat}: the moment at which the bucket would be full again. A
 * request for {@code n} permits at time {@code now} computes {@code next = max(tat, now) + n*T} and
 * is admitted iff {@code next - now <= burst*T}; admission publishes {@code next} with one CAS.
 *
 * <p>Memory ordering: the state lives in one {@link AtomicLong}. The admit path is one volatile
 * read, arithmetic and one CAS; a failed CAS means another thread decided first, so the loop
 * re-reads and decides again. The reject path is the read and the arithmetic only: a rejection
 * writes nothing, so a flood of rejections costs no cache-line traffic.
 *
 * <p>The clock is read once per call, <em>before</em> the state, and a retry after a lost CAS
 * decides on that same reading. Reading the clock (about 25&ndash;30 ns, more than everything
 * else here together) between the state read and the CAS would hold the race window open that
 * long, so under contention most CASes would fail and each retry would pay for the clock again.
 * Deciding on a reading older than the state never admits more than the rate: every admission
 * publishes a {@code tat} at least one interval past its own reading, so a reading older than an
 * admission already published finds {@code tat} ahead of it, and {@code max(tat, now)} takes
 * {@code tat} &mdash; the decision is the one that later moment would make, judged against an
 * older {@code now}, that is, more strictly. A reading older than every published admission is
 * simply a call that arrived at that instant. Either way the decisions form a valid GCRA sequence
 * whose instants never run backwards, and the cost is at most a permit refused that a fresher
 * reading would have granted, by the few nanoseconds the reading is stale.
 *
 * <p>Changing the rate: the rate lives in an immutable {@code Rate} published through a volatile
 * field, and the state is kept in half-nanoseconds with the low bit free for an epoch that names
 * the rate the state was written under ({@code state = tat + epoch}, {@code tat} even). Readers
 * read the state <em>before</em> the rate. A state written under the new rate can only have been written after
 * the new rate was published, so its reader sees that rate too; a reader that finds the state's
 * epoch behind the rate converts the state itself (keeping the permits already used, so no fresh
 * burst appears) and publishes the conversion with the same CAS, before deciding. Every decision
 * is therefore made wholly under one rate, and no thread ever waits for another. {@link #setRate}
 * calls are serialised and each returns only once the state carries its epoch, so the one-bit
 * epoch cannot wrap around under a reader.
 *
 * <p>Time is a nanosecond {@link Ticker} and only differences of readings are compared, so the
 * origin does not matter and wrap-around is harmless. A ticker that stands still grants nothing
 * new; one that steps back is treated as standing still ({@code max(tat, now)} keeps the later),
 * so neither ever grants extra permits.
 *
 * <p>Precision: {@code T} is rounded <em>up</em> to whole half-nanoseconds, so the bucket never
 * admits more than the configured rate. The effective rate is {@code 2e9 / ceil(2e9 / rate)}:
 * exact when the rate divides 2&times;10<sup>9</sup>, and otherwise lower by less than
 * {@code rate / 2e9} of itself (0.05% at 10<sup>6</sup>/s, nothing measurable below).
 */
public final class TokenBucket {

  /** The slowest rate accepted: one permit every 1,000 seconds. */
  static final double MIN_RATE = 0.001;
  /** The fastest rate accepted: one permit a nanosecond. */
  static final double MAX_RATE = 1e9;
  /** Keeps {@code burst * interval} and the debt arithmetic far from overflow. */
  private static final long MAX_TOLERANCE = Long.MAX_VALUE >> 3;
  private static final double HALF_NANOS_PER_SECOND = 2e9;

  /**
   * An immutable rate, in the units the arithmetic uses: half-nanoseconds, always even, so that the
   * state's low bit stays free for the epoch.
   */
  private static final class Rate {
    final double permitsPerSecond;
    final long interval;
    final long tolerance;
    final long previousInterval;
    final int epoch;

    Rate(double permitsPerSecond, int burst, long previousInterval, int epoch) {
      this.permitsPerSecond = permitsPerSecond;
      this.interval = roundUpToEven(Math.ceil(HALF_NANOS_PER_SECOND / permitsPerSecond));
      this.tolerance = burst * interval;
      this.previousInterval = previousInterval;
      this.epoch = epoch;
    }
  }

  private final Ticker ticker;
  private final int burst;
  /** {@code 2 * tat + epoch}, tat in half-nanoseconds of the ticker. */
  private final AtomicLong state;
  private volatile Rate rate;
  /** Serialises {@link #setRate} calls (rare, off the request path; never held while waiting). */
  private final ReentrantLock rateChange = new ReentrantLock();

  private TokenBucket(double permitsPerSecond, int burst, Ticker ticker) {
    this.ticker = ticker;
    this.burst = burst;
    this.rate = checkedRate(permitsPerSecond, burst, 0, 0);
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
  public static TokenBucket of(double permitsPerSecond, int burst) {
    return new TokenBucket(permitsPerSecond, burst, Ticker.system());
  }

  /** As {@link #of(double, int)}, on the given ticker: for tests. */
  static TokenBucket of(double permitsPerSecond, int burst, Ticker ticker) {
    return new TokenBucket(permitsPerSecond, burst, ticker);
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
    checkPermits(permits);
    long now = now(); // once: a retry after a lost CAS decides on this reading (see above)
    for (;;) {
      long current = state.get();
      Rate r = rate;
      if (epochOf(current) != r.epoch) {
        convert(current, r, now);
        continue;
      }
      long next = later(current - r.epoch, now) + permits * r.interval;
      boolean canAcquireImmediately = next - now <= r.tolerance;
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
   * each forced permit delays later admissions by exactly one permit's interval. For work that has
   * already been admitted and must not be cut in half.
   *
   * @param permits how many permits to charge, at least 1 and at most the burst
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public void forceAcquire(int permits) {
    checkPermits(permits);
    long now = now(); // once: a retry after a lost CAS decides on this reading (see above)
    for (;;) {
      long current = state.get();
      Rate r = rate;
      if (epochOf(current) != r.epoch) {
        convert(current, r, now);
        continue;
      }
      long next = later(current - r.epoch, now) + permits * r.interval;
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
    checkPermits(permits);
    long current = state.get();
    Rate r = rate;
    long now = now();
    long tat = epochOf(current) == r.epoch ? current - r.epoch : converted(current, r, now);
    long next = later(tat, now) + permits * r.interval;
    return Math.max(0, next - now - r.tolerance) >>> 1;
  }

  /**
   * Changes the rate at once, keeping the burst. The permits already used stay used (counted in
   * the new interval), so an empty bucket stays empty and a change never hands out a fresh burst.
   *
   * @param permitsPerSecond the new rate, from 0.001 to 10<sup>9</sup>
   * @throws IllegalArgumentException if the rate is not a finite number in range
   */
  public void setRate(double permitsPerSecond) {
    rateChange.lock();
    try {
      Rate previous = rate;
      Rate next = checkedRate(permitsPerSecond, burst, previous.interval, previous.epoch ^ 1);
      rate = next;
      for (;;) {
        long current = state.get();
        if (epochOf(current) == next.epoch) {
          return;
        }
        convert(current, next, now());
      }
    } finally {
      rateChange.unlock();
    }
  }

  /**
   * Returns the configured rate.
   *
   * @return permits per second as last set
   */
  public double permitsPerSecond() {
    return rate.permitsPerSecond;
  }

  /**
   * Returns the depth of the bucket.
   *
   * @return the most permits that can be taken at once
   */
  public int burst() {
    return burst;
  }

  @Override
  public String toString() {
    return "TokenBucket[" + rate.permitsPerSecond + " permits/s, burst " + burst + "]";
  }

  /** Publishes {@code current}, written under the previous rate, in the units of {@code r}. */
  private void convert(long current, Rate r, long now) {
    state.compareAndSet(current, converted(current, r, now) + r.epoch);
  }

  /** The tat of {@code current} (written under the previous rate) in the units of {@code r}. */
  private static long converted(long current, Rate r, long now) {
    long usedSpan = Math.max(0, (current - epochOf(current)) - now);
    double usedPermits = (double) usedSpan / r.previousInterval;
    return now + roundUpToEven(Math.ceil(usedPermits * r.interval));
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

  private static long roundUpToEven(double halfNanos) {
    long value = (long) halfNanos;
    return value + (value & 1);
  }

  private void checkPermits(int permits) {
    if (permits < 1 || permits > burst) {
      throw new IllegalArgumentException(
          "permits must be between 1 and the burst (" + burst + "), but was " + permits);
    }
  }

  private static Rate checkedRate(double permitsPerSecond, int burst, long previous, int epoch) {
    if (!(permitsPerSecond >= MIN_RATE && permitsPerSecond <= MAX_RATE)) {
      throw new IllegalArgumentException("permitsPerSecond must be a number from " + MIN_RATE
          + " to " + MAX_RATE + ", but was " + permitsPerSecond);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, but was " + burst);
    }
    Rate r = new Rate(permitsPerSecond, burst, previous, epoch);
    if (r.tolerance / burst != r.interval || r.tolerance > MAX_TOLERANCE) {
      throw new IllegalArgumentException("a burst of " + burst + " at " + permitsPerSecond
          + " permits/s spans too long a time; lower the burst or raise the rate");
    }
    return r;
  }
}
