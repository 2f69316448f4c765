package dev.sluice.internal.jdbc;

import dev.sluice.internal.answer.Answering.Identity;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The connection Sluice hands out. With the other wrappers of this package (one file each) it
 * holds all that Sluice's JDBC objects do beyond passing a call on: the connection's state (in
 * {@link ReportingConnection}, which it extends), the statements' gated {@code execute*} family
 * and the wrapping that keeps every object reached through JDBC a wrapper.
 *
 * <p>Each wrapper is an abstract class holding only the methods Sluice intercepts, all
 * {@code final}; {@code driver/src/build/java/GenerateWrappers.java} writes the final class
 * handed out ({@code GeneratedConnection}...) at build time: every other JDBC 4.3 method as a
 * plain call to the driver's object, objects returned through a {@code wrap} overload, and the
 * gated {@code execute*} methods listed in its {@code GATED} from one template. Only the three
 * that may answer a read are written by hand: the two {@code executeQuery} and
 * {@code PreparedStatement.execute()}, which ask the answers through
 * {@link StatementWrapper#answerOrRefuse} (the answers decide, {@code Answering}).
 *
 * <p>Here: {@link #setAutoCommit} reports before it reaches the driver (and keeps the new state
 * only if the driver took it; a failed switch to auto-commit still ends the transaction);
 * {@link #commit()} and {@link #rollback()} report after they return or throw. Nothing else is
 * gated. A place that outlives a statement ({@link ConnectionState#TX_PLACE},
 * {@link ConnectionState#CHECKOUT_PLACE}) is given back on the first {@link #close()} or
 * {@link #abort}.
 *
 * <p>No circle of classes: a wrapper is made only by the class above it and refers back only
 * through a type below it. Identity is {@link Object}'s; one thread at a time, no lock. Why, and
 * the rest: docs/architecture.md ("Why the JDBC delegation is generated").
 */
abstract class ConnectionWrapper extends ReportingConnection {
  /** The metadata last handed out, so asking twice gives the same wrapper. */
  private DatabaseMetaDataWrapper metaData;

  ConnectionWrapper(Connection delegate, Limiter limiter, Answers answers, int state,
      String user) {
    super(delegate, limiter, answers, state, user);
  }

  /**
   * Switching to manual commit may be a transaction's door: the limiter admits it, or throws before
   * the driver sees the call, so the connection stays as it was. Switching to auto-commit ends
   * the transaction, whether the driver's call returns or throws (see
   * {@link dev.sluice.internal.limit.Limiter.Places#afterAutoCommit}).
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
   * a failed one ends it too (see {@code Limiter.Places.afterEnd}).
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
