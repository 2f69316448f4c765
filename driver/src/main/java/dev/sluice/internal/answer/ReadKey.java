package dev.sluice.internal.answer;

import java.util.List;
import java.util.Objects;

/**
 * The identity of a read: two reads are identical when their SQL text, parameter values with
 * their setters (as the database was sent them: {@link Parameters}), {@code maxRows}, the
 * connection's user, catalog and schema (as Sluice knows them) and its session's fingerprint
 * ({@link Session}: the server and database, the user and role, every setting, the custom
 * settings that policies read, each {@code SET} since) are equal. Made only for a read that is
 * about to be kept or answered, never on the flag-closed path.
 *
 * <p>Instances are immutable and threadsafe.
 */
public final class ReadKey {
  private final String sql;
  private final Parameters.Snapshot parameters;
  private final int maxRows;
  private final String user;
  private final String catalog;
  private final String schema;
  /** The session's fingerprint ({@link Session#fingerprint}); {@code null}: none given. */
  private final String session;
  private final int hash;
  /** The words of the text, for the write fences; made on first need (a benign race). */
  private List<String> words;

  /** A key as {@link #of} makes it, or as a shared result names it ({@code KeptCodec}). */
  ReadKey(String sql, Parameters.Snapshot parameters, int maxRows, String user,
      String catalog, String schema) {
    this(sql, parameters, maxRows, user, catalog, schema, null);
  }

  /** A key as {@link #of} makes it, or as a shared result names it ({@code KeptCodec}). */
  ReadKey(String sql, Parameters.Snapshot parameters, int maxRows, String user,
      String catalog, String schema, String session) {
    this.session = session;
    this.sql = sql;
    this.parameters = parameters;
    this.maxRows = maxRows;
    this.user = user;
    this.catalog = catalog;
    this.schema = schema;
    this.hash = Objects.hash(sql, parameters, maxRows, user, catalog, schema, session);
  }

  /**
   * The key of a read, or {@code null} when it cannot be answered: its text is not a read
   * ({@link ReadText}) or a parameter is not of a value type.
   *
   * @param sql the statement's text
   * @param parameters a prepared statement's parameters, {@code null} for a plain statement
   * @param maxRows the statement's {@code getMaxRows()}
   * @param user the connection's user as Sluice knows it, or {@code null}
   * @param catalog the connection's catalog as Sluice knows it, or {@code null}
   * @param schema the connection's schema as Sluice knows it, or {@code null}
   * @return the key, or {@code null} for an ineligible read
   */
  public static ReadKey of(String sql, Parameters parameters, int maxRows, String user,
      String catalog, String schema) {
    return of(sql, parameters, maxRows, user, catalog, schema, null);
  }

  /**
   * As {@link #of(String, Parameters, int, String, String, String)}, in a session: a read whose
   * text changes or reads its session's settings ({@code set_config}, {@code current_setting})
   * has no key, so it is never answered and always runs ({@link SessionText#touchesSession}).
   *
   * @param session the session's fingerprint ({@link Session#fingerprint}), or {@code null}
   * @return the key, or {@code null} for an ineligible read
   */
  public static ReadKey of(String sql, Parameters parameters, int maxRows, String user,
      String catalog, String schema, String session) {
    return of(sql, parameters, maxRows, user, catalog, schema, session, null);
  }

  /**
   * As {@link #of(String, Parameters, int, String, String, String, String)}, telling why a
   * read has no key to {@code counts} ({@link Answers#ineligibleCounter()}), if not
   * {@code null}.
   */
  public static ReadKey of(String sql, Parameters parameters, int maxRows, String user,
      String catalog, String schema, String session,
      java.util.function.Consumer<Ineligible> counts) {
    return of(Texts.Shape.of(sql), sql, parameters, maxRows, user, catalog, schema, session,
        counts);
  }

  /**
   * As {@link #of(String, Parameters, int, String, String, String, String,
   * java.util.function.Consumer)}, for a text whose {@link Texts.Shape} is known already (the
   * answers judge each text once: {@link Texts}).
   */
  static ReadKey of(Texts.Shape text, String sql, Parameters parameters, int maxRows,
      String user, String catalog, String schema, String session,
      java.util.function.Consumer<Ineligible> counts) {
    Ineligible why = null;
    Parameters.Snapshot values = null;
    if (!text.read()) {
      why = Ineligible.LOCKING;
    } else if (text.touchesSession()) {
      why = Ineligible.SESSION;
    } else {
      values = parameters == null ? Parameters.Snapshot.NONE : parameters.snapshot();
      why = values == null ? Ineligible.PARAMETERS : null;
    }
    if (why != null) {
      if (counts != null) {
        counts.accept(why);
      }
      return null;
    }
    return new ReadKey(sql, values, maxRows, user, catalog, schema, session);
  }

  /** The session's fingerprint, or {@code null}. */
  String session() {
    return session;
  }

  /** The words of the text, lower case ({@link SessionText#words}); {@code null}: unplaced. */
  List<String> words() {
    List<String> w = words;
    if (w == null) {
      w = SessionText.words(sql);
      words = w;
    }
    return w;
  }

  /** The statement's text. */
  String sql() {
    return sql;
  }

  /** The statement's {@code maxRows} ({@code 0}: no limit). */
  int maxRows() {
    return maxRows;
  }

  Parameters.Snapshot parameters() {
    return parameters;
  }

  String user() {
    return user;
  }

  String catalog() {
    return catalog;
  }

  String schema() {
    return schema;
  }

  /** Roughly the bytes the key holds, for the store's bound. */
  long bytes() {
    return 64 + Sizes.of(sql) + parameters.bytes() + Sizes.of(user) + Sizes.of(catalog)
        + Sizes.of(schema) + Sizes.of(session);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReadKey k && hash == k.hash && maxRows == k.maxRows
        && sql.equals(k.sql) && parameters.equals(k.parameters) && Objects.equals(user, k.user)
        && Objects.equals(catalog, k.catalog) && Objects.equals(schema, k.schema)
        && Objects.equals(session, k.session);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "read of " + parameters.values().length + " parameter(s): " + sql;
  }
}
