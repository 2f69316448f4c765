package dev.sluice.examples.drill;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The shared cache in front of the database (Redis, in the article), used cache-aside: a read
 * looks its key up; on a miss it reads the database and, if the database answered, stores the
 * entry for the TTL. A read the database never answered (refused by Sluice, timed out) stores
 * nothing, so the cache can refill only as fast as the database answers.
 *
 * <p>Keys are {@code 0 .. keys-1}, drawn with Zipf-like popularity: key {@code k} is read with
 * probability proportional to {@code 1 / (k+1)^skew}. A few hot keys take most reads and a long
 * tail takes the rest, so a cache that comes back empty answers the hot keys again within a
 * second but the tail only slowly: the misses fall off gradually rather than at once.
 *
 * <p>Capacity is the whole key space (a Redis with memory to spare): only the TTL removes an
 * entry. In a steady state each key is present for {@code ttl} after each miss and absent until its
 * next read, so with reads of key {@code k} arriving at rate {@code λ} it answers a share
 * {@code λ·ttl / (1 + λ·ttl)} of them; {@link #steadyHitRatio} sums that over the keys, and
 * {@link #warmUp} starts the cache in that state.
 *
 * <p>When the cache fails it answers nothing and stores nothing; it comes back either empty (a
 * restart, a failover to a cold replica: the default) or with its entries ({@code --cache-return
 * warm}).
 *
 * <p>This class is threadsafe. A lookup and a store are one read or write of an
 * {@link AtomicLongArray} slot and allocate nothing; two reads that miss the same key both go to
 * the database, as they do without request coalescing.
 */
final class SimulatedCache {
  private static final long ABSENT = 0;

  private final double[] cumulative;
  private final long ttlNanos;
  private final long originNanos;
  /** Per key, when its entry expires, in nanoseconds after {@code originNanos}; 0 if absent. */
  private final AtomicLongArray expiresAt;
  private volatile boolean up = true;

  SimulatedCache(int keys, double skew, long ttlNanos, long originNanos) {
    this.cumulative = zipf(keys, skew);
    this.ttlNanos = ttlNanos;
    this.originNanos = originNanos;
    this.expiresAt = new AtomicLongArray(keys);
  }

  /** The cumulative popularity of keys 0..i, normalised so that the last is exactly 1. */
  private static double[] zipf(int keys, double skew) {
    double[] cumulative = new double[keys];
    double sum = 0;
    for (int k = 0; k < keys; k++) {
      sum += Math.pow(k + 1, -skew);
      cumulative[k] = sum;
    }
    for (int k = 0; k < keys; k++) {
      cumulative[k] /= sum;
    }
    cumulative[keys - 1] = 1;
    return cumulative;
  }

  int keys() {
    return cumulative.length;
  }

  /** The probability that a read is for key {@code k}. */
  double popularity(int k) {
    return k == 0 ? cumulative[0] : cumulative[k] - cumulative[k - 1];
  }

  /**
   * The key a read with uniform draw {@code u} is for: inverse transform over the cumulative
   * popularity, a binary search over one array, nothing allocated.
   *
   * @param u uniform in {@code [0, 1)}
   * @return the key
   */
  int key(double u) {
    int i = Arrays.binarySearch(cumulative, u);
    // not found: -(insertion point) - 1, and the insertion point is the first cumulative > u
    return i >= 0 ? Math.min(i + 1, cumulative.length - 1) : -i - 1;
  }

  /**
   * Looks a key up.
   *
   * @return whether the cache is up and holds an unexpired entry for {@code key} at {@code now}
   */
  boolean get(int key, long now) {
    long expires = expiresAt.get(key);
    return up && expires != ABSENT && expires - (now - originNanos) > 0;
  }

  /** Stores what the database just returned for {@code key}; nothing while the cache is down. */
  void put(int key, long now) {
    if (up) {
      expiresAt.set(key, Math.max(1, now - originNanos + ttlNanos));
    }
  }

  boolean isUp() {
    return up;
  }

  /** The cache dies: from now on it answers nothing and stores nothing. */
  void fail() {
    up = false;
  }

  /**
   * The cache is back.
   *
   * @param empty whether it lost its entries (a restart, a cold replica) or kept them
   */
  void restore(boolean empty) {
    if (empty) {
      for (int k = 0; k < expiresAt.length(); k++) {
        expiresAt.set(k, ABSENT);
      }
    }
    up = true;
  }

  /**
   * Fills the cache as it would be after running long at {@code readsPerSecond}: key {@code k} is
   * present with probability {@code λ·ttl / (1 + λ·ttl)}, with a remaining TTL uniform over
   * {@code (0, ttl]} (in a steady state a present entry is equally likely to be at any age).
   *
   * @param readsPerSecond the load the cache has been serving
   * @param now the current {@code System.nanoTime()}
   * @param seed makes the state reproducible
   */
  void warmUp(double readsPerSecond, long now, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double ttlSeconds = ttlNanos / 1e9;
    for (int k = 0; k < keys(); k++) {
      double lambdaTtl = readsPerSecond * popularity(k) * ttlSeconds;
      if (random.nextDouble() < lambdaTtl / (1 + lambdaTtl)) {
        long left = 1 + (long) (random.nextDouble() * ttlNanos);
        expiresAt.set(k, now - originNanos + left);
      } else {
        expiresAt.set(k, ABSENT);
      }
    }
  }

  /**
   * The share of reads a warm cache answers at {@code readsPerSecond} (see the class comment).
   *
   * @param readsPerSecond the load
   * @return the hit ratio, from 0 to 1
   */
  double steadyHitRatio(double readsPerSecond) {
    double ttlSeconds = ttlNanos / 1e9;
    double hits = 0;
    for (int k = 0; k < keys(); k++) {
      double lambdaTtl = readsPerSecond * popularity(k) * ttlSeconds;
      hits += popularity(k) * lambdaTtl / (1 + lambdaTtl);
    }
    return hits;
  }

  /**
   * The most that answering from recent results can reach while the cache is down, on the same
   * model: the share of an instance's reads answered to their users when it admits
   * {@code admittedPerSecond} of its {@code offeredPerSecond} reads (each drawn like every read)
   * and answers a refused read only when its key was admitted on this instance within the last
   * {@code maxAgeSeconds} &mdash; counted from an empty store at the outage's start, averaged
   * over {@code seconds}. The admitted reads reach their users from the database; a refused read
   * for key {@code k}, {@code t} seconds into the outage, finds an answer with probability
   * {@code 1 - exp(-admitted x p(k) x min(t, maxAge))}. Joining a read in flight is left out (a
   * read lasts milliseconds): a bound on what per-instance answers do, not a forecast.
   *
   * @param offeredPerSecond the reads one instance is offered
   * @param admittedPerSecond the reads its share lets reach the database
   * @param seconds how long the outage lasts
   * @param maxAgeSeconds {@code sluice.stale.max-age}
   * @return the share of the reads answered to their users, from 0 to 1
   */
  double answerCeiling(double offeredPerSecond, double admittedPerSecond, double seconds,
      double maxAgeSeconds) {
    double admitted = Math.min(1, admittedPerSecond / offeredPerSecond);
    int steps = 50;
    double covered = 0;
    for (int i = 0; i < steps; i++) {
      double window = Math.min((i + 0.5) * seconds / steps, maxAgeSeconds);
      for (int k = 0; k < keys(); k++) {
        double p = popularity(k);
        covered += p * -Math.expm1(-admittedPerSecond * p * window);
      }
    }
    return admitted + (1 - admitted) * covered / steps;
  }

  /** How many keys hold an unexpired entry at {@code now}, for tests and the summary. */
  int size(long now) {
    int n = 0;
    for (int k = 0; k < keys(); k++) {
      long expires = expiresAt.get(k);
      if (expires != ABSENT && expires - (now - originNanos) > 0) {
        n++;
      }
    }
    return n;
  }
}
