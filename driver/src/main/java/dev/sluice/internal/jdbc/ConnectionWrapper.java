package dev.sluice.internal.jdbc;

import dev.sluice.RateLimitExceededException;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Wrapper;

/**
 * The connection Sluice hands out. With the other wrappers of this package
 * ({@link StatementWrapper}, {@link PreparedStatementWrapper}, {@link CallableStatementWrapper},
 * {@link ResultSetWrapper}, {@link DatabaseMetaDataWrapper}, one file each) it holds everything
 * Sluice's JDBC objects do beyond passing a call on: the connection's state, the statements'
 * gated {@code execute*} family, and the wrapping that keeps every object reached through the
 * JDBC API a wrapper.
 *
 * <h2>Written here, generated at build time</h2>
 *
 * <p>Each wrapper is an abstract class in this package, holding only the methods Sluice
 * intercepts; the final class actually handed out ({@code GeneratedConnection},
 * {@code GeneratedStatement}...) is written at build time by
 * {@code driver/src/build/java/GenerateWrappers.java} into
 * {@code target/generated-sources/jdbc-wrappers}. It implements every other method of the JDBC
 * 4.3 interface, default methods included (so {@code beginRequest}, {@code enquoteIdentifier}
 * and friends reach the driver's own implementation), as a plain call to the driver's object:
 * no reflection, no proxy, the same bytecode as a hand-written delegation. Two rules bend that:
 * a method that returns a {@code ResultSet}, {@code Statement}, {@code Connection} or
 * {@code DatabaseMetaData} returns {@code wrap(delegate.m(...))}, a {@code wrap} overload
 * declared here (a kind with no such overload must write the method here, or the build fails),
 * and {@code wrap(sql, delegate.prepareStatement(sql, ...))} for a statement prepared from text;
 * and every class's {@code unwrap}, {@code isWrapperFor} and {@code toString} call the statics
 * {@link #unwrap(Wrapper, Wrapper, Class)}, {@link #isWrapperFor(Wrapper, Wrapper, Class)} and
 * {@link #describe} here. The methods here are {@code final}, so that a generated method can
 * never replace one, and the generator refuses a file where one is not. To intercept one more
 * method, write it here.
 *
 * <p>The one exception is the gated {@code execute*} family, whose methods all have the same
 * body: report to the connection, call the driver, report back exactly once on every way out. Only
 * the three that may answer a read are written here, the two {@code executeQuery} and
 * {@code PreparedStatement.execute()}; the others, {@code executeUpdate}, {@code execute} (each
 * overload of {@code Statement}), {@code executeLargeUpdate} (each overload of {@code Statement},
 * and the no-argument one of {@code PreparedStatement}), {@code executeBatch} and
 * {@code executeLargeBatch}, are listed in {@code GATED} in
 * {@code driver/src/build/java/GenerateWrappers.java} and written into each generated statement
 * class from its one template, {@code GATED_BODY}. So this file and that list are together the
 * whole of what is intercepted; to gate one more execute method, add it to the list.
 *
 * <p>So the path of one {@code executeQuery} stays in these files between the data source and the
 * limiter: {@code RateLimitedDataSource.getConnection()} calls {@link #wrap}, the generated
 * {@code prepareStatement(sql)} calls {@code wrap(sql, ...)} here, and {@code executeQuery()},
 * final in the statement's wrapper, asks the {@link Limiter}, which takes from the bucket. The
 * generated classes add only their constructors, the methods that pass a call on and the gated
 * family above.
 *
 * <h2>The connection</h2>
 *
 * <p>{@code unwrap} is the one door out: it returns the wrapper for the interfaces it implements
 * ({@code unwrap(Connection.class)} stays limited) and the driver's object for anything else
 * ({@code unwrap(PGConnection.class)} works for COPY; work done on it is not limited).
 *
 * <p>The {@link Limiter} decides admission. The connection only reports what happens and keeps its
 * state, an {@code int} laid out by {@link ConnectionState} (the driver's auto-commit is read
 * only when the limiter first needs it): statements report each execution through
 * {@link #beforeStatement()} (or {@link #beforeStatement(String)} when the SQL comes as text, which
 * may end the transaction), {@link #setAutoCommit} reports before it reaches the driver (and
 * keeps the new state only if the driver accepted the change; a failed switch to auto-commit
 * still ends the transaction), {@link #commit()} and {@link #rollback()} report after they
 * return or throw: a failed one ends the transaction too. Nothing else is gated: preparing,
 * setters, {@code setReadOnly}, {@code isValid}, metadata, {@code close}.
 *
 * <p>With a concurrency cap, the limiter's answer to a statement may carry
 * {@link ConnectionState#HELD} (a place in flight) or {@link ConnectionState#SAMPLED} (its latency
 * is learned from): the connection keeps
 * them out of the state and hands them to the statement as an {@code int}, which reports them back
 * through {@link #afterStatement} when its {@code execute*} returns or throws. Without a cap,
 * and while not limiting, that {@code int} is {@code 0} and the report is one compare. A place
 * that outlives a statement is kept in the state instead ({@link ConnectionState#TX_PLACE}: an
 * open transaction's, given back when it ends; {@link ConnectionState#CHECKOUT_PLACE}: a
 * checkout's in {@code connection} scope) and given back on the first {@link #close()} or
 * {@link #abort}.
 *
 * <h2>Answers instead of refusals</h2>
 *
 * <p>With {@code sluice.stale.max-age} on, the executions that run a read ask {@link Answering}:
 * a refused eligible read may be answered instead, an admitted one is recorded while limiting.
 *
 * <h2>Identity</h2>
 *
 * <p>{@code equals} and {@code hashCode} are {@link Object}'s, so a wrapper equals only itself
 * and never the driver's object. That is enough because nothing leaks: the back-references
 * ({@code Statement.getConnection()}, {@code DatabaseMetaData.getConnection()}, and through
 * {@code ResultSet.getStatement()}) return the very wrappers, so a framework comparing the
 * connection it holds with the one a statement reports (Spring's {@code DataSourceUtils}) sees
 * the same object.
 *
 * <p>Thread-safety: like the driver's objects, the wrappers are meant for one thread at a time.
 * They hold no lock and have no {@code synchronized} code (a virtual thread never pins here).
 * The state is a plain field: a connection shared between threads without ordering can at worst
 * miscount a permit, never corrupt a driver call. Calls allocate nothing beyond the wrappers of
 * the objects they return (one per statement, one per result set, one metadata wrapper per
 * connection).
 */
public abstract sealed class ConnectionWrapper implements Connection permits GeneratedConnection {
  /** The driver's connection. */
  final Connection delegate;
  private final Limiter limiter;
  /** Its state, laid out by {@link ConnectionState}; confined to the thread using it. */
  private int state;
  /** The metadata last handed out, so asking twice gives the same wrapper. */
  private DatabaseMetaDataWrapper metaData;
  /**
   * When the statement now running was admitted, if it holds a place in flight. One field, not
   * one per statement: a connection runs one statement at a time.
   */
  private long startNanos;
  /**
   * The user the connection was asked for with, and the catalog and schema last set through this
   * wrapper: part of a read's identity for answers. {@code null} while all are the budget's
   * defaults (the usual case), made only when one of them is given; {@link #CLOSED} once the
   * connection is closed (its closed flag too: one field for both keeps the wrapper as small as
   * it was before answers).
   */
  private Identity identity;
  /** {@link #identity} of a closed connection, compared by reference. */
  private static final Identity CLOSED = new Identity(null, null, null);

  ConnectionWrapper(Connection delegate, Limiter limiter, int state, String user) {
    this.delegate = delegate;
    this.limiter = limiter;
    this.state = state;
    this.identity = user == null ? null : new Identity(user, null, null);
  }

  /** See {@link #identity}. */
  record Identity(String user, String catalog, String schema) {}

  /** The limiter that admits this connection's calls. */
  final Limiter limiter() {
    return limiter;
  }

  /** The user, catalog and schema given through Sluice; {@code null}: the defaults. */
  final Identity identity() {
    return identity;
  }

  /** Whether the connection was closed through Sluice. */
  final boolean closed() {
    return identity == CLOSED;
  }

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
    return wrap(raw, limiter, checkoutHeld, null);
  }

  /**
   * As {@link #wrap(Connection, Limiter, int)}, for a connection asked for with a user.
   *
   * @param raw the connection to wrap; {@code null} gives {@code null} (and gives the place back)
   * @param limiter decides what is admitted
   * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned
   * @param user the user the connection was asked for with, part of a read's identity for
   *     answers; {@code null} for the default
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Limiter limiter, int checkoutHeld, String user) {
    if (raw == null) {
      limiter.places().afterCheckout(checkoutHeld, null);
      return null;
    }
    return new GeneratedConnection(raw, limiter, limiter.places().checkedOut(checkoutHeld), user);
  }

  /**
   * Reports that one of this connection's statements is about to execute.
   *
   * @return {@link ConnectionState#HELD} when it took a place in flight,
   *     {@link ConnectionState#SAMPLED} when its latency is learned from, to pass to
   *     {@link #afterStatement}; else {@code 0}
   * @throws SQLException a {@code RateLimitExceededException} when the limiter refuses it
   */
  final int beforeStatement() throws SQLException {
    return held(limiter.beforeStatement(state, delegate));
  }

  /**
   * Reports that one of this connection's statements is about to execute {@code sql}, given as
   * text: the limiter ends the transaction when the text does ({@code COMMIT},
   * {@code ROLLBACK}...).
   *
   * @return as {@link #beforeStatement()}
   * @throws SQLException a {@code RateLimitExceededException} when the limiter refuses it
   */
  final int beforeStatement(String sql) throws SQLException {
    return held(limiter.beforeStatement(state, delegate, sql));
  }

  /** Keeps the state; the place in flight is the caller's, never part of it. */
  private int held(int next) {
    state = ConnectionState.kept(next);
    int held = ConnectionState.held(next);
    if ((held & ConnectionState.SAMPLED) != 0) {
      startNanos = limiter.places().startNanos(); // only a sampled statement is timed
    }
    return held;
  }

  /**
   * Reports that a statement which {@link #beforeStatement()} admitted has returned or thrown.
   * The statement wrappers call it in a {@code finally}, and first in a {@code catch} of
   * {@link SQLException} with the failure (then passing on the {@code 0} it returns), so that
   * the place is given back exactly once on every way out, {@code Error}s included.
   *
   * @param held what {@link #beforeStatement()} returned
   * @param sql the statement's text (its shape), or {@code null}
   * @param failure what it threw, or {@code null}
   * @return {@code 0}: nothing is held any more
   */
  final int afterStatement(int held, String sql, SQLException failure) {
    if (held != 0) {
      limiter.places().afterStatement(held, startNanos, sql, failure);
    }
    return 0;
  }

  /** The state, laid out by {@link ConnectionState}. */
  final int state() {
    return state;
  }

  /**
   * Switching to manual commit may be a transaction's door: the limiter admits it, or throws before
   * the driver sees the call, so the connection stays as it was. Switching to auto-commit ends
   * the transaction, whether the driver's call returns or throws (see
   * {@link dev.sluice.internal.limit.Places#afterAutoCommit}).
   */
  @Override
  public final void setAutoCommit(boolean autoCommit) throws SQLException {
    int next = limiter.beforeAutoCommit(state, autoCommit, delegate);
    boolean switched = false;
    try {
      delegate.setAutoCommit(autoCommit);
      switched = true;
    } finally {
      state = limiter.places().afterAutoCommit(state, next, autoCommit, switched);
    }
  }

  /** Ends the transaction, even when it throws (see {@code Places.afterEnd}). */
  @Override
  public final void commit() throws SQLException {
    try {
      delegate.commit();
    } finally {
      state = limiter.places().afterEnd(state);
    }
  }

  /**
   * Ends the transaction, even when it throws; a rollback to a savepoint does not, and is not
   * reported.
   */
  @Override
  public final void rollback() throws SQLException {
    try {
      delegate.rollback();
    } finally {
      state = limiter.places().afterEnd(state);
    }
  }

  /**
   * Closes the driver's connection once; later calls do nothing, as JDBC asks. A place in flight
   * the checkout or an open transaction holds is given back on the first call, even if the
   * driver's close throws.
   */
  @Override
  public final void close() throws SQLException {
    if (identity != CLOSED) {
      try {
        delegate.close();
      } finally {
        givePlacesBack();
      }
    }
  }

  /**
   * Aborts the driver's connection; the places it holds are given back as by {@link #close()},
   * once, even if the driver's abort throws.
   */
  @Override
  public final void abort(java.util.concurrent.Executor executor) throws SQLException {
    try {
      delegate.abort(executor);
    } finally {
      if (identity != CLOSED) {
        givePlacesBack();
      }
    }
  }

  private void givePlacesBack() {
    identity = CLOSED;
    int held = state;
    state &= ~(ConnectionState.TX_PLACE | ConnectionState.CHECKOUT_PLACE);
    limiter.places().afterClose(held);
  }

  /** Kept: the catalog is part of a read's identity for answers. */
  @Override
  public final void setCatalog(String catalog) throws SQLException {
    delegate.setCatalog(catalog);
    Identity was = identity;
    if (was == CLOSED) {
      return; // a driver that takes the call when closed: the connection stays closed here
    }
    identity = was == null ? new Identity(null, catalog, null)
        : new Identity(was.user(), catalog, was.schema());
  }

  /** Kept: the schema is part of a read's identity for answers. */
  @Override
  public final void setSchema(String schema) throws SQLException {
    delegate.setSchema(schema);
    Identity was = identity;
    if (was == CLOSED) {
      return;
    }
    identity = was == null ? new Identity(null, null, schema)
        : new Identity(was.user(), was.catalog(), schema);
  }

  @Override
  public final void setReadOnly(boolean readOnly) throws SQLException {
    delegate.setReadOnly(readOnly);
    state = ConnectionState.readOnly(state, readOnly); // kept: a decision need not ask the driver
  }

  @Override
  public final DatabaseMetaData getMetaData() throws SQLException {
    DatabaseMetaData raw = delegate.getMetaData();
    if (raw == null) {
      return null;
    }
    if (metaData == null || metaData.delegate != raw) {
      metaData = new GeneratedDatabaseMetaData(this, raw);
    }
    return metaData;
  }

  // --- statements: each knows its connection, and a prepared one its SQL (its samples' shape).
  // createStatement, prepareStatement and prepareCall are generated: wrap(delegate.m(...)), and
  // wrap(sql, delegate.m(sql, ...)) for a statement prepared from SQL text.

  /** Wraps a statement this connection created: the generated {@code createStatement}s call it. */
  final Statement wrap(Statement raw) {
    return StatementWrapper.of(this, raw);
  }

  /** Wraps a statement prepared from {@code sql}: the generated {@code prepareStatement}s. */
  final PreparedStatement wrap(String sql, PreparedStatement raw) {
    return PreparedStatementWrapper.of(this, sql, raw);
  }

  /** Wraps a call prepared from {@code sql}: the generated {@code prepareCall}s call it. */
  final CallableStatement wrap(String sql, CallableStatement raw) {
    return CallableStatementWrapper.of(this, sql, raw);
  }

  /** Wraps a statement the driver reports, with the wrapper of its kind. */
  final Statement statement(Statement raw) {
    if (raw instanceof CallableStatement) {
      return CallableStatementWrapper.of(this, (CallableStatement) raw);
    }
    if (raw instanceof PreparedStatement) {
      return PreparedStatementWrapper.of(this, (PreparedStatement) raw);
    }
    return StatementWrapper.of(this, raw);
  }

  // --- what every wrapper does alike: its unwrap, isWrapperFor and toString are one-line calls
  // to these, generated into each class (ALIKE in GenerateWrappers)

  /**
   * The {@code unwrap} of every wrapper: the wrapper itself for the interfaces it implements (a
   * caller asking for a {@code Connection} keeps a limited one), else the driver's object.
   */
  static <T> T unwrap(Wrapper wrapper, Wrapper delegate, Class<T> iface) throws SQLException {
    if (iface.isInstance(wrapper)) {
      return iface.cast(wrapper);
    }
    if (iface.isInstance(delegate)) {
      return iface.cast(delegate);
    }
    return delegate.unwrap(iface);
  }

  /** The {@code isWrapperFor} of every wrapper: true exactly when {@link #unwrap} succeeds. */
  static boolean isWrapperFor(Wrapper wrapper, Wrapper delegate, Class<?> iface)
      throws SQLException {
    return iface.isInstance(wrapper) || iface.isInstance(delegate) || delegate.isWrapperFor(iface);
  }

  /** Names the wrapper by its class here (the generated class's superclass) and the delegate. */
  static String describe(Wrapper wrapper, Object delegate) {
    return "Sluice " + wrapper.getClass().getSuperclass().getSimpleName() + " over " + delegate;
  }
}
