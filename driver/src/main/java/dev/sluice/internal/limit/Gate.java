package dev.sluice.internal.limit;

import java.sql.SQLException;

/**
 * The one place where admission is decided: the JDBC wrappers report what happens on a connection
 * and the gate charges, admits or rejects. A connection's transaction state is an {@code int} of
 * the bits below, kept by the connection (no allocation per call) and passed in and out.
 *
 * <p>Implementations are threadsafe; a connection's state is confined to the thread using it.
 */
public interface Gate {

  /** Auto-commit is on: each statement is its own unit of work. */
  int AUTO_COMMIT = 1;
  /** A transaction has been admitted and is open: its statements are charged, never rejected. */
  int IN_TRANSACTION = 1 << 1;
  /** The permit taken at the transaction's door pays for its first statement. */
  int PREPAID = 1 << 2;


  /** The state of a connection just handed out, whose auto-commit is {@code autoCommit}. */
  static int initialState(boolean autoCommit) {
    return autoCommit ? AUTO_COMMIT : 0;
  }

  /**
   * Called before {@code getConnection()} reaches the delegate.
   *
   * @throws SQLException a {@code RateLimitExceededException} when a checkout is refused
   */
  void beforeCheckout() throws SQLException;

  /**
   * Called before a statement executes, with the connection's state.
   *
   * @param state the connection's transaction state
   * @return the state after the statement is admitted
   * @throws SQLException a {@code RateLimitExceededException} when the statement is refused
   */
  int beforeStatement(int state) throws SQLException;

  /**
   * Called before {@code setAutoCommit(autoCommit)} reaches the delegate.
   *
   * @param state the connection's transaction state
   * @param autoCommit the value being set
   * @return the state once the call succeeds
   * @throws SQLException a {@code RateLimitExceededException} when a transaction is refused
   */
  int beforeAutoCommit(int state, boolean autoCommit) throws SQLException;

  /**
   * Called after {@code commit()} or {@code rollback()} (not to a savepoint) succeeded.
   *
   * @param state the connection's transaction state
   * @return the state with the transaction ended
   */
  int afterEnd(int state);
}
