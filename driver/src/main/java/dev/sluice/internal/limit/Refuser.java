package dev.sluice.internal.limit;

import dev.sluice.RateLimitExceededException;

/**
 * Makes the exceptions of one budget's refusals: its name, its share, whether they carry a stack
 * trace ({@code sluice.stack-traces}), through the API's factory ({@link ApiHooks}: the
 * exception's constructors are the API package's). Built once per budget; a refusal builds no
 * text here.
 */
public final class Refuser {
  private final String name;
  private final ApiHooks refusals;
  private final Bucket bucket;
  private final boolean stackTraces;

  Refuser(String name, ApiHooks refusals, Bucket bucket, boolean stackTraces) {
    this.name = name;
    this.refusals = refusals;
    this.bucket = bucket;
    this.stackTraces = stackTraces;
  }

  /** A call refused by the rate; a permit is likely free in {@code retryAfterNanos}. */
  RateLimitExceededException rate(String reason, long retryAfterNanos) {
    return refusals.rate(name, bucket.permitsPerSecond(), reason, retryAfterNanos, stackTraces);
  }

  /** A call refused by the cap on calls in flight, which was {@code cap}. */
  RateLimitExceededException concurrency(String reason, int cap) {
    return refusals.concurrency(name, bucket.permitsPerSecond(), reason, stackTraces, cap);
  }
}
