package dev.sluice.internal.jdbc;

import dev.sluice.internal.answer.Answering;
import dev.sluice.internal.answer.Parameters;
import dev.sluice.internal.limit.ConnectionState;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A prepared statement handed out by a {@link ConnectionWrapper}: a {@link StatementWrapper}
 * whose own executions (without SQL text) are gated the same way and report the SQL it was
 * prepared with.
 */
abstract class PreparedStatementWrapper extends StatementWrapper implements PreparedStatement {
  /**
   * What {@link #admitOrAnswer()} returns for a read answered instead of refused: never a place
   * the limiter hands out ({@code ConnectionState.held} is a mask of two bits).
   */
  private static final int ANSWERED = -1;

  /** The SQL text it was prepared with, the shape of its latency samples; {@code null}: unknown. */
  final String sql;
  /**
   * The parameters set, for a read's identity: recorded by the generated setters once answers
   * are active — from its preparation ({@link Answering#parameters}), or from its first
   * execution while they are ({@link Answering#lateParameters}); until then {@code null}, and a
   * setter costs one null check. Never for a callable statement. Its thread's own, as the
   * statement is.
   */
  Parameters parameters;
  /**
   * Whether the result of the last {@code execute()} is to be recorded when asked for: set only
   * when the limiter noted it, cleared when asked. Its thread's own, as the statement is.
   */
  private boolean recordResult;

  PreparedStatementWrapper(ReportingConnection connection, String sql,
      PreparedStatement delegate) {
    super(connection, delegate);
    this.sql = sql;
    this.parameters =
        this instanceof CallableStatement ? null : Answering.parameters(connection.answers);
  }

  /** The driver's statement, as the type this wrapper was made for. */
  final PreparedStatement prepared() {
    return (PreparedStatement) delegate;
  }

  /**
   * Gated as every execution; with answers on, a refused eligible read may be answered
   * instead, and an admitted one recorded while limiting (see {@link Answering}).
   */
  @Override
  public final ResultSet executeQuery() throws SQLException {
    int held = admitOrAnswer();
    if (held == ANSWERED) {
      return lastAnswer();
    }
    try {
      return recorded(wrap(prepared().executeQuery()), held); // closes an earlier answer
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  /**
   * Gated as every execution; with answers on, a refused eligible read may be answered instead
   * (its result is then {@link #getResultSet()}'s), as {@code executeQuery()} is: jOOQ and
   * MyBatis read through {@code execute()}. An admitted one is recorded when its result is
   * asked for. Of a prepared statement's own executions only these two can run its read again,
   * so each of them sets what {@code getResultSet()} returns.
   */
  @Override
  public final boolean execute() throws SQLException {
    int held = admitOrAnswer();
    if (held == ANSWERED) {
      return true;
    }
    if ((held & ConnectionState.NOTED) != 0) {
      recordResult = true; // its result is recorded when asked for (driversResultSet)
    }
    try {
      running(); // the driver runs this one: an earlier answer is not its result any more
      return prepared().execute();
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  /**
   * Reports one of this statement's own reads to the connection: what
   * {@link ReportingConnection#beforeStatement()} returned when the limiter admits it; if it
   * refuses, {@link #ANSWERED} when the read is answered instead (the answer is then
   * {@link #lastAnswer()}), else the refusal is thrown.
   */
  private int admitOrAnswer() throws SQLException {
    int held = connection.beforeRead(sql, parameters);
    if ((held & ConnectionState.REFUSED) != 0) {
      answered(answerOrRefuse(held, sql, late(), true));
      return ANSWERED;
    }
    return held;
  }

  /**
   * The driver's result (no answer stands for it), recorded while limiting if the read is
   * eligible, as {@code executeQuery()}'s is: jOOQ and MyBatis read through {@code execute()}.
   */
  @Override
  final ResultSet driversResultSet() throws SQLException {
    ResultSet result = wrap(prepared().getResultSet());
    if (!recordResult) {
      return result; // the flag-closed case: one field read
    }
    recordResult = false;
    return recorded(result, ConnectionState.NOTED);
  }

  /**
   * An admitted read's result, recorded if eligible, when the limiter noted the read
   * ({@link ConnectionState#NOTED} in {@code held}: limiting, answers on). So the flag-closed
   * path reads nothing more than {@code held}, a local.
   */
  private ResultSet recorded(ResultSet result, int held) {
    if ((held & ConnectionState.NOTED) == 0) {
      return result;
    }
    Parameters p = late();
    return p == null ? result : recorded(result, sql, p, true);
  }

  /**
   * The parameter record, begun now if answers have become active since the statement was
   * prepared: a statement prepared once and executed many times (a loop over keys, jOOQ's
   * {@code keepStatement}, MyBatis' reuse executor) is kept and answered from its next
   * execution on, once its parameters are set again.
   */
  private Parameters late() {
    Parameters p = parameters;
    if (p == null && !(this instanceof CallableStatement)) {
      p = parameters = Answering.lateParameters(connection.answers, sql);
    }
    return p;
  }
}
