package dev.sluice.internal.jdbc;

import dev.sluice.RateLimitExceededException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A statement handed out by a {@link ConnectionWrapper}. Each execution ({@code execute*},
 * {@code executeLarge*}, batches) first reports to the connection, whose limiter admits, charges
 * or refuses it; a refused call never reaches the driver and leaves the statement usable. It
 * reports back when the call returns or throws, exactly once on every way out.
 * {@code getConnection()} returns the connection wrapper, and the result sets returned are
 * wrapped so that their {@code getStatement()} returns this wrapper.
 *
 * <p>The prepared and callable wrappers extend it. Only {@code executeQuery} is written here;
 * the rest of the gated family is generated (see the class comment), the same body in each of
 * the three statement classes. No closed flag of its own ({@code close} is delegated): JDBC
 * makes closing a closed statement a no-op, and one field less keeps the wrapper small.
 */
abstract class StatementWrapper implements Statement {
  /** Its connection as a statement sees it: what it reports to, its {@code getConnection()}. */
  final ReportingConnection connection;
  /** The driver's statement. */
  final Statement delegate;
  /**
   * The result set last handed out, so asking twice for the same one gives the same wrapper: a
   * wrapper of the driver's, or the answer of a read answered instead of refused.
   */
  private ResultSet resultSet;

  StatementWrapper(ReportingConnection connection, Statement delegate) {
    this.connection = connection;
    this.delegate = delegate;
  }

  /**
   * Wraps a result set of this statement, reusing the wrapper when the driver repeats itself;
   * the generated {@code getResultSet} and {@code getGeneratedKeys} call it too.
   */
  final ResultSet wrap(ResultSet raw) {
    if (!(resultSet instanceof ResultSetWrapper last && last.delegate == raw)) {
      resultSet = raw == null ? null : new GeneratedResultSet(connection, this, raw);
    }
    return resultSet;
  }

  /** A read of this statement was answered instead of refused: its result, for getResultSet. */
  final ResultSet answered(ResultSet answer) {
    resultSet = answer;
    return answer;
  }

  /** The answer of this statement's last execution, or {@code null} when the driver ran it. */
  final ResultSet lastAnswer() {
    ResultSet last = resultSet;
    return last == null || last instanceof ResultSetWrapper ? null : last;
  }

  @Override
  public final Connection getConnection() throws SQLException {
    return connection;
  }

  // --- the gated calls: report before, and after on every way out. The rest of the family
  // (executeUpdate, execute, executeLargeUpdate, the batches) is generated from GATED and
  // GATED_BODY in driver/src/build/java/GenerateWrappers.java, to the same shape as this one.

  /**
   * Gated as every execution; with answers on, a refused eligible read may be answered
   * instead, and an admitted one recorded while limiting (see {@link ConnectionWrapper}).
   */
  @Override
  public final ResultSet executeQuery(String sql) throws SQLException {
    int held;
    try {
      held = connection.beforeRead(sql);
    } catch (RateLimitExceededException refused) {
      return answered(Answering.answerOrThrow(connection, refused, this, sql, null, false));
    }
    try {
      return Answering.recorded(connection, this, wrap(delegate.executeQuery(sql)), sql, null,
          false);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }
}
