package dev.sluice.internal.jdbc;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.internal.answer.Answering;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Parameters;
import dev.sluice.internal.answer.Recording;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Decisions;
import dev.sluice.internal.limit.Limiter;
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
  ResultSet resultSet;

  StatementWrapper(ReportingConnection connection, Statement delegate) {
    this.connection = connection;
    this.delegate = delegate;
  }

  /**
   * Wraps a result set of this statement, reusing the wrapper when the driver repeats itself;
   * the generated {@code getResultSet} and {@code getGeneratedKeys} call it too.
   */
  final ResultSet wrap(ResultSet raw) throws SQLException {
    ResultSet last = resultSet;
    if (last instanceof ResultSetWrapper wrapper) {
      if (wrapper.delegate == raw) {
        return last;
      }
    } else if (last != null) {
      last.close(); // an answer: the driver ran this statement again, which closes its result
    }
    return resultSet = raw == null ? null : new GeneratedResultSet(connection, this, raw);
  }

  /**
   * A read of this statement was answered instead of refused: its result, for getResultSet.
   * An answer before it is closed, as the driver closes a result when its statement runs again;
   * {@code null}: the statement has no result of its own now.
   */
  final ResultSet answered(ResultSet answer) throws SQLException {
    ResultSet last = resultSet;
    resultSet = answer;
    if (last != null && last != answer && !(last instanceof ResultSetWrapper)) {
      last.close();
    }
    return answer;
  }

  /**
   * The driver runs one of this statement's executions (the generated gated family calls it once
   * admitted): an answer of an earlier one is no longer its result, and is closed, as the driver
   * closes its own. One read of a field of this wrapper when there is none.
   */
  final void running() throws SQLException {
    ResultSet last = resultSet;
    if (last != null && !(last instanceof ResultSetWrapper)) {
      resultSet = null;
      last.close();
    }
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

  // --- the statement's result: an answer stands where the driver's result would

  /** The answer of the last execution, if it was answered; else the driver's result. */
  @Override
  public final ResultSet getResultSet() throws SQLException {
    ResultSet answer = lastAnswer();
    return answer != null ? answer : driversResultSet();
  }

  /** The driver's current result, wrapped ({@link PreparedStatementWrapper} records it too). */
  ResultSet driversResultSet() throws SQLException {
    return wrap(delegate.getResultSet());
  }

  /** After an answer there is no other result: the answer is closed, as JDBC closes it. */
  @Override
  public final boolean getMoreResults() throws SQLException {
    return lastAnswer() == null ? delegate.getMoreResults()
        : getMoreResults(Statement.CLOSE_CURRENT_RESULT);
  }

  /** As {@link #getMoreResults()}; {@code KEEP_CURRENT_RESULT} leaves the answer open. */
  @Override
  public final boolean getMoreResults(int current) throws SQLException {
    ResultSet answer = lastAnswer();
    if (answer == null) {
      return delegate.getMoreResults(current);
    }
    resultSet = null;
    if (current != Statement.KEEP_CURRENT_RESULT) {
      answer.close();
    }
    return false;
  }

  /** An answer is a result, never an update count. */
  @Override
  public final int getUpdateCount() throws SQLException {
    return lastAnswer() != null ? -1 : delegate.getUpdateCount();
  }

  /** An answer is a result, never an update count. */
  @Override
  public final long getLargeUpdateCount() throws SQLException {
    return lastAnswer() != null ? -1 : delegate.getLargeUpdateCount();
  }

  // --- a read the answers may answer or record: Answering decides which, the connection tells it
  // what it knows (Answering.ReadConnection); a read left unanswered has its refusal made here

  /**
   * A read of this statement the limiter refused ({@link ConnectionState#REFUSED}, with the
   * limit and the priority it decided at): answered instead if {@link Answering#answer} has an
   * answer, else the refusal is made by the limit that refused ({@code Limiter.refusal}) and
   * thrown, with what kept it from being answered, if the driver failed, suppressed in it. The
   * answer is told to the tracing library as the refusal would have been.
   *
   * @param verdict the limiter's refusal
   * @param sql the statement's text
   * @param parameters the prepared statement's parameters, or {@code null}
   * @param prepared whether it is a prepared statement's own read
   * @return the answer
   * @throws RateLimitExceededException the refusal, when not answered
   */
  final ResultSet answerOrRefuse(int verdict, String sql, Parameters parameters,
      boolean prepared) throws RateLimitExceededException {
    Limiter limiter = connection.limiter;
    Answers a = connection.answers;
    if (a == null) {
      throw limiter.refusal(verdict);
    }
    Priority priority = Limiter.refusedAt(verdict);
    ResultSet answer = null;
    Exception unanswerable = null;
    try {
      answer = Answering.answer(a, connection, this, sql, parameters, prepared, priority);
    } catch (SQLException | RuntimeException e) {
      unanswerable = e; // not answerable: refused as without answers
    }
    if (answer == null) {
      RateLimitExceededException refusal = limiter.refusal(verdict);
      if (unanswerable != null) {
        refusal.addSuppressed(unanswerable);
      }
      throw refusal;
    }
    Decisions decisions = limiter.decisions();
    if (decisions != null) {
      decisions.answered(priority, Answers.ageMillis(answer), Answers.joined(answer));
    }
    return answer;
  }

  /**
   * An admitted read's result, which the limiter noted ({@link ConnectionState#NOTED}: limiting,
   * answers on): recorded as its caller reads it if {@link Answering#recording} finds it
   * eligible.
   *
   * @param result the wrapped result of the read
   * @param sql the statement's text
   * @param parameters the prepared statement's parameters, or {@code null}
   * @param prepared whether it is a prepared statement's own read
   * @return {@code result}
   */
  final ResultSet recorded(ResultSet result, String sql, Parameters parameters,
      boolean prepared) {
    Answers a = connection.answers;
    if (a != null && result instanceof ResultSetWrapper wrapper) {
      Recording recording = Answering.recording(a, connection, this, wrapper.delegate,
          wrapper.recording != null, sql, parameters, prepared);
      if (recording != null) {
        wrapper.recording = recording;
      }
    }
    return result;
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
    int held = connection.beforeRead(sql);
    if ((held & ConnectionState.REFUSED) != 0) {
      return answered(answerOrRefuse(held, sql, null, false));
    }
    try {
      ResultSet result = wrap(delegate.executeQuery(sql));
      // recorded only if the limiter noted it (limiting, answers on): the flag-closed path
      // reads nothing more
      return (held & ConnectionState.NOTED) == 0 ? result
          : recorded(result, sql, null, false);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }
}
