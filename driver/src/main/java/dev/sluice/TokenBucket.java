package dev.sluice;

import dev.sluice.internal.limit.Bucket;

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
 * <p>It is the generic cell rate algorithm (GCRA, ITU-T I.371), its whole state one
 * {@code AtomicLong}: an admission is one clock read, one volatile read and one CAS; a rejection
 * writes nothing. The rate is exact to the nanosecond of the interval between permits, never above
 * the rate asked for. The limiter of a {@link RateLimitedDataSource} runs on the same bucket.
 *
 * <p>This class is threadsafe. No method blocks, waits or allocates.
 */
public final class TokenBucket {
  private final Bucket bucket;

  private TokenBucket(Bucket bucket) {
    this.bucket = bucket;
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
    return new TokenBucket(Bucket.of(permitsPerSecond, burst));
  }

  /**
   * Takes one permit if one is available now.
   *
   * @return {@code true} if the permit was taken, {@code false} (taking nothing) otherwise
   */
  public boolean tryAcquire() {
    return bucket.tryAcquire(1);
  }

  /**
   * Takes {@code permits} permits if all are available now, or none.
   *
   * @param permits how many permits to take, at least 1 and at most the burst
   * @return {@code true} if the permits were taken, {@code false} (taking nothing) otherwise
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public boolean tryAcquire(int permits) {
    return bucket.tryAcquire(permits);
  }

  /**
   * Takes {@code permits} permits whether or not they are available, going into debt if need be:
   * each forced permit delays later admissions by exactly one permit's interval, up to a debt
   * that reaches about 18 years ahead. For work that has already been admitted and must not be
   * cut in half.
   *
   * @param permits how many permits to charge, at least 1 and at most the burst
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public void forceAcquire(int permits) {
    bucket.forceAcquire(permits);
  }

  /**
   * Returns how long until {@code permits} permits are likely to be available, taking none.
   *
   * @param permits how many permits, at least 1 and at most the burst
   * @return nanoseconds to wait, {@code 0} if they are available now
   * @throws IllegalArgumentException if {@code permits} is not positive or exceeds the burst
   */
  public long nanosUntilAvailable(int permits) {
    return bucket.nanosUntilAvailable(permits);
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
    bucket.setRate(permitsPerSecond);
  }

  /**
   * The rate, in permits per second.
   *
   * @return the rate
   */
  public double permitsPerSecond() {
    return bucket.permitsPerSecond();
  }

  /**
   * The depth of the bucket, in permits.
   *
   * @return the burst
   */
  public int burst() {
    return bucket.burst();
  }

  @Override
  public String toString() {
    return "TokenBucket[" + bucket.permitsPerSecond() + " permits/s, burst " + bucket.burst() + "]";
  }
}
