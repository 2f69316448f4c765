package dev.sluice.internal.jdbc;

import dev.sluice.internal.answer.Recording;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A result set handed out by a statement or metadata wrapper: {@code getStatement()} returns
 * the statement wrapper it came from. The result sets of {@link DatabaseMetaData} have no
 * statement wrapper of their own: the driver's statement, if it reports one, is wrapped on
 * first request. LOBs, arrays and structs are returned as the driver made them, since drivers
 * cast what is handed back to them. No closed flag of its own: JDBC makes closing a closed
 * result set a no-op, and one field less keeps the wrapper small.
 */
abstract class ResultSetWrapper implements ResultSet {
  /** The driver's result set. */
  final ResultSet delegate;
  /**
   * The statement wrapper this result set came from; for a metadata result, until asked, the
   * {@link ReportingConnection} that wraps the driver's statement then. One field for both, so
   * that {@link #recording} makes the wrapper no larger.
   */
  private Object owner;
  /**
   * While limiting, with answers on: keeps this result as its caller reads it
   * ({@link StatementWrapper#recorded}, as {@code Answering.recording} decides); {@code null}
   * otherwise, and {@code next()} and {@code close()} cost one null check.
   */
  Recording recording;

  ResultSetWrapper(ReportingConnection connection, Statement statement, ResultSet delegate) {
    this.owner = statement != null ? statement : connection;
    this.delegate = delegate;
  }

  /** Passed on; a recording keeps the row left first, and the whole result at its end. */
  @Override
  public final boolean next() throws SQLException {
    Recording r = recording;
    return r == null ? delegate.next() : recordedNext(r);
  }

  private boolean recordedNext(Recording r) throws SQLException {
    r.leaving(delegate);
    boolean more;
    try {
      more = delegate.next();
    } catch (SQLException | RuntimeException e) {
      recording = null;
      r.abandoned();
      throw e;
    }
    if (!more) {
      recording = null;
      r.ended();
    }
    return more;
  }

  /** Passed on; a recording of a result closed before its end keeps nothing. */
  @Override
  public final void close() throws SQLException {
    Recording r = recording;
    if (r != null) {
      recording = null;
      r.abandoned();
    }
    delegate.close();
  }

  @Override
  public final Statement getStatement() throws SQLException {
    Object o = owner;
    if (o instanceof ReportingConnection) {
      Statement wrapped = ((ReportingConnection) o).statement(delegate.getStatement());
      if (wrapped != null) {
        owner = wrapped;
      }
      return wrapped;
    }
    return (Statement) o;
  }

}
