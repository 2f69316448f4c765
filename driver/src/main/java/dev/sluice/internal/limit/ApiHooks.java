package dev.sluice.internal.limit;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;

/**
 * What the API package lends every limiter it builds: the priority the code set on this thread,
 * and the constructors of the exceptions a limiter throws. Both are the API's own (the
 * thread-local is private to {@link Priority}, the constructors are not public), so the limiter
 * reads and makes them through this, and no API type depends on an internal one.
 */
public interface ApiHooks {

  /**
   * The priority of the innermost {@code Priority.run}/{@code call} block on this thread.
   *
   * @return it, or {@code null} outside any block (the connection then decides)
   */
  Priority codePriority();

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
