package dev.sluice;

import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.SQLException;

/** The door of one statement under auto-commit, for the tests of a limiter on its own. */
final class Doors {
  private Doors() {}

  /**
   * A statement under auto-commit passes the limiter's door, and returns at once: a permit taken
   * while limiting (and a place, given back), or the refusal.
   */
  static void admit(Limiter limiter) throws RateLimitExceededException {
    int held;
    try {
      held = ConnectionState.held(limiter.beforeStatement(ConnectionState.AUTO_COMMIT, null));
    } catch (RateLimitExceededException e) {
      throw e;
    } catch (SQLException e) {
      throw new AssertionError("an auto-commit door never asks the driver", e);
    }
    if ((held & ConnectionState.HELD) != 0) {
      limiter.places().afterStatement(ConnectionState.HELD, 0, null, null);
    }
  }
}
