package dev.sluice.internal.limit;

import java.sql.Connection;
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


  /**
   * The connection's auto-commit has not been read from the driver: nothing has needed it yet.
   * While the flag stays closed nothing ever does, so a checkout costs no driver call; the gate
   * reads it the first time a decision depends on it.
   */
  int UNREAD = 1 << 3;
  /** With auto-commit unread: a statement ran since the last commit, rollback or switch. */
  int RAN = 1 << 4;
  /** The connection is read-only: its calls are {@code SHEDDABLE} unless the code says otherwise. */
  int READ_ONLY = 1 << 5;
  /**
   * Whether the connection is read-only has not been read from the driver; as with
   * {@link #UNREAD}, only a decision while limiting ever asks.
   */
  int READ_ONLY_UNREAD = 1 << 6;
  /**
   * The open transaction passed its door in shadow mode only: enforce mode would have refused it,
   * so its statements are not charged either (they would never have run).
   */
  int UNCHARGED = 1 << 7;
  /** The bits that say whether the connection is read-only. */
  int READ_ONLY_BITS = READ_ONLY | READ_ONLY_UNREAD;

  /**
   * The state of a connection just handed out: its auto-commit is read when first needed.
   *
   * @return the state bits
   */
  static int initialState() {
    return UNREAD | READ_ONLY_UNREAD;
  }

  /**
   * The state of a connection whose auto-commit is known to be {@code autoCommit}.
   *
   * @param autoCommit the connection's auto-commit
   * @return the state bits
   */
  static int initialState(boolean autoCommit) {
    return autoCommit ? AUTO_COMMIT : 0; // and read-write, as a new connection is
  }

  /**
   * The state after {@code setReadOnly(readOnly)} succeeded: known without asking the driver.
   *
   * @param state the connection's transaction state
   * @param readOnly the value set
   * @return the state bits
   */
  static int readOnly(int state, boolean readOnly) {
    return (state & ~READ_ONLY_BITS) | (readOnly ? READ_ONLY : 0);
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
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @return the state after the statement is admitted
   * @throws SQLException a {@code RateLimitExceededException} when the statement is refused, or
   *     the driver's, when its auto-commit cannot be read
   */
  int beforeStatement(int state, Connection connection) throws SQLException;

  /**
   * Called before a statement sent as text executes ({@code Statement.execute(String)} and its
   * family). Text that ends a transaction ({@code COMMIT}, {@code ROLLBACK}, {@code END},
   * {@code ABORT}: see {@code TransactionText}) ends the one the state holds, before the driver
   * runs it, whether it then succeeds or fails; like {@code commit()} it is never refused.
   * Any other text is {@link #beforeStatement(int, Connection)}.
   *
   * @param state the connection's transaction state
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @param sql the statement's text
   * @return the state after the statement is admitted
   * @throws SQLException a {@code RateLimitExceededException} when the statement is refused, or
   *     the driver's, when its auto-commit cannot be read
   */
  int beforeStatement(int state, Connection connection, String sql) throws SQLException;

  /**
   * Called before {@code setAutoCommit(autoCommit)} reaches the delegate.
   *
   * @param state the connection's transaction state
   * @param autoCommit the value being set
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @return the state once the call succeeds
   * @throws SQLException a {@code RateLimitExceededException} when a transaction is refused, or
   *     the driver's, when its auto-commit cannot be read
   */
  int beforeAutoCommit(int state, boolean autoCommit, Connection connection) throws SQLException;

  /**
   * Called after {@code commit()} or {@code rollback()} (not to a savepoint) returned or threw:
   * a failed one ends the transaction too (on PostgreSQL a commit that fails, a deferred
   * constraint for one, has rolled the transaction back), so that a transaction never outlives
   * its real end; the next statement is a door again.
   *
   * @param state the connection's transaction state
   * @return the state with the transaction ended
   */
  int afterEnd(int state);

  /**
   * The state after {@code setAutoCommit(true)} threw. The switch commits an open transaction,
   * and a commit that fails still ends it; whether the driver switched is unknown, so its
   * auto-commit is read again when a decision first needs it.
   *
   * @return the state bits
   */
  static int afterFailedSwitchToAutoCommit() {
    return UNREAD;
  }
}
