package dev.sluice.internal.limit;

import dev.sluice.RateLimitExceededException;

/**
 * Makes the exceptions the {@link Limiter} throws. The exception's constructors are not public (it
 * is the API's), so the API package hands its factory to every limiter it builds.
 */
public interface Refusals {

  /**
   * A call refused by the bucket.
   *
   * @param budgetName the budget's {@code sluice.name}
   * @param permitsPerSecond this instance's share
   * @param reason why, in words
   * @param retryAfterNanos how long until a permit is likely to be free
   * @param withStackTrace {@code sluice.stack-traces}
   * @return the exception to throw
   */
  RateLimitExceededException rate(String budgetName, double permitsPerSecond, String reason,
      long retryAfterNanos, boolean withStackTrace);

  /**
   * A call refused by the cap on statements in flight.
   *
   * @param budgetName the budget's {@code sluice.name}
   * @param permitsPerSecond this instance's share
   * @param reason why, in words
   * @param withStackTrace {@code sluice.stack-traces}
   * @param cap the cap that was reached
   * @return the exception to throw
   */
  RateLimitExceededException concurrency(String budgetName, double permitsPerSecond,
      String reason, boolean withStackTrace, int cap);
}
