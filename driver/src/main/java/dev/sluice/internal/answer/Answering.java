package dev.sluice.internal.jdbc;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Ineligible;
import dev.sluice.internal.answer.Parameters;
import dev.sluice.internal.answer.ReadKey;
import dev.sluice.internal.answer.Recording;
import dev.sluice.internal.answer.Session;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Decisions;
import dev.sluice.internal.limit.Limiter;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The connection's side of answers instead of refusals ({@code sluice.stale.max-age}).
 *
 * <p>With {@code sluice.stale.max-age} on ({@link Answers}), the methods written here
 * that run a read, {@code Statement.executeQuery(String)}, {@code PreparedStatement.executeQuery()}
 * and {@code PreparedStatement.execute()} (with its {@code getResultSet()}, which jOOQ and MyBatis
 * read through), do two more things. A read the limiter refuses (its verdict, by the rate or
 * the concurrency cap: no exception is made for it yet) is answered instead when it is eligible
 * and an answer exists ({@link #answerOrRefuse}); otherwise the limiter makes its
 * {@link RateLimitExceededException}, which goes on. An admitted eligible read, while limiting, is recorded as its caller reads
 * it: the {@link ResultSetWrapper} reports each {@code next()} and {@code close()} to its
 * {@link Recording}. A prepared statement records its parameters in a {@link Parameters}
 * (the generated setters, see {@code GenerateWrappers}) only when it was prepared after a
 * refusal: with the flag closed the statements, setters and result sets read one plain field
 * each, allocate nothing and read nothing volatile for answers.
 *
 * <p>Stateless: what it reads is the connection's and the statement's. It knows the statement
 * as a {@link Statement} and the connection as a {@link ReportingConnection}, the types below
 * the wrappers that call it.
 */
final class Answering {
  private Answering() {}

  /**
   * A new prepared statement's parameter record: only while answers are active (a read was
   * refused since a read last found the budget not limiting), else {@code null} and nothing is
   * allocated.
   */
  static Parameters parameters(ReportingConnection connection) {
    Answers a = connection.answers;
    return a != null && a.active() ? new Parameters() : null;
  }

  /**
   * The parameter record of a statement prepared before answers were active, begun now that
   * they are ({@link Parameters#late}): it names a read once every parameter the text may hold
   * was set again (the loop over keys of a reused statement sets them at each turn); else
   * {@code null}. Costs the statement one field read and the two plain reads of
   * {@link #parameters} while answers are not active.
   */
  static Parameters lateParameters(ReportingConnection connection, String sql) {
    Answers a = connection.answers;
    return a == null || !a.active() || sql == null ? null
        : Parameters.late(questionMarks(sql));
  }

  /**
   * Every {@code ?} of the text, in literals and comments too: never fewer than the
   * statement's parameters, which is the bound {@link Parameters#late} needs.
   */
  private static int questionMarks(String sql) {
    int n = 0;
    for (int i = sql.indexOf('?'); i >= 0; i = sql.indexOf('?', i + 1)) {
      n++;
    }
    return n;
  }

  /**
   * A read the limiter refused: answered instead if it is eligible and {@link Answers#answer}
   * has an answer (which may wait up to {@code sluice.stale.wait}, holding nothing); else the
   * refusal is made and thrown ({@code Limiter.refusal}). Nothing is held here: a refused call
   * took no permit and no place.
   *
   * @param verdict the limiter's {@code REFUSED} verdict, with the priority it decided at
   * @param caller the statement wrapper whose {@code executeQuery} was refused
   * @param sql the statement's text
   * @param parameters the prepared statement's parameters, or {@code null}
   * @param prepared whether it is {@code PreparedStatement.executeQuery()}
   * @return the answered result
   * @throws RateLimitExceededException the refusal, when not answered
   */
  static ResultSet answerOrRefuse(ReportingConnection connection, int verdict, Statement caller,
      String sql, Parameters parameters, boolean prepared) throws RateLimitExceededException {
    Limiter limiter = connection.limiter;
    Answers a = connection.answers;
    if (a == null) {
      throw limiter.refusal(verdict);
    }
    Priority priority = Limiter.refusedAt(verdict);
    int state = connection.state();
    a.refused(caller);
    ResultSet answer = null;
    Exception unanswerable = null;
    try {
      boolean autoCommit = (state & ConnectionState.UNREAD) != 0
          ? connection.delegate.getAutoCommit()
          : (state & (ConnectionState.AUTO_COMMIT | ConnectionState.IN_TRANSACTION))
              == ConnectionState.AUTO_COMMIT;
      Session session = autoCommit ? connection.session(a)
          : a.<Session>notEligible(Ineligible.TRANSACTION);
      long episode = limiter.episode();
      String fingerprint = session == null ? null
          : a.tracker().fingerprint(session, episode, connection.delegate, false);
      if (session != null && fingerprint == null) {
        a.notEligible(Ineligible.SESSION);
      }
      // a set_config that would change nothing on this session (NoOpSettings), else a read
      answer = fingerprint == null || !answerable(connection, a, caller, parameters, prepared)
          ? null
          : a.answerSetting(session, episode, sql, parameters, caller, priority,
              connection.delegate);
      ReadKey key = fingerprint == null || answer != null ? null
          : key(connection, a, caller, sql, parameters, prepared, fingerprint, true);
      if (key != null) {
        answer = a.answer(key, caller, priority, session);
      }
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
   * An admitted read's result: recorded while limiting, if eligible. With answers off, or not
   * active, one plain read.
   *
   * @param result the wrapped result of {@code executeQuery}
   * @return {@code result}
   */
  static ResultSet recorded(ReportingConnection connection, Statement caller, ResultSet result,
      String sql, Parameters parameters, boolean prepared) {
    Limiter limiter = connection.limiter;
    Answers a = connection.answers;
    if (a == null || !a.active() || !(result instanceof ResultSetWrapper)) {
      return result;
    }
    long clears = a.clears(); // first: a stop from here on keeps this read's result out
    if (!limiter.isLimiting()) {
      return result; // a stop is told to the answers by the limiter's hold, not here
    }
    if ((connection.state() & (ConnectionState.AUTO_COMMIT | ConnectionState.IN_TRANSACTION
        | ConnectionState.UNREAD)) != ConnectionState.AUTO_COMMIT) {
      a.notEligible(Ineligible.TRANSACTION);
      return result;
    }
    ResultSetWrapper wrapper = (ResultSetWrapper) result;
    try {
      Session session = connection.session(a);
      long episode = limiter.episode();
      long started = session.startedNanos();
      // unknown: read from the database now, on the caller's connection (its read has run)
      String fingerprint = started == Session.NONE || wrapper.recording != null ? null
          : a.tracker().fingerprint(session, episode, connection.delegate, true);
      if (fingerprint == null && wrapper.recording == null) {
        a.notEligible(Ineligible.SESSION);
      }
      // a set_config of a custom setting: what it returns is kept on its session (NoOpSettings)
      Recording setting = fingerprint == null ? null
          : a.recordSetting(session, episode, sql, parameters, wrapper.delegate, started);
      ReadKey key = fingerprint == null || setting != null ? null
          : key(connection, a, caller, sql, parameters, prepared, fingerprint, false);
      if (setting != null) {
        wrapper.recording = setting;
      } else if (key != null) {
        wrapper.recording = a.record(key, wrapper.delegate, started, clears);
      }
    } catch (SQLException | RuntimeException e) {
      // not recorded; the caller's result is untouched
    }
    return result;
  }

  /**
   * Whether the caller's statement may be answered at all: not a callable statement, nor a
   * plain statement's text on a prepared one; a prepared statement whose every parameter was
   * recorded; a forward-only, read-only result with no {@code maxFieldSize} that would truncate
   * values ({@link Answers#truncatesTo}: MySQL Connector/J sets one and ignores it); an open
   * connection.
   */
  private static boolean answerable(ReportingConnection connection, Answers answers,
      Statement caller, Parameters parameters, boolean prepared) throws SQLException {
    if (caller instanceof CallableStatement
        || (prepared ? parameters == null : caller instanceof PreparedStatement)) {
      return false;
    }
    // asked of the wrapper, which passes each of these on to the driver's statement
    if (caller.getResultSetType() != ResultSet.TYPE_FORWARD_ONLY
        || caller.getResultSetConcurrency() != ResultSet.CONCUR_READ_ONLY
        || answers.truncatesTo(caller.getMaxFieldSize(), connection.delegate)) {
      return false;
    }
    return !connection.closed(); // the driver would refuse it: never answered
  }

  /**
   * The key of an eligible read in its session ({@code session}, the fingerprint of
   * {@link Session}), else {@code null}: a statement that may be answered at all
   * ({@link #answerable}); a read by the database's own knowledge ({@link Answers#eligible}:
   * outside any transaction, calling nothing that writes, draws or reads the session); read text
   * that takes no lock ({@link ReadKey#of}). The caller checked auto-commit. Each way a read is
   * not eligible is counted by its reason ({@link Answers#notEligible(Ineligible)}). For a
   * {@code refused} read the driver may be asked its transaction state again
   * ({@link Answers#eligible(String, ReadKey, Connection)}).
   */
  private static ReadKey key(ReportingConnection connection, Answers answers, Statement caller,
      String sql, Parameters parameters, boolean prepared, String session, boolean refused)
      throws SQLException {
    if (!answerable(connection, answers, caller, parameters, prepared)) {
      return answers.notEligible(Ineligible.STATEMENT);
    }
    // the text first (a lock, the session, the parameters), then what only the database knows
    ReportingConnection.Identity id = connection.identity();
    ReadKey key = id == null ? ReadKey.of(sql, parameters, caller.getMaxRows(), null, null, null,
        session, answers.ineligibleCounter()) : ReadKey.of(sql, parameters, caller.getMaxRows(),
        id.user(), id.catalog(), id.schema(), session, answers.ineligibleCounter());
    if (key == null || !answers.eligible(sql, refused ? key : null, connection.delegate)) {
      return null; // in a transaction by the driver's own state, or a call the catalog refuses
    }
    return key;
  }
}
