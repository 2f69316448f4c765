package dev.sluice.internal.redis;

/**
 * Redis did not answer in time: refused, timed out, no pooled connection free, or an error
 * reply. Its message never holds a password.
 */
public final class RedisDown extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, passwords masked
   * @param cause the client's exception, or {@code null}
   */
  public RedisDown(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
