package dev.sluice.bench;

import com.google.common.util.concurrent.RateLimiter;
import dev.sluice.TokenBucket;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;

/**
 * One way of asking "may I have a permit now?", without waiting: Sluice's bucket, a bare GCRA, and
 * the peers a user would otherwise pick, each set up for the same rate and, where the peer lets us,
 * the same depth (a tenth of a second of the rate).
 *
 * <p>Each JMH fork uses one implementation only, so the call site stays monomorphic and the JIT
 * inlines it as it would in an application.
 */
@FunctionalInterface
interface Permits {

  /** Takes one permit if one is free now; never waits. */
  boolean tryAcquire();

  /** The implementations measured, by the name used in {@code @Param}. */
  static Permits of(String impl, double permitsPerSecond) {
    int burst = burstFor(permitsPerSecond);
    switch (impl) {
      case "sluice":
        return TokenBucket.of(permitsPerSecond, burst)::tryAcquire;
      case "gcra":
        return new BareGcra(permitsPerSecond, burst)::tryAcquire;
      case "bucket4j":
        return bucket4j(permitsPerSecond, burst)::tryConsume1;
      case "resilience4j":
        return resilience4j(permitsPerSecond, burst)::acquirePermission;
      case "guava":
        return RateLimiter.create(permitsPerSecond)::tryAcquire;
      default:
        throw new IllegalArgumentException("impl must be one of sluice, gcra, bucket4j,"
            + " resilience4j, guava, but was " + impl);
    }
  }

  /** A tenth of a second of the rate, at least one permit. */
  static int burstFor(double permitsPerSecond) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, permitsPerSecond / 10));
  }

  /** Bucket4j's lock-free local bucket, nanosecond precision, refilled greedily. */
  private static Bucket4jOne bucket4j(double permitsPerSecond, int burst) {
    long periodNanos = 100_000_000L; // a burst's worth of refill every 100 ms, smoothly (greedy)
    Bucket bucket = Bucket.builder()
        .addLimit(limit -> limit.capacity(burst).refillGreedy(burst, Duration.ofNanos(periodNanos)))
        .withNanosecondPrecision()
        .build();
    return new Bucket4jOne(bucket);
  }

  /** Resilience4j's default limiter: a burst's worth of permits per 100 ms cycle, zero timeout. */
  private static AtomicRateLimiter resilience4j(double permitsPerSecond, int burst) {
    RateLimiterConfig config = RateLimiterConfig.custom()
        .limitForPeriod(burst)
        .limitRefreshPeriod(Duration.ofMillis(100))
        .timeoutDuration(Duration.ZERO)
        .build();
    return new AtomicRateLimiter("bench", config);
  }

  /** Adapts Bucket4j's {@code tryConsume(long)} to a method reference without boxing. */
  final class Bucket4jOne {
    private final Bucket bucket;

    Bucket4jOne(Bucket bucket) {
      this.bucket = bucket;
    }

    boolean tryConsume1() {
      return bucket.tryConsume(1);
    }
  }
}
