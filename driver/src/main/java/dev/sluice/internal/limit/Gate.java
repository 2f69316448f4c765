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
   * Never part of a connection's state: returned with it by {@link #beforeStatement} and
   * {@link #beforeCheckout} when the call took a place in flight ({@code sluice.concurrency}),
   * which {@link #afterStatement} (or {@link #afterCheckout}) must give back exactly once. A
   * high bit, apart from the state's own.
   */
  int HELD = 1 << 30;

  /**
   * Never part of a connection's state either: returned by {@link #beforeStatement} for the
   * statements whose latency an adaptive cap learns from ({@code sluice.concurrency=auto}): while
   * not limiting, one in {@link #SAMPLE_EVERY} of a connection, so that it knows the database's
   * no-load latency before an outage (nothing is held; {@link #afterStatement} only reports it);
   * while limiting, beside {@link #HELD}, one admitted statement in the controller's stride
   * (every one while few run).
   */
  int SAMPLED = 1 << 29;

  /** One statement in this many is {@link #SAMPLED} on the flag-closed path, per connection. */
  int SAMPLE_EVERY = 64;

  /** The state's bits that count a connection's statements towards the next sample (23-28). */
  int SAMPLE_COUNT = (SAMPLE_EVERY - 1) << 23;

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
   * @return {@link #HELD} when the checkout took a place in flight (in {@code connection} scope),
   *     to give back by {@link #afterCheckout} when the connection closes or the checkout fails;
   *     else {@code 0}
   * @throws SQLException a {@code RateLimitExceededException} when a checkout is refused
   */
  int beforeCheckout() throws SQLException;

  /**
   * Called once a checkout that {@link #beforeCheckout} admitted ends: the connection closed, or
   * the delegate failed to hand one out ({@code failure}, which may be the pool's timeout).
   *
   * @param held what {@link #beforeCheckout} returned
   * @param failure the delegate's failure, or {@code null}
   */
  void afterCheckout(int held, SQLException failure);

  /**
   * The time an admitted statement starts, to pass to {@link #afterStatement}: read only when
   * a statement was {@link #SAMPLED} (its latency is measured); a statement that is only
   * {@link #HELD} is not timed.
   *
   * @return a {@link Ticker} reading, or {@code 0}
   */
  long startNanos();

  /**
   * Called when a statement that was {@link #HELD} or {@link #SAMPLED} has returned or thrown:
   * gives its place back if it held one, and reports its latency and outcome where the cap
   * adapts.
   *
   * @param held the bits {@link #beforeStatement} returned of {@link #HELD} and {@link #SAMPLED}
   * @param startNanos what {@link #startNanos()} returned when it was admitted
   * @param sql its text, or {@code null} (a batch)
   * @param failure what it threw, or {@code null}: a {@code RuntimeException} or an {@code Error}
   *     is reported as {@code null}, never as overload
   */
  void afterStatement(int held, long startNanos, String sql, SQLException failure);

  /**
   * Called before a statement executes, with the connection's state.
   *
   * @param state the connection's transaction state
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @return the state after the statement is admitted, with {@link #HELD} added when it took a
   *     place in flight
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
   * @return the state after the statement is admitted, with {@link #HELD} added when it took a
   *     place in flight
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
