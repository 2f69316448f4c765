package dev.sluice.internal.answer;

import dev.sluice.Priority;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A read at the answers' door ({@code sluice.stale.max-age}): which reads may be answered or
 * kept is decided here, and nowhere in the JDBC layer.
 *
 * <p>The connection's wrapper calls it from the methods that run a read,
 * {@code Statement.executeQuery(String)}, {@code PreparedStatement.executeQuery()} and
 * {@code PreparedStatement.execute()} (with its {@code getResultSet()}, which jOOQ and MyBatis
 * read through), telling what it knows of the connection ({@link ReadConnection}). A read the
 * limiter refused is answered instead when it is eligible and an answer exists ({@link #answer});
 * otherwise the wrapper has the limiter make its refusal. An admitted eligible read, while
 * limiting, is recorded as its caller reads it ({@link #recording}). A prepared statement records
 * its parameters in a {@link Parameters} only when it was prepared after a refusal
 * ({@link #parameters}). With the flag closed only that is asked, at a statement's making: one
 * plain read of whether answers are active, and nothing allocated.
 *
 * <p>Stateless: what it reads is the connection's, the statement's and the answers'.
 */
public final class Answering {
  private Answering() {}

  /**
   * The connection a read runs on, as the answers ask it: the JDBC layer's connection wrapper,
   * which keeps these facts and decides nothing with them.
   */
  public interface ReadConnection {
    /** @return the driver's connection */
    Connection physical();

    /**
     * @return {@code TRUE} when in auto-commit outside any transaction Sluice tracks,
     *     {@code FALSE} when not, {@code null} when the driver's auto-commit was not read yet
     */
    Boolean autoCommitKnown();

    /** @return whether the connection was closed through Sluice */
    boolean closed();

    /** @return the user, catalog and schema given through Sluice; {@code null}: the defaults */
    Identity identity();

    /** @return the limiter's episode of limiting now, which a session's fingerprint is of */
    long episode();

    /** @return whether the budget is limiting now */
    boolean limiting();
  }

  /**
   * The user a connection was asked for with, and the catalog and schema last set through Sluice:
   * part of a read's identity.
   */
  public record Identity(String user, String catalog, String schema) {}

  /**
   * A new prepared statement's parameter record: only while answers are active (a read was
   * refused since a read last found the budget not limiting), else {@code null} and nothing is
   * allocated.
   *
   * @param answers the budget's answers, or {@code null} when off
   */
  public static Parameters parameters(Answers answers) {
    return answers != null && answers.active() ? new Parameters() : null;
  }

  /**
   * The parameter record of a statement prepared before answers were active, begun now that
   * they are ({@link Parameters#late}): it names a read once every parameter the text may hold
   * was set again (the loop over keys of a reused statement sets them at each turn); else
   * {@code null}. Costs the statement one field read and the two plain reads of
   * {@link #parameters} while answers are not active.
   *
   * @param answers the budget's answers, or {@code null} when off
   * @param sql the text it was prepared with, or {@code null}
   */
  public static Parameters lateParameters(Answers answers, String sql) {
    return answers == null || !answers.active() || sql == null ? null
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
   * A read the limiter refused, answered instead if it is eligible and {@link Answers#answer}
   * has an answer (which may wait up to {@code sluice.stale.wait}, holding nothing). Nothing is
   * held here: a refused call took no permit and no place.
   *
   * @param answers the budget's answers
   * @param connection the connection the read runs on
   * @param caller the statement wrapper whose {@code executeQuery} was refused
   * @param sql the statement's text
   * @param parameters the prepared statement's parameters, or {@code null}
   * @param prepared whether it is {@code PreparedStatement.executeQuery()}
   * @param priority the priority the limit refused it at
   * @return the answered result, or {@code null}: refused as without answers
   * @throws SQLException if the driver could not be asked what answering needs: refused too
   */
  public static ResultSet answer(Answers answers, ReadConnection connection, Statement caller,
      String sql, Parameters parameters, boolean prepared, Priority priority)
      throws SQLException {
    answers.refused(caller);
    Connection physical = connection.physical();
    Boolean known = connection.autoCommitKnown();
    boolean autoCommit = known != null ? known : physical.getAutoCommit();
    Session session = autoCommit ? answers.tracker().session(physical)
        : answers.<Session>notEligible(Ineligible.TRANSACTION);
    long episode = connection.episode();
    String fingerprint = session == null ? null
        : answers.tracker().fingerprint(session, episode, physical, false);
    if (session != null && fingerprint == null) {
      answers.notEligible(Ineligible.SESSION);
    }
    if (fingerprint == null) {
      return null;
    }
    if (!answerable(connection, answers, caller, parameters, prepared)) {
      return answers.notEligible(Ineligible.STATEMENT);
    }
    Texts.Shape text = answers.text(sql);
    // a set_config that would change nothing on this session (NoOpSettings), else a read
    ResultSet answer = text.setConfig() == null ? null : answers.answerSetting(session, episode,
        text, sql, parameters, caller, priority, physical);
    if (answer != null) {
      return answer;
    }
    ReadKey key = key(connection, answers, caller, text, sql, parameters, session, fingerprint,
        true);
    return key == null ? null : answers.answer(key, caller, priority, session);
  }

  /**
   * An admitted read's result, to be recorded while limiting if the read is eligible: its
   * {@link Recording}, or {@code null} (not active, not limiting, not eligible, or the driver
   * could not be asked: the caller's result is untouched either way).
   *
   * @param answers the budget's answers
   * @param connection the connection the read ran on
   * @param caller the statement wrapper whose read was admitted
   * @param live the driver's result
   * @param recording whether the result is already being recorded (asked for again)
   * @param sql the statement's text
   * @param parameters the prepared statement's parameters, or {@code null}
   * @param prepared whether it is a prepared statement's own read
   */
  public static Recording recording(Answers answers, ReadConnection connection, Statement caller,
      ResultSet live, boolean recording, String sql, Parameters parameters, boolean prepared) {
    if (!answers.active()) {
      return null;
    }
    long clears = answers.clears(); // first: a stop from here on keeps this read's result out
    if (!connection.limiting()) {
      return null; // a stop is told to the answers by the limiter's hold, not here
    }
    if (!Boolean.TRUE.equals(connection.autoCommitKnown())) {
      return answers.notEligible(Ineligible.TRANSACTION);
    }
    try {
      Connection physical = connection.physical();
      Session session = answers.tracker().session(physical);
      long episode = connection.episode();
      long started = session.startedNanos();
      // unknown: read from the database now, on the caller's connection (its read has run)
      String fingerprint = started == Session.NONE || recording ? null
          : answers.tracker().fingerprint(session, episode, physical, true);
      if (fingerprint == null) {
        return recording ? null : answers.notEligible(Ineligible.SESSION);
      }
      Texts.Shape text = answers.text(sql);
      // a set_config of a custom setting: what it returns is kept on its session (NoOpSettings)
      Recording setting = text.setConfig() == null ? null
          : answers.recordSetting(session, episode, text, sql, parameters, live, started);
      if (setting != null) {
        return setting;
      }
      if (!answerable(connection, answers, caller, parameters, prepared)) {
        return answers.notEligible(Ineligible.STATEMENT);
      }
      ReadKey key = key(connection, answers, caller, text, sql, parameters, session, fingerprint,
          false);
      return key == null ? null : answers.record(key, live, started, clears);
    } catch (SQLException | RuntimeException e) {
      return null; // not recorded; the caller's result is untouched
    }
  }

  /**
   * Whether the caller's statement may be answered at all: not a callable statement, nor a
   * plain statement's text on a prepared one; a prepared statement whose every parameter was
   * recorded; a forward-only, read-only result with no {@code maxFieldSize} that would truncate
   * values ({@link Answers#truncatesTo}: MySQL Connector/J sets one and ignores it); an open
   * connection.
   */
  private static boolean answerable(ReadConnection connection, Answers answers,
      Statement caller, Parameters parameters, boolean prepared) throws SQLException {
    if (caller instanceof CallableStatement
        || (prepared ? parameters == null : caller instanceof PreparedStatement)) {
      return false;
    }
    // asked of the wrapper, which passes each of these on to the driver's statement
    if (caller.getResultSetType() != ResultSet.TYPE_FORWARD_ONLY
        || caller.getResultSetConcurrency() != ResultSet.CONCUR_READ_ONLY
        || answers.truncatesTo(caller.getMaxFieldSize(), connection.physical())) {
      return false;
    }
    return !connection.closed(); // the driver would refuse it: never answered
  }

  /**
   * The key of an eligible read in its {@code session} (whose {@code fingerprint} it holds),
   * else {@code null}: read text that takes no lock ({@link ReadKey#of}); a
   * read by the database's own knowledge ({@link Answers#eligible}: outside any transaction,
   * calling nothing that writes, draws or reads the session). The caller checked auto-commit and
   * that the statement may be answered at all ({@link #answerable}). Each way a read is not
   * eligible is counted by its reason ({@link Answers#notEligible(Ineligible)}). For a
   * {@code refused} read the driver may be asked its transaction state again
   * ({@link Answers#eligible(String, ReadKey, Connection, Session)}).
   */
  private static ReadKey key(ReadConnection connection, Answers answers, Statement caller,
      Texts.Shape text, String sql, Parameters parameters, Session session,
      String fingerprint, boolean refused) throws SQLException {
    // the text first (a lock, the session, the parameters), then what only the database knows
    Identity id = connection.identity();
    ReadKey key = id == null ? ReadKey.of(text, sql, parameters, caller.getMaxRows(), null, null,
        null, fingerprint, answers.ineligibleCounter()) : ReadKey.of(text, sql, parameters,
        caller.getMaxRows(), id.user(), id.catalog(), id.schema(), fingerprint,
        answers.ineligibleCounter());
    if (key == null
        || !answers.eligible(sql, refused ? key : null, connection.physical(), session)) {
      return null; // in a transaction by the driver's own state, or a call the catalog refuses
    }
    return key;
  }
}
