package dev.sluice;

import dev.sluice.internal.limit.ApiHooks;

/**
 * What this package lends the limiters it builds ({@link ApiHooks}): the priority the code set,
 * read from {@link Priority}'s private thread-local, and the exceptions' package-private
 * constructors. One instance, stateless.
 */
final class Hooks implements ApiHooks {
  /** The one instance every limiter is built with. */
  static final Hooks INSTANCE = new Hooks();

  private Hooks() {}

  @Override
  public Priority codePriority() {
    return Priority.ofCode();
  }

  @Override
  public RateLimitExceededException rate(String budgetName, double permitsPerSecond,
      String reason, long retryAfterNanos, boolean withStackTrace) {
    return new RateLimitExceededException(budgetName, permitsPerSecond, reason, retryAfterNanos,
        withStackTrace);
  }

  @Override
  public RateLimitExceededException concurrency(String budgetName, double permitsPerSecond,
      String reason, boolean withStackTrace, int cap) {
    return new RateLimitExceededException(budgetName, permitsPerSecond, reason, 0,
        withStackTrace, Limit.CONCURRENCY, cap);
  }
}
