package dev.sluice.internal.jdbc;

import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.limit.Limiter;
import java.sql.Connection;

/**
 * Where a connection becomes Sluice's: the data source and the driver hand the connection the
 * pool or the driver gave them to {@link #wrap}, with the budget's limiter and answers, and get
 * back the {@link ConnectionWrapper} whose statements the limiter admits and whose refused reads
 * the answers may answer. The one class of this package that names the generated
 * connection class, so it sits above all the others and none of them refers to it.
 *
 * <p>Stateless.
 */
public final class Connections {
  private Connections() {}

  /**
   * Wraps a connection just handed out by the driver or the pool, so that its statements are
   * admitted by {@code limiter}. The driver is not called: the limiter reads the connection's
   * auto-commit only when a decision first depends on it (never while the flag stays closed).
   *
   * @param raw the connection to wrap; {@code null} gives {@code null}
   * @param limiter decides what is admitted
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter) {
    return wrap(raw, limiter, 0);
  }

  /**
   * As {@link #wrap(Connection, Limiter)}, for a checkout that took a place in flight.
   *
   * @param raw the connection to wrap; {@code null} gives {@code null} (and gives the place back)
   * @param limiter decides what is admitted
   * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned: the place is given back
   *     when the connection is closed, once
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter, int checkoutHeld) {
    return wrap(raw, limiter, null, checkoutHeld, null);
  }

  /**
   * As {@link #wrap(Connection, Limiter, int)}, for the budget's connections: asked for with a
   * user, and answered from {@code answers} when a read is refused.
   *
   * @param raw the connection to wrap; {@code null} gives {@code null} (and gives the place back)
   * @param limiter decides what is admitted
   * @param answers the budget's answers instead of refusals; {@code null}: off
   * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned
   * @param user the user the connection was asked for with, part of a read's identity for
   *     answers; {@code null} for the default
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter, Answers answers,
      int checkoutHeld, String user) {
    if (raw == null) {
      limiter.places().afterCheckout(checkoutHeld, null);
      return null;
    }
    return new GeneratedConnection(raw, limiter, answers,
        limiter.places().checkedOut(checkoutHeld), user);
  }
}
