package dev.sluice.internal.redis;

/**
 * A Redis call did not succeed: Redis was unreachable (refused, timed out, no pooled connection
 * free, silent), or it answered with an error reply ({@code NOPERM}, {@code WRONGTYPE},
 * {@code WRONGPASS}, ...), which {@link #refused()} tells apart. Its message names the command
 * and never holds a password.
 */
public final class RedisDown extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean refused;

  /**
   * Creates the exception for a Redis that could not be reached in time.
   *
   * @param message what failed, passwords masked
   * @param cause the client's exception, or {@code null}
   */
  public RedisDown(String message, Throwable cause) {
    this(message, cause, false);
  }

  /**
   * Creates the exception.
   *
   * @param message what failed, passwords masked
   * @param cause the client's exception, or {@code null}
   * @param refused whether Redis answered, with an error reply
   */
  public RedisDown(String message, Throwable cause, boolean refused) {
    super(message, cause, false, false);
    this.refused = refused;
  }

  /**
   * Returns whether Redis answered, but with an error: reachable, yet refusing this command (an
   * ACL without the command, a key of the wrong type, a wrong password).
   *
   * @return {@code true} for an error reply, {@code false} for no answer in time
   */
  public boolean refused() {
    return refused;
  }
}
