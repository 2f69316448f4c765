package dev.sluice.internal.jdbc;

import dev.sluice.internal.answer.Answering;
import dev.sluice.internal.answer.Answering.Identity;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Parameters;
import dev.sluice.internal.answer.Session;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A connection as the objects it hands out see it: its state and the reports its statements
 * make, nothing that makes a wrapper. {@link ConnectionWrapper} is the one class that extends
 * it; the statements, their result sets and the metadata hold their connection as this type,
 * so that they depend on it and not on the class that makes them: the classes of this package
 * form no circle.
 *
 * <p>The {@link Limiter} decides admission. The connection only reports what happens and keeps its
 * state, an {@code int} laid out by {@link ConnectionState} (the driver's auto-commit is read
 * only when the limiter first needs it): statements report each execution through
 * {@link #beforeStatement()} (or {@link #beforeStatement(String)} when the SQL comes as text, which
 * may end the transaction) and {@link #afterStatement}; the connection's own calls
 * ({@code setAutoCommit}, {@code commit}, {@code rollback}, {@code close}) are
 * {@link ConnectionWrapper}'s.
 *
 * <p>With a concurrency cap, the limiter's answer to a statement may carry
 * {@link ConnectionState#HELD} (a place in flight) or {@link ConnectionState#SAMPLED} (its latency
 * is learned from): the connection keeps them out of the state and hands them to the statement
 * as an {@code int}, which reports them back through {@link #afterStatement} when its
 * {@code execute*} returns or throws. Without a cap, and while not limiting, that {@code int} is
 * {@code 0} and the report is one compare.
 *
 * <p>It declares no method of {@link Connection} (those are {@link ConnectionWrapper}'s, where the
 * generator looks for them), and its methods are {@code final}: a statement's report is a direct
 * call, as before there was this class.
 *
 * <p>Thread-safety: confined to the thread using the connection, as {@link ConnectionWrapper}.
 */
abstract class ReportingConnection implements Connection, Answering.ReadConnection {
  /** {@link #identity} of a closed connection, compared by reference. */
  static final Identity CLOSED = new Identity(null, null, null);

  /** The driver's connection. */
  final Connection delegate;
  /** The limiter that admits this connection's calls. */
  final Limiter limiter;
  /** The budget's answers instead of refusals, asked on a refused read; {@code null}: off. */
  final Answers answers;
  /**
   * Its state, laid out by {@link ConnectionState}; confined to the thread using it. Written here
   * by the statements' reports, and by {@link ConnectionWrapper} when a transaction ends.
   */
  int state;
  /**
   * The user the connection was asked for with, and the catalog and schema last set through this
   * wrapper: part of a read's identity for answers. {@code null} while all are the budget's
   * defaults (the usual case), made only when one of them is given; {@link #CLOSED} once the
   * connection is closed (its closed flag too: one field for both keeps the wrapper as small as
   * it was before answers). Written by {@link ConnectionWrapper}.
   */
  Identity identity;
  /**
   * When the statement now running was admitted, if it holds a place in flight. One field, not
   * one per statement: a connection runs one statement at a time.
   */
  private long startNanos;

  ReportingConnection(Connection delegate, Limiter limiter, Answers answers, int state,
      String user) {
    this.delegate = delegate;
    this.limiter = limiter;
    this.answers = answers;
    this.state = state;
    this.identity = user == null ? null : new Identity(user, null, null);
  }

  /** The user, catalog and schema given through Sluice; {@code null}: the defaults. */
  @Override
  public final Identity identity() {
    return identity;
  }

  /** Whether the connection was closed through Sluice. */
  @Override
  public final boolean closed() {
    return identity == CLOSED;
  }

  /** The state, laid out by {@link ConnectionState}. */
  final int state() {
    return state;
  }

  /**
   * Wraps a statement the driver reports (a metadata result's {@code getStatement()}), with the
   * wrapper of its kind: {@link ConnectionWrapper} makes it.
   *
   * @param raw the driver's statement, or {@code null}
   * @return its wrapper, or {@code null}
   */
  abstract Statement statement(Statement raw);

  /**
   * Reports that one of this connection's statements is about to execute.
   *
   * @return {@link ConnectionState#HELD} when it took a place in flight,
   *     {@link ConnectionState#SAMPLED} when its latency is learned from, to pass to
   *     {@link #afterStatement}; else {@code 0}
   * @throws SQLException a {@code RateLimitExceededException} when the limiter refuses it
   */
  final int beforeStatement() throws SQLException {
    return passed(held(limiter.readVerdict(state, delegate), null, null));
  }

  /**
   * As {@link #beforeStatement()}, for a prepared statement's own read, which may be answered
   * if refused: the refusal is returned ({@link ConnectionState#REFUSED}), for its statement to
   * answer or to make ({@code Limiter.refusal}). While limiting with answers on, its text and
   * parameters are noted ({@link #noteStarted}).
   *
   * @param sql the text it was prepared with, or {@code null}
   * @param parameters its parameters as recorded, or {@code null}
   * @return as {@link #beforeStatement()}, or the refusal
   */
  final int beforeRead(String sql, Parameters parameters) throws SQLException {
    return held(limiter.readVerdict(state, delegate), sql, parameters);
  }

  /**
   * As {@link #beforeStatement()}, for a prepared statement's own execution (noted as
   * {@link #beforeRead(String, Parameters)} notes it).
   *
   * @throws SQLException a {@code RateLimitExceededException} when the limiter refuses it
   */
  final int beforePrepared(String sql, Parameters parameters) throws SQLException {
    return passed(beforeRead(sql, parameters));
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
    return passed(beforeRead(sql));
  }

  /**
   * As {@link #beforeStatement(String)}, for a read that may be answered: the refusal is
   * returned, as {@link #beforeRead(String, Parameters)} returns it.
   */
  final int beforeRead(String sql) throws SQLException {
    return held(limiter.readVerdict(state, delegate, sql), sql, null);
  }

  /** What a door admitted, or its refusal made and thrown. */
  private int passed(int held) throws SQLException {
    if ((held & ConnectionState.REFUSED) != 0) {
      throw limiter.refusal(held);
    }
    return held;
  }

  /**
   * Keeps the state; the place in flight is the caller's, never part of it. A statement marked
   * {@link ConnectionState#NOTED} (limiting, answers on) is noted as it starts.
   */
  private int held(int next, String sql, Parameters parameters) {
    if ((next & ConnectionState.REFUSED) != 0) {
      return next; // the state stays as it was
    }
    state = ConnectionState.kept(next);
    int held = ConnectionState.held(next);
    if (held != 0) {
      if ((held & ConnectionState.SAMPLED) != 0) {
        startNanos = limiter.places().startNanos(); // only a sampled statement is timed
      }
      if ((held & ConnectionState.NOTED) != 0) {
        noteStarted(sql, parameters);
      }
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
      if ((held & (ConnectionState.HELD | ConnectionState.SAMPLED)) != 0) {
        limiter.places().afterStatement(held, startNanos, sql, failure);
      }
      if ((held & ConnectionState.NOTED) != 0) {
        noteEnded(failure != null);
      }
    }
    return 0;
  }

  // --- what answers follow while limiting (dev.sluice.internal.answer.Tracker): a statement the
  // limiter marked NOTED (admitted while limiting, answers on) is noted as it starts and applied
  // as it ends; a transaction's end through the JDBC API fences again what it wrote. The
  // session is found by the physical connection each time it is needed (only while limiting).

  /**
   * This connection's session, by its physical connection: looked up each time (a lock-free
   * map read, only while limiting), so that the wrapper is no larger than before answers.
   */
  final Session session(Answers answers) {
    return answers.tracker().session(delegate);
  }

  /** A noted statement starts. */
  private void noteStarted(String sql, Parameters parameters) {
    Answers a = answers;
    if (a != null) {
      a.tracker().started(session(a), sql, parameters);
    }
  }

  /** A noted statement ended: applied to its session and the fences. */
  private void noteEnded(boolean failed) {
    Answers a = answers;
    if (a != null) {
      a.tracker().ended(session(a), limiter.episode(), autoCommit(), failed);
    }
  }

  /**
   * A transaction ended through the JDBC API: what it wrote while limiting is fenced again.
   * With answers off one plain read; on, two while recording is off (nothing was kept then).
   */
  final void transactionEnded() {
    Answers a = answers;
    if (a != null && a.active()) {
      a.tracker().transactionEnded(session(a));
    }
  }

  /**
   * The session was changed through the JDBC API ({@code setSchema}, {@code setCatalog}), or
   * may be changed by the pool once the connection goes back (HikariCP resets what a borrower
   * changed): unknown until read again.
   */
  final void sessionChanged() {
    Answers a = answers;
    if (a != null) {
      session(a).unknown();
    }
  }

  /** Whether the connection is known to be in auto-commit, outside any transaction it tracks. */
  final boolean autoCommit() {
    return Boolean.TRUE.equals(autoCommitKnown());
  }

  // --- what the answers ask of a read's connection (Answering.ReadConnection): the facts it
  // keeps; the answers decide with them (StatementWrapper hands them the read)

  @Override
  public final Connection physical() {
    return delegate;
  }

  /** The one rule for auto-commit as Sluice tracks it; {@code null}: the driver's not read yet. */
  @Override
  public final Boolean autoCommitKnown() {
    return (state & ConnectionState.UNREAD) != 0 ? null
        : (state & (ConnectionState.AUTO_COMMIT | ConnectionState.IN_TRANSACTION))
            == ConnectionState.AUTO_COMMIT;
  }

  @Override
  public final long episode() {
    return limiter.episode();
  }

  @Override
  public final boolean limiting() {
    return limiter.isLimiting();
  }
}
