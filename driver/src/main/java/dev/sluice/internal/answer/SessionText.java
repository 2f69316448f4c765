package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a statement does to what answers rely on: the session its reads see ({@code SET},
 * {@code RESET}, {@code set_config}, {@code SET ROLE}, {@code DISCARD}…) and the tables it writes.
 * The one place answers recognise statements other than reads; it reads text with the tokenising
 * steps of {@link ReadText} ({@link Scan}), so the library's one lexer can replace them
 * underneath.
 *
 * <p>It errs one way only: text it cannot place changes the session in a way Sluice cannot know
 * and writes every table ({@link Effect#UNKNOWN}). It runs only for statements noted while
 * limiting with answers on, never on the flag-closed path.
 *
 * <p>This class is threadsafe (it has no state).
 */
public final class SessionText {
  private SessionText() {}

  /** What one statement does, as far as answers care. */
  public static final class Effect {
    /** The kinds of effect. */
    enum Kind {
      /** Reads (and may call a function: see {@link #calls}). */
      READ,
      /** Changes nothing answers rely on ({@code SHOW}, {@code SAVEPOINT}, {@code SET TRANSACTION}). */
      NEUTRAL,
      /** Begins a transaction as text. */
      BEGIN,
      /** Ends a transaction as text ({@code COMMIT}, {@code ROLLBACK}, {@code END}, {@code ABORT}). */
      END,
      /** Sets one setting of the session, to a value read from the text or a parameter. */
      SET,
      /** Changes the session in a way not read here: the session is unknown until read again. */
      SESSION_UNKNOWN,
      /** Writes the tables named, and only those. */
      WRITE,
      /** Anything else: unknown tables written, the session unknown. */
      UNKNOWN
    }

    static final Effect READ = new Effect(Kind.READ, null, null, null, 0, 0, 0);
    static final Effect NEUTRAL = new Effect(Kind.NEUTRAL, null, null, null, 0, 0, 0);
    static final Effect BEGIN = new Effect(Kind.BEGIN, null, null, null, 0, 0, 0);
    static final Effect END = new Effect(Kind.END, null, null, null, 0, 0, 0);
    static final Effect SESSION_UNKNOWN =
        new Effect(Kind.SESSION_UNKNOWN, null, null, null, 0, 0, 0);
    static final Effect UNKNOWN = new Effect(Kind.UNKNOWN, null, null, null, 0, 0, 0);

    final Kind kind;
    /** {@link Kind#WRITE}: the written tables' names, lower case, unqualified. */
    final String[] tables;
    /** {@link Kind#SET}: the setting's name (lower case), or {@code null}: parameter {@link #nameParameter}. */
    final String name;
    /** {@link Kind#SET}: the value as written, or {@code null}: parameter {@link #valueParameter}. */
    final String value;
    final int nameParameter;
    final int valueParameter;
    /** {@link Kind#SET} by {@code set_config}: the parameter of {@code is_local}, or {@code 0}. */
    final int localParameter;
    /**
     * {@link Kind#SET}: by {@code set_config}, whose value is the setting's exact text; else by
     * {@code SET}, whose value is as written (quotes, case and all).
     */
    final boolean config;

    private Effect(Kind kind, String[] tables, String name, String value, int nameParameter,
        int valueParameter, int localParameter) {
      this(kind, tables, name, value, nameParameter, valueParameter, localParameter, false);
    }

    private Effect(Kind kind, String[] tables, String name, String value, int nameParameter,
        int valueParameter, int localParameter, boolean config) {
      this.config = config;
      this.kind = kind;
      this.tables = tables;
      this.name = name;
      this.value = value;
      this.nameParameter = nameParameter;
      this.valueParameter = valueParameter;
      this.localParameter = localParameter;
    }

    static Effect write(String[] tables) {
      return new Effect(Kind.WRITE, tables, null, null, 0, 0, 0);
    }

    static Effect set(String name, String value) {
      return new Effect(Kind.SET, null, name, value, 0, 0, 0);
    }

    @Override
    public String toString() {
      return kind + (tables != null ? " " + String.join(",", tables) : "")
          + (kind == Kind.SET ? " " + name + "=" + value : "");
    }
  }

  /**
   * What {@code sql} does.
   *
   * @param sql the statement's text; {@code null} (a batch) is {@link Effect#UNKNOWN}
   * @return its effect
   */
  public static Effect classify(String sql) {
    if (sql == null) {
      return Effect.UNKNOWN;
    }
    int at = Scan.skipSpace(sql, 0);
    if (at == sql.length()) {
      return Effect.NEUTRAL;
    }
    if (sql.charAt(at) == '(' || word(sql, at, "select") || word(sql, at, "with")
        || word(sql, at, "values") || word(sql, at, "table")) {
      return reading(sql, at);
    }
    int end = Scan.wordEnd(sql, at);
    String first = sql.substring(at, end).toLowerCase(Locale.ROOT);
    int next = Scan.skipSpace(sql, end);
    switch (first) {
      case "set":
        return oneStatementAnywhere(sql) ? set(sql, next) : Effect.SESSION_UNKNOWN;
      case "reset":
      case "discard":
        return Effect.SESSION_UNKNOWN;
      case "begin":
      case "start":
        return Effect.BEGIN;
      case "commit":
      case "end":
      case "abort":
        return word(sql, next, "prepared") ? Effect.NEUTRAL : Effect.END;
      case "rollback":
        return toSavepoint(sql, next) ? Effect.NEUTRAL : Effect.END;
      case "savepoint":
      case "release":
      case "show":
        return Effect.NEUTRAL;
      case "insert":
      case "merge":
        return write(sql, next, "into");
      case "delete":
        return write(sql, next, "from");
      case "update":
        return write(sql, next, null);
      case "truncate":
        return truncate(sql, next);
      default:
        return Effect.UNKNOWN; // CALL, DO, DDL, COPY, LOCK, EXPLAIN ANALYZE, a dialect's own...
    }
  }

  /**
   * The effect of {@code SELECT set_config(name, value, is_local)} alone ({@link #classify}: a
   * {@link Effect.Kind#SET} by {@code set_config}), else {@code null}; one pass over the text
   * when it does not name {@code set_config}.
   */
  static Effect setConfigOf(String sql) {
    if (sql == null || !mentions(sql, "set_config")) {
      return null;
    }
    Effect e = classify(sql);
    return e.kind == Effect.Kind.SET && e.config ? e : null;
  }

  /**
   * The database's own functions whose call writes beyond the session's settings (a sequence, a
   * large object, a lock, a notification, another backend): a read's text that calls one writes
   * unknown tables. Which reads may be <em>answered</em> is the catalog's verdict
   * ({@code Catalog}); this list only keeps the fences from taking such a call for a plain read.
   */
  private static final Set<String> WRITING_BUILTINS = Set.of("nextval", "setval", "lo_create",
      "lo_creat", "lo_import", "lo_unlink", "lo_put", "lo_from_bytea", "lowrite", "pg_notify",
      "pg_advisory_lock", "pg_advisory_lock_shared", "pg_try_advisory_lock",
      "pg_try_advisory_lock_shared", "pg_advisory_xact_lock", "pg_try_advisory_xact_lock",
      "pg_terminate_backend", "pg_cancel_backend", "dblink_exec", "pg_stat_reset",
      "pg_logical_emit_message", "txid_current", "pg_current_xact_id");

  /** A read's text: a read, a {@code set_config} of its own, or (not a read) unknown. */
  private static Effect reading(String sql, int at) {
    if (!mentions(sql, "set_config")) {
      return ReadText.isRead(sql) && !callsAny(sql, WRITING_BUILTINS) ? Effect.READ
          : Effect.UNKNOWN;
    }
    List<String> words = words(sql);
    if (words == null) {
      return Effect.UNKNOWN;
    }
    if (words.contains("set_config")) {
      Effect set = setConfig(sql, at);
      return set != null ? set : Effect.UNKNOWN;
    }
    return ReadText.isRead(sql) && !callsAny(sql, WRITING_BUILTINS) ? Effect.READ
        : Effect.UNKNOWN;
  }

  /**
   * Whether a read's text depends on its session's settings or changes them: {@code set_config}
   * or {@code current_setting} named anywhere outside strings and comments. Such a read is never
   * answered (its key would need the setting's value, which Sluice may not know).
   */
  public static boolean touchesSession(String sql) {
    if (!mentions(sql, "set_config") && !mentions(sql, "current_setting")) {
      return false; // the usual read: one pass over its characters, nothing allocated
    }
    List<String> words = words(sql);
    return words == null || words.contains("set_config") || words.contains("current_setting");
  }

  /** Whether {@code name} (lower case) appears anywhere in the text, in any case. */
  private static boolean mentions(String sql, String name) {
    int last = sql.length() - name.length();
    char first = name.charAt(0);
    for (int i = 0; i <= last; i++) {
      if (Scan.lower(sql.charAt(i)) == first && sql.regionMatches(true, i, name, 0, name.length())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the text calls one of {@code functions} (lower case): a name among its words
   * followed by {@code (}. For a read that may write or read any table through a function of
   * the application's own.
   */
  static boolean callsAny(String sql, Set<String> functions) {
    if (functions.isEmpty()) {
      return false;
    }
    int n = sql.length();
    int i = 0;
    while (i < n) {
      int next = Scan.skipSpace(sql, i);
      if (next != i || next >= n) {
        i = next; // blanks and comments
        continue;
      }
      char c = sql.charAt(i);
      if (Lexer.kind(sql, i, Lexer.POSTGRES) == Lexer.WORD) {
        int end = Scan.wordEnd(sql, i);
        if (sql.indexOf('(', end) >= 0 && Scan.skipSpace(sql, end) < n
            && sql.charAt(Scan.skipSpace(sql, end)) == '('
            && functions.contains(sql.substring(i, end).toLowerCase(Locale.ROOT))) {
          return true;
        }
        i = end;
      } else if (c == '"') {
        int close = Scan.skipQuoted(sql, i);
        if (close < 0) {
          return true;
        }
        int after = Scan.skipSpace(sql, close);
        if (after < n && sql.charAt(after) == '('
            && functions.contains(sql.substring(i + 1, close - 1).toLowerCase(Locale.ROOT))) {
          return true;
        }
        i = close;
      } else {
        i = Scan.skipQuoted(sql, i);
        if (i < 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The words of the text outside strings and comments, lower case, with quoted identifiers'
   * content (lower case too: matching more names only fences more); {@code null} when the
   * scanner cannot place a span.
   */
  static List<String> words(String sql) {
    List<String> words = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (Scan.isIdentifierStart(c)) {
        int end = Scan.wordEnd(sql, i);
        words.add(sql.substring(i, end).toLowerCase(Locale.ROOT));
        i = end;
      } else if (c == '"' || c == '`') {
        int close = Scan.skipQuoted(sql, i);
        if (close < 0) {
          return null;
        }
        words.add(sql.substring(i + 1, close - 1).toLowerCase(Locale.ROOT));
        i = close;
      } else {
        i = Scan.skipQuoted(sql, i);
        if (i < 0) {
          return null;
        }
      }
    }
    return words;
  }

  // --- SET ---

  /** After {@code SET}: one setting and its value, or a change not read here. */
  private static Effect set(String sql, int at) {
    int i = at;
    if (word(sql, i, "local")) {
      return Effect.SESSION_UNKNOWN; // a transaction's own; outside one it does nothing
    }
    if (word(sql, i, "session")) {
      i = Scan.skipSpace(sql, i + 7);
      if (word(sql, i, "authorization") || word(sql, i, "characteristics")) {
        return Effect.SESSION_UNKNOWN;
      }
    }
    if (word(sql, i, "transaction") || word(sql, i, "constraints")) {
      return Effect.NEUTRAL; // the open transaction's only
    }
    if (word(sql, i, "role")) {
      return Effect.SESSION_UNKNOWN;
    }
    String name;
    int value;
    if (word(sql, i, "time") && word(sql, Scan.skipSpace(sql, i + 4), "zone")) {
      name = "timezone";
      value = Scan.skipSpace(sql, Scan.skipSpace(sql, i + 4) + 4);
    } else {
      int end = qualifiedEnd(sql, i);
      if (end < 0) {
        return Effect.SESSION_UNKNOWN;
      }
      name = sql.substring(i, end).toLowerCase(Locale.ROOT);
      int to = Scan.skipSpace(sql, end);
      if (to < sql.length() && sql.charAt(to) == '=') {
        value = Scan.skipSpace(sql, to + 1);
      } else if (word(sql, to, "to")) {
        value = Scan.skipSpace(sql, to + 2);
      } else {
        return Effect.SESSION_UNKNOWN;
      }
    }
    String text = valueText(sql, value);
    if (text == null || text.isEmpty() || word(text, 0, "default") || word(text, 0, "local")) {
      return Effect.SESSION_UNKNOWN; // back to a default Sluice has not read
    }
    return Effect.set(name, text);
  }

  /** The value's text up to the end or a final {@code ;}, trimmed; {@code null}: not placed. */
  private static String valueText(String sql, int from) {
    int end = sql.length();
    int i = from;
    while (i < end) {
      char c = sql.charAt(i);
      if (c == ';') {
        return sql.substring(from, i).trim();
      }
      i = Scan.isIdentifierStart(c) ? Scan.wordEnd(sql, i) : Scan.skipQuoted(sql, i);
      if (i < 0) {
        return null;
      }
    }
    return sql.substring(from, end).trim();
  }

  /** A name, dotted ({@code app.tenant}): the index after it, or {@code -1}. */
  private static int qualifiedEnd(String sql, int at) {
    if (at >= sql.length() || !Scan.isIdentifierStart(sql.charAt(at))) {
      return -1;
    }
    int end = Scan.wordEnd(sql, at);
    while (end + 1 < sql.length() && sql.charAt(end) == '.'
        && Scan.isIdentifierStart(sql.charAt(end + 1))) {
      end = Scan.wordEnd(sql, end + 1);
    }
    return end;
  }

  /**
   * {@code SELECT [pg_catalog.]set_config(name, value, is_local)} and nothing else, each argument
   * a string (a boolean for the last) or a parameter; else {@code null}.
   */
  private static Effect setConfig(String sql, int at) {
    int i = at;
    if (!word(sql, i, "select")) {
      return null;
    }
    i = Scan.skipSpace(sql, i + 6);
    if (word(sql, i, "pg_catalog")) {
      i = Scan.skipSpace(sql, i + 10);
      if (i >= sql.length() || sql.charAt(i) != '.') {
        return null;
      }
      i = Scan.skipSpace(sql, i + 1);
    }
    if (!word(sql, i, "set_config")) {
      return null;
    }
    i = Scan.skipSpace(sql, i + 10);
    if (i >= sql.length() || sql.charAt(i) != '(') {
      return null;
    }
    int[] parameter = {0};
    Object[] arguments = new Object[3];
    i = Scan.skipSpace(sql, i + 1);
    for (int k = 0; k < 3; k++) {
      char c = i < sql.length() ? sql.charAt(i) : 0;
      int end;
      if (c == '?') {
        arguments[k] = ++parameter[0];
        end = i + 1;
      } else if (c == '\'') {
        end = Scan.skipQuoted(sql, i);
        if (end < 0) {
          return null;
        }
        arguments[k] = sql.substring(i + 1, end - 1).replace("''", "'");
      } else if (k == 2 && word(sql, i, "false")) {
        arguments[k] = "false";
        end = i + 5;
      } else {
        return null;
      }
      i = Scan.skipSpace(sql, end);
      char expected = k < 2 ? ',' : ')';
      if (i >= sql.length() || sql.charAt(i) != expected) {
        return null;
      }
      i = Scan.skipSpace(sql, i + 1);
    }
    if (!restIsAlias(sql, i)) {
      return null;
    }
    if (arguments[2] instanceof String local && !local.equals("false")) {
      return null; // a transaction's own
    }
    return new Effect(Effect.Kind.SET,
        null, arguments[0] instanceof String n ? n.toLowerCase(Locale.ROOT) : null,
        arguments[1] instanceof String v ? v : null,
        arguments[0] instanceof Integer n ? n : 0, arguments[1] instanceof Integer v ? v : 0,
        arguments[2] instanceof Integer l ? l : 0, true);
  }

  /** Nothing after {@code set_config(…)} but an alias ({@code [AS] name}) and a final {@code ;}. */
  private static boolean restIsAlias(String sql, int at) {
    int i = at;
    if (word(sql, i, "as")) {
      i = Scan.skipSpace(sql, i + 2);
    }
    if (i < sql.length() && Scan.isIdentifierStart(sql.charAt(i))
        && !word(sql, i, "from") && !word(sql, i, "where")) {
      i = Scan.skipSpace(sql, Scan.wordEnd(sql, i));
    }
    return oneStatement(sql, i);
  }

  // --- writes ---

  /** {@code INSERT INTO t}, {@code MERGE INTO t}, {@code DELETE FROM t}, {@code UPDATE t}. */
  private static Effect write(String sql, int at, String preposition) {
    int i = at;
    if (preposition != null) {
      if (!word(sql, i, preposition)) {
        return Effect.UNKNOWN;
      }
      i = Scan.skipSpace(sql, i + preposition.length());
    }
    if (word(sql, i, "only")) {
      i = Scan.skipSpace(sql, i + 4);
    }
    String[] table = new String[1];
    int end = tableName(sql, i, table);
    return end < 0 || !oneStatementAnywhere(sql) ? Effect.UNKNOWN
        : Effect.write(new String[] {table[0]});
  }

  /** {@code TRUNCATE [TABLE] [ONLY] a [, b…] [options]}. */
  private static Effect truncate(String sql, int at) {
    int i = word(sql, at, "table") ? Scan.skipSpace(sql, at + 5) : at;
    List<String> tables = new ArrayList<>();
    while (true) {
      if (word(sql, i, "only")) {
        i = Scan.skipSpace(sql, i + 4);
      }
      String[] table = new String[1];
      int end = tableName(sql, i, table);
      if (end < 0) {
        return Effect.UNKNOWN;
      }
      tables.add(table[0]);
      i = Scan.skipSpace(sql, end);
      if (i < sql.length() && sql.charAt(i) == '*') {
        i = Scan.skipSpace(sql, i + 1);
      }
      if (i >= sql.length() || sql.charAt(i) != ',') {
        break;
      }
      i = Scan.skipSpace(sql, i + 1);
    }
    return oneStatementAnywhere(sql) ? Effect.write(tables.toArray(new String[0]))
        : Effect.UNKNOWN;
  }

  /**
   * A table's name, perhaps qualified and quoted: puts its last part in {@code out[0]} (lower
   * case) and returns the index after it, or {@code -1}.
   */
  private static int tableName(String sql, int at, String[] out) {
    int i = at;
    while (true) {
      if (i >= sql.length()) {
        return -1;
      }
      char c = sql.charAt(i);
      int end;
      if (c == '"' || c == '`') {
        end = Scan.skipQuoted(sql, i);
        if (end < 0) {
          return -1;
        }
        out[0] = sql.substring(i + 1, end - 1).toLowerCase(Locale.ROOT);
      } else if (Scan.isIdentifierStart(c)) {
        end = Scan.wordEnd(sql, i);
        out[0] = sql.substring(i, end).toLowerCase(Locale.ROOT);
      } else {
        return -1;
      }
      if (end < sql.length() && sql.charAt(end) == '.') {
        i = end + 1;
      } else {
        return end;
      }
    }
  }

  // --- the rest ---

  /** {@code ROLLBACK [WORK|TRANSACTION] TO …} stays in the transaction. */
  private static boolean toSavepoint(String sql, int at) {
    int i = at;
    if (word(sql, i, "work") || word(sql, i, "transaction")) {
      i = Scan.skipSpace(sql, Scan.wordEnd(sql, i));
    }
    return word(sql, i, "to") || word(sql, i, "prepared");
  }

  /** Whether nothing but blanks, comments and one {@code ;} follow {@code at}. */
  private static boolean oneStatement(String sql, int at) {
    int i = Scan.skipSpace(sql, at);
    if (i < sql.length() && sql.charAt(i) == ';') {
      i = Scan.skipSpace(sql, i + 1);
    }
    return i == sql.length();
  }

  /** Whether the text is one statement: no {@code ;} outside strings but a final one. */
  private static boolean oneStatementAnywhere(String sql) {
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == ';') {
        return Scan.skipSpace(sql, i + 1) == n;
      }
      i = Scan.isIdentifierStart(c) ? Scan.wordEnd(sql, i) : Scan.skipQuoted(sql, i);
      if (i < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean word(String sql, int at, String word) {
    return Scan.isWord(sql, at, word);
  }

  /**
   * {@link SessionText}'s steps over a statement, taken by the library's one lexer ({@link Lexer},
   * PostgreSQL's rules): blanks and comments, words, and one token that starts no word. No second
   * reading of SQL lives here. This class is threadsafe (it has no state).
   */
  static final class Scan {
    private Scan() {}

    /** The first index at or after {@code at} that is neither blank nor inside a comment. */
    static int skipSpace(String sql, int at) {
      return Lexer.skipSpace(sql, at, Lexer.POSTGRES);
    }

    /**
     * Steps over one token that starts no word: a blank or comment, a quoted span, or any other
     * token. Returns the index after it, or {@code -1} for a span whose end the lexer cannot be
     * sure of (a backslash in a standard string, an unclosed quote).
     */
    static int skipQuoted(String sql, int at) {
      int after = skipSpace(sql, at);
      if (after != at) {
        return after;
      }
      return Lexer.tokenEnd(sql, at, Lexer.POSTGRES);
    }

    /** The index after the word or number starting at {@code at}. */
    static int wordEnd(String sql, int at) {
      return Lexer.wordEnd(sql, at);
    }

    /** Whether {@code word} (lower case ASCII) stands at {@code at} and starts no longer word. */
    static boolean isWord(String sql, int at, String word) {
      return Lexer.isWord(sql, at, word);
    }

    static char lower(char c) {
      return Lexer.lower(c);
    }

    /** A word's or a number's first character. */
    static boolean isIdentifierStart(char c) {
      return Lexer.isWordStart(c) || c >= '0' && c <= '9';
    }
  }
}
