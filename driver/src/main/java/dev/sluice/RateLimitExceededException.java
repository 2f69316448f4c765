package dev.sluice;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Locale;

/**
 * Thrown, at once and without waiting, when a gated JDBC call finds no permit while the breaker
 * flag is open, or finds this instance's cap on statements in flight reached
 * ({@code sluice.concurrency}); {@link #limit()} says which. Retrying later may succeed;
 * {@link #retryAfter()} says when a permit is likely.
 *
 * <p>Its type makes the frameworks read it as a transient resource error: Spring JDBC translates
 * it to {@code TransientDataAccessResourceException}, Hibernate to {@code JDBCConnectionException}.
 * To keep them from misreading it, its SQLState is {@code null} (a class-08 state would make
 * HikariCP evict a healthy connection), its vendor code is {@code 0}, and no next exception is
 * chained. The connection it was thrown on stays usable.
 *
 * <p>It carries no stack trace unless {@code sluice.stack-traces=true}: during an outage it is
 * thrown thousands of times a second, and the stack is always the caller's own. Its message is
 * built only when read.
 */
public final class RateLimitExceededException extends SQLTransientConnectionException {
  private static final long serialVersionUID = 1L;

  /** The {@code sluice.name} of the budget that refused the call. */
  private final String budgetName;
  /** This instance's share of the budget, in permits per second. */
  private final double permitsPerSecond;
  /** Why the call was refused, completing "rate limit exceeded: ...". */
  private final String reason;
  /** How long until a permit is likely to be free, in nanoseconds. */
  private final long retryAfterNanos;
  /** Which limit refused the call. */
  private final Limit limit;
  /** With {@link Limit#CONCURRENCY}: this instance's cap on statements in flight. */
  private final int concurrencyLimit;

  RateLimitExceededException(
      String budgetName, double permitsPerSecond, String reason, long retryAfterNanos,
      boolean withStackTrace) {
    this(budgetName, permitsPerSecond, reason, retryAfterNanos, withStackTrace, Limit.RATE, 0);
  }

  RateLimitExceededException(
      String budgetName, double permitsPerSecond, String reason, long retryAfterNanos,
      boolean withStackTrace, Limit limit, int concurrencyLimit) {
    super(null, null, 0);
    this.limit = limit;
    this.concurrencyLimit = concurrencyLimit;
    this.budgetName = budgetName;
    this.permitsPerSecond = permitsPerSecond;
    this.reason = reason;
    this.retryAfterNanos = retryAfterNanos;
    if (withStackTrace) {
      super.fillInStackTrace();
    }
  }

  /**
   * Makes the refusal of a call that found no permit. For Sluice's limiter, which makes it only
   * where a refusal goes on to the caller: not an API to build on (it may change in any release).
   *
   * @param budgetName the {@code sluice.name} of the budget
   * @param permitsPerSecond this instance's share of the budget
   * @param reason completes "rate limit exceeded: ..."
   * @param retryAfterNanos how long until a permit is likely
   * @param withStackTrace {@code sluice.stack-traces}
   * @return the exception, not thrown
   */
  public static RateLimitExceededException ofRate(String budgetName, double permitsPerSecond,
      String reason, long retryAfterNanos, boolean withStackTrace) {
    return new RateLimitExceededException(budgetName, permitsPerSecond, reason, retryAfterNanos,
        withStackTrace);
  }

  /**
   * Makes the refusal of a call that found this instance's cap on statements in flight reached.
   * For Sluice's limiter, as {@link #ofRate}: not an API to build on.
   *
   * @param budgetName the {@code sluice.name} of the budget
   * @param permitsPerSecond this instance's share of the budget
   * @param reason completes "rate limit exceeded: ..."
   * @param cap the cap that was reached
   * @param withStackTrace {@code sluice.stack-traces}
   * @return the exception, not thrown
   */
  public static RateLimitExceededException ofConcurrency(String budgetName,
      double permitsPerSecond, String reason, int cap, boolean withStackTrace) {
    return new RateLimitExceededException(budgetName, permitsPerSecond, reason, 0,
        withStackTrace, Limit.CONCURRENCY, cap);
  }

  /**
   * Returns the name of the budget that refused the call.
   *
   * @return the {@code sluice.name} of the limiter
   */
  public String budgetName() {
    return budgetName;
  }

  /**
   * Returns this instance's share of the budget when the call was refused.
   *
   * @return permits per second admitted by this instance
   */
  public double permitsPerSecond() {
    return permitsPerSecond;
  }

  /**
   * Returns how long until a permit is likely to be free. A hint, not a promise: other threads
   * may take it first.
   *
   * @return the time to wait before retrying, never negative
   */
  public Duration retryAfter() {
    return Duration.ofNanos(retryAfterNanos);
  }

  /**
   * Returns {@link #retryAfter()} in milliseconds, rounded up, for a {@code Retry-After} header
   * or a back-off.
   *
   * @return milliseconds to wait, at least 1
   */
  public long retryAfterMillis() {
    return Math.max(1, (retryAfterNanos + 999_999) / 1_000_000);
  }

  /**
   * Returns which limit refused the call: the rate (this instance's share of
   * {@code sluice.budget}) or the cap on what is in flight at once ({@code sluice.concurrency}).
   *
   * @return {@link Limit#RATE} or {@link Limit#CONCURRENCY}
   */
  public Limit limit() {
    return limit;
  }

  @Override
  public String getMessage() {
    if (limit == Limit.CONCURRENCY) {
      return String.format(Locale.ROOT,
          "%s - concurrency limit exceeded: %s (cap %d in flight at once); retry in %d ms",
          budgetName, reason, concurrencyLimit, retryAfterMillis());
    }
    return String.format(Locale.ROOT,
        "%s - rate limit exceeded: %s (share %s permits/s); retry in %d ms",
        budgetName, reason, rate(permitsPerSecond), retryAfterMillis());
  }

  /** Does nothing: the stack trace is filled, if wanted, by the constructor. */
  @Override
  public Throwable fillInStackTrace() {
    return this;
  }

  /**
   * A rate as the message writes it: {@code 500}, {@code 0.833} (as the log lines do; kept here so
   * that this API type depends on no internal one).
   */
  private static String rate(double permitsPerSecond) {
    return permitsPerSecond == Math.rint(permitsPerSecond) && permitsPerSecond < 1e15
        ? Long.toString((long) permitsPerSecond)
        : String.format(Locale.ROOT, "%.3f", permitsPerSecond);
  }
}
