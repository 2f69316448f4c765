package dev.sluice.examples.cacheaside;

/**
 * The read was refused because the database's budget is spent: a web layer answers 503 with a
 * {@code Retry-After} header.
 */
public final class ServiceUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long retryAfterMillis;

  ServiceUnavailableException(String message, long retryAfterMillis, Throwable cause) {
    super(message, cause);
    this.retryAfterMillis = retryAfterMillis;
  }

  /**
   * Returns when a retry is likely to succeed.
   *
   * @return milliseconds, at least 1
   */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }
}
