package dev.sluice.internal.answer;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * A {@code set_config} that changes nothing, answered instead of refused: the pooled-tenant
 * pattern, where each request first runs {@code select set_config('app.tenant', ?, false)} on the
 * connection the pool lends it, and the connection already serves that tenant.
 *
 * <p>{@code set_config(name, value, false)} run outside a transaction on a session that already
 * holds {@code name} at {@code value} assigns the same value again: the session is as before, and
 * the call returns the setting's text. So it may be answered — a refused call, costing no
 * permit — when all of these hold, else it runs (or is refused) as before:
 * <ul>
 *   <li>the name is a custom setting, with a dot ({@code app.tenant}): a placeholder keeps its
 *       text as given and has no hook, where a setting of the server's may do more on each
 *       assignment ({@code seed} reseeds {@code random()}) or return another spelling;
 *   <li>{@code is_local} is {@code false} (a literal, or a parameter set to {@code false}), and
 *       the name and value are literals or parameters Sluice recorded;
 *   <li>the session is known in this episode of limiting ({@link Session}) and holds the name set
 *       by {@code set_config} — not by {@code SET}, whose text is not the value — to exactly
 *       this value, outside any transaction however it began;
 *   <li>the same text ran on this very session while limiting and its one row, one column
 *       returned exactly {@code value}: that result, as the driver gave it (its label
 *       {@code set_config}, its type), is the answer. It is kept on the session, never in the
 *       store, and forgotten when the setting changes or the session becomes unknown.
 * </ul>
 *
 * <p>Threadsafe (no state); what it keeps is the session's.
 */
final class NoOpSettings {
  private NoOpSettings() {}

  /**
   * The custom setting {@code sql} sets for the session, as {@code {name, value}} ({@code name}
   * in lower case), or {@code null}: not {@code set_config(…, false)} alone, {@code is_local}
   * not known to be {@code false}, a name without a dot, or an argument not known.
   */
  static String[] of(String sql, Parameters parameters) {
    return of(SessionText.setConfigOf(sql), parameters);
  }

  /**
   * As {@link #of(String, Parameters)}, for a text's {@code set_config} known already
   * ({@link Texts.Shape#setConfig()}).
   *
   * @param e the text's {@code set_config} alone, or {@code null}: none
   */
  static String[] of(SessionText.Effect e, Parameters parameters) {
    if (e == null) {
      return null;
    }
    String name = e.nameParameter > 0 ? text(parameters, e.nameParameter) : e.name;
    String value = e.valueParameter > 0 ? text(parameters, e.valueParameter) : e.value;
    if (e.localParameter > 0 && (parameters == null
        || !Boolean.FALSE.equals(parameters.valueAt(e.localParameter)))) {
      return null;
    }
    if (name == null || value == null || name.indexOf('.') < 0) {
      return null;
    }
    return new String[] {name.toLowerCase(Locale.ROOT), value};
  }

  private static String text(Parameters parameters, int index) {
    return parameters != null && parameters.valueAt(index) instanceof String s ? s : null;
  }

  /**
   * Records what an admitted {@code set_config} of {@code setting} returns, as its caller reads
   * it: kept on {@code session} if it is one row of one column whose text is the value.
   *
   * @return the recording, or {@code null} when its result cannot be kept
   */
  static Recording record(Session session, long episode, String[] setting, String sql,
      ResultSet live, Dialect dialect, AnswerSettings bounds, long startedNanos)
      throws SQLException {
    if (live.getType() != ResultSet.TYPE_FORWARD_ONLY
        || live.getConcurrency() != ResultSet.CONCUR_READ_ONLY) {
      return null;
    }
    Columns columns = Columns.read(live.getMetaData());
    if (columns.count() != 1 || !columns.keepable() || !dialect.answersAll(columns)) {
      return null;
    }
    ReadKey key = new ReadKey(sql, Parameters.Snapshot.NONE, 0, null, null, null);
    return new Recording(new Landing(session, episode, setting[0], setting[1]), bounds, key,
        null, columns, dialect, startedNanos);
  }

  /** Keeps the result on the session, once read to its end. */
  private record Landing(Session session, long episode, String name, String value)
      implements Recording.Landing {
    @Override
    public void keep(Recording recording) {
      Kept result = recording.toKept();
      if (result.rows() == 1 && value.equals(result.text(0, 1))) {
        session.returned(episode, name, value, result);
      }
    }

    @Override
    public void drop(Recording recording) {
      // nothing kept: the next set_config of the same value runs
    }
  }
}
