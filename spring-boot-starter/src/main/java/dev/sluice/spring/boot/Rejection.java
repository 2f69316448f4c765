package dev.sluice.spring.boot;

import dev.sluice.RateLimitExceededException;
import java.nio.charset.StandardCharsets;

/**
 * A {@link RateLimitExceededException} found in a cause chain, as the HTTP answer both web stacks
 * give: {@code 503}, {@code Retry-After} in whole seconds, and an RFC 9457 problem detail.
 *
 * <p>Instances are immutable and threadsafe.
 */
final class Rejection {
  static final int STATUS = 503;
  static final String CONTENT_TYPE = "application/problem+json";

  private final RateLimitExceededException cause;

  private Rejection(RateLimitExceededException cause) {
    this.cause = cause;
  }

  /**
   * Finds the rejection in {@code thrown} or its causes (Spring wraps it: JDBC in a
   * {@code TransientDataAccessResourceException}, transactions in a
   * {@code CannotCreateTransactionException}, Hibernate in a {@code JDBCConnectionException}).
   *
   * @return the rejection, or {@code null} when there is none
   */
  static Rejection in(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RateLimitExceededException) {
        return new Rejection((RateLimitExceededException) t);
      }
    }
    return null;
  }

  /** When to try again, in whole seconds, at least 1. */
  long retryAfterSeconds() {
    return Math.max(1, (cause.retryAfterMillis() + 999) / 1000);
  }

  /** The problem detail, for the request at {@code path}. */
  byte[] body(String path) {
    String detail = "The database is over its budget while the cache is down; retry in "
        + retryAfterSeconds() + " s.";
    String json = "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":"
        + STATUS + ",\"detail\":" + Json.quote(detail) + ",\"instance\":" + Json.quote(path)
        + ",\"budget\":" + Json.quote(cause.budgetName()) + "}";
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
