package dev.sluice.internal.jdbc;

import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The connection Sluice hands out. With the other wrappers of this package
 * ({@link StatementWrapper}, {@link PreparedStatementWrapper}, {@link CallableStatementWrapper},
 * {@link ResultSetWrapper}, {@link DatabaseMetaDataWrapper}, one file each) it holds everything
 * Sluice's JDBC objects do beyond passing a call on: the connection's state (in
 * {@link ReportingConnection}, which it extends), the statements' gated {@code execute*} family,
 * and the wrapping that keeps every object reached through the JDBC API a wrapper.
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
 * declared by the hand-written class (a kind with no such overload must write the method there,
 * or the build fails), and {@code wrap(sql, delegate.prepareStatement(sql, ...))} for a statement
 * prepared from text; and every class's {@code unwrap}, {@code isWrapperFor} and
 * {@code toString} call the statics of {@link Wrappers}. The intercepted methods are
 * {@code final}, so that a generated method can never replace one, and the generator refuses a
 * file where one is not. To intercept one more method, write it in its wrapper's file.
 *
 * <p>The one exception is the gated {@code execute*} family, whose methods all have the same
 * body: report to the connection, call the driver, report back exactly once on every way out. Only
 * the three that may answer a read are written by hand, the two {@code executeQuery} and
 * {@code PreparedStatement.execute()}; the others, {@code executeUpdate}, {@code execute} (each
 * overload of {@code Statement}), {@code executeLargeUpdate} (each overload of {@code Statement},
 * and the no-argument one of {@code PreparedStatement}), {@code executeBatch} and
 * {@code executeLargeBatch}, are listed in {@code GATED} in
 * {@code driver/src/build/java/GenerateWrappers.java} and written into each generated statement
 * class from its one template, {@code GATED_BODY}. So these files and that list are together the
 * whole of what is intercepted; to gate one more execute method, add it to the list.
 *
 * <p>So the path of one {@code executeQuery} stays in these files between the data source and the
 * limiter: {@code RateLimitedDataSource.getConnection()} calls {@link Connections#wrap}, the
 * generated {@code prepareStatement(sql)} calls {@code wrap(sql, ...)} here, and
 * {@code executeQuery()}, final in the statement's wrapper, reports to the connection, whose
 * {@link Limiter} takes from the bucket. The generated classes add only their constructors, the
 * methods that pass a call on and the gated family above.
 *
 * <h2>No circle of classes</h2>
 *
 * <p>Every dependency between the classes of this package runs one way. A wrapper is made only by
 * the class above it: {@link Connections} makes the connection; this class its statements and
 * its metadata; a statement and the metadata their result sets. What is made refers back only
 * through a type below its maker: a statement, a result set and the metadata know their
 * connection as a {@link ReportingConnection}, a result set its statement as a
 * {@link java.sql.Statement}. The hand-written classes are not {@code sealed} (the
 * {@code permits} clause would name the generated class, which names them back); nothing
 * outside this package can extend them, their constructors being package-private.
 *
 * <h2>The connection</h2>
 *
 * <p>Its state and the statements' reports are {@link ReportingConnection}'s. Here:
 * {@link #setAutoCommit} reports before it reaches the driver (and keeps the new state only if
 * the driver accepted the change; a failed switch to auto-commit still ends the transaction),
 * {@link #commit()} and {@link #rollback()} report after they return or throw: a failed one ends
 * the transaction too. Nothing else is gated: preparing, setters, {@code setReadOnly},
 * {@code isValid}, metadata, {@code close}. A place that outlives a statement is kept in the
 * state ({@link ConnectionState#TX_PLACE}: an open transaction's, given back when it ends;
 * {@link ConnectionState#CHECKOUT_PLACE}: a checkout's in {@code connection} scope) and given
 * back on the first {@link #close()} or {@link #abort}.
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
abstract class ConnectionWrapper extends ReportingConnection {
  /** The metadata last handed out, so asking twice gives the same wrapper. */
  private DatabaseMetaDataWrapper metaData;

  ConnectionWrapper(Connection delegate, Limiter limiter, int state, String user) {
    super(delegate, limiter, state, user);
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
      if (autoCommit) {
        transactionEnded(); // the switch commits
      }
    }
  }

  /** Ends the transaction, even when it throws (see {@link #end}). */
  @Override
  public final void commit() throws SQLException {
    end(true);
  }

  /**
   * Ends the transaction, even when it throws (see {@link #end}); a rollback to a savepoint does
   * not, and is not reported.
   */
  @Override
  public final void rollback() throws SQLException {
    end(false);
  }

  /**
   * Commits or rolls back, and ends the transaction whether the driver's call returns or throws:
   * a failed one ends it too (see {@code Places.afterEnd}).
   */
  private void end(boolean commit) throws SQLException {
    try {
      if (commit) {
        delegate.commit();
      } else {
        delegate.rollback();
      }
    } finally {
      state = limiter.places().afterEnd(state);
      transactionEnded(); // what it wrote, fenced again now others see it
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
      Identity was = identity;
      try {
        delegate.close();
      } finally {
        givePlacesBack();
        if (was != null && (was.catalog() != null || was.schema() != null)) {
          sessionChanged(); // a pool resets them as the connection goes back
        }
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
    sessionChanged();
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
    sessionChanged();
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
  // wrap(sql, delegate.m(sql, ...)) for a statement prepared from SQL text. Made here, the class
  // above them all: a statement knows its connection only as a ReportingConnection.

  /** Wraps a statement this connection created: the generated {@code createStatement}s call it. */
  final Statement wrap(Statement raw) {
    return raw == null ? null : new GeneratedStatement(this, raw);
  }

  /** Wraps a statement prepared from {@code sql}: the generated {@code prepareStatement}s. */
  final PreparedStatement wrap(String sql, PreparedStatement raw) {
    return raw == null ? null : new GeneratedPreparedStatement(this, sql, raw);
  }

  /** Wraps a call prepared from {@code sql}: the generated {@code prepareCall}s call it. */
  final CallableStatement wrap(String sql, CallableStatement raw) {
    return raw == null ? null : new GeneratedCallableStatement(this, sql, raw);
  }

  /** Wraps a statement the driver reports, with the wrapper of its kind; its SQL is unknown. */
  @Override
  final Statement statement(Statement raw) {
    if (raw instanceof CallableStatement) {
      return wrap(null, (CallableStatement) raw);
    }
    if (raw instanceof PreparedStatement) {
      return wrap(null, (PreparedStatement) raw);
    }
    return wrap(raw);
  }
}
