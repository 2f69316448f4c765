package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a read's text names, as the database will resolve it: the functions it calls and every
 * other name (among them the views it reads), for the catalog to judge ({@code Catalog}).
 *
 * <ul>
 *   <li>A <em>call</em> is a name followed by {@code (}: quoted ({@code "nextval"(…)}) or not,
 *       schema-qualified or not ({@code pg_catalog.nextval(…)}: the last part). A dotted name's
 *       last part counts as a call too: PostgreSQL reads {@code t.f} as {@code f(t)} when
 *       {@code t} has no column {@code f} (not for H2, which has no such notation). Keywords followed by {@code (} ({@code IN},
 *       {@code EXISTS}, an alias's column list) are calls here as well: the catalog knows no
 *       function of that name, and PostgreSQL calls none.
 *   <li>Every other name may be a relation: a view is looked through for what it calls.
 *   <li>The SQL value functions without parentheses: {@code CURRENT_DATE}, {@code CURRENT_TIME},
 *       {@code CURRENT_TIMESTAMP}, {@code LOCALTIME}, {@code LOCALTIMESTAMP} read the
 *       transaction's start time (eligible, as {@code now()}); {@code CURRENT_USER},
 *       {@code SESSION_USER}, {@code USER}, {@code CURRENT_ROLE}, {@code CURRENT_SCHEMA},
 *       {@code CURRENT_CATALOG}, {@code SYSTEM_USER} read the session: the text is ineligible.
 * </ul>
 *
 * <p>Unquoted names are folded as the database folds them (PostgreSQL to lower case, H2 to upper
 * case); quoted ones are kept as written. A text the lexer cannot place is ineligible
 * ({@link #placeable()} false).
 *
 * <p>Instances are immutable once made, and threadsafe.
 */
final class Calls {
  private static final Set<String> TIME_VALUES = Set.of("current_date", "current_time",
      "current_timestamp", "localtime", "localtimestamp");
  private static final Set<String> SESSION_VALUES = Set.of("current_user", "session_user",
      "user", "current_role", "current_schema", "current_catalog", "system_user");
  /** Reserved words: never a relation's unquoted name, so not worth a catalog look-up. */
  private static final Set<String> RESERVED = Set.of("select", "from", "where", "and", "or",
      "not", "as", "on", "in", "is", "null", "true", "false", "by", "order", "group", "having",
      "limit", "offset", "union", "all", "distinct", "case", "when", "then", "else", "end",
      "with", "join", "left", "right", "inner", "outer", "full", "cross", "using", "exists",
      "between", "like", "ilike", "asc", "desc", "values", "table", "any", "some", "array",
      "cast", "lateral", "only", "fetch", "for", "to");

  private static final Calls UNPLACEABLE = new Calls(false, Set.of(), Set.of());

  private final boolean placeable;
  private final Set<String> functions;
  private final Set<String> names;

  private Calls(boolean placeable, Set<String> functions, Set<String> names) {
    this.placeable = placeable;
    this.functions = functions;
    this.names = names;
  }

  /**
   * Reads {@code sql} with the database's rules.
   *
   * @param sql the read's text
   * @param syntax {@link Lexer#POSTGRES} or {@link Lexer#STRICT}
   * @param upperCase whether the database folds unquoted names to upper case (H2)
   * @return what it names; not {@link #placeable()} when it cannot be read safely
   */
  static Calls of(String sql, int syntax, boolean upperCase) {
    Set<String> functions = new HashSet<>();
    Set<String> names = new HashSet<>();
    int n = sql.length();
    int i = Lexer.skipSpace(sql, 0, syntax);
    while (i >= 0 && i < n) {
      int kind = Lexer.kind(sql, i, syntax);
      int end;
      if (kind == Lexer.WORD || kind == Lexer.QUOTED_NAME) {
        end = name(sql, i, syntax, upperCase, functions, names);
        if (end == Integer.MIN_VALUE) {
          return UNPLACEABLE; // a session value
        }
      } else {
        end = Lexer.tokenEnd(sql, i, syntax);
      }
      if (end < 0) {
        return UNPLACEABLE;
      }
      i = Lexer.skipSpace(sql, end, syntax);
    }
    return i < 0 ? UNPLACEABLE : new Calls(true, Set.copyOf(functions), Set.copyOf(names));
  }

  /**
   * Reads the dotted name at {@code at} ({@code a}, {@code s.f}, {@code "x"."y"}) and files it;
   * returns the index after it, {@code -1} if unplaceable, {@link Integer#MIN_VALUE} for a value
   * of the session.
   */
  private static int name(String sql, int at, int syntax, boolean upperCase,
      Set<String> functions, Set<String> names) {
    int start = at;
    int end = Lexer.tokenEnd(sql, at, syntax);
    int parts = 1;
    String last = part(sql, start, end, upperCase);
    while (end > 0) {
      int dot = Lexer.skipSpace(sql, end, syntax);
      if (dot < 0 || dot >= sql.length() || sql.charAt(dot) != '.') {
        break;
      }
      int next = Lexer.skipSpace(sql, dot + 1, syntax);
      if (next < 0 || next >= sql.length()) {
        return -1;
      }
      int kind = Lexer.kind(sql, next, syntax);
      if (kind != Lexer.WORD && kind != Lexer.QUOTED_NAME) {
        return dot + 1; // t.* : the star is read next
      }
      names.add(last);
      start = next;
      end = Lexer.tokenEnd(sql, next, syntax);
      if (end < 0) {
        return -1;
      }
      last = part(sql, start, end, upperCase);
      parts++;
    }
    if (end < 0 || last == null) {
      return -1;
    }
    int after = Lexer.skipSpace(sql, end, syntax);
    boolean unquoted = Lexer.kind(sql, start, syntax) == Lexer.WORD;
    String folded = last.toLowerCase(Locale.ROOT);
    if (unquoted && parts == 1 && SESSION_VALUES.contains(folded)) {
      return Integer.MIN_VALUE;
    }
    boolean call = after >= 0 && after < sql.length() && sql.charAt(after) == '(';
    if (call || parts > 1 && syntax == Lexer.POSTGRES) { // t.f: f(t) in PostgreSQL
      if (!(unquoted && parts == 1 && TIME_VALUES.contains(folded))) {
        functions.add(last);
      }
    }
    if (!call && !(unquoted && (RESERVED.contains(folded) || TIME_VALUES.contains(folded)))) {
      names.add(last);
    }
    return end;
  }

  /** The name the token {@code sql[start, end)} stands for, folded as the database folds it. */
  private static String part(String sql, int start, int end, boolean upperCase) {
    if (end < 0) {
      return null;
    }
    char c = sql.charAt(start);
    if (c == '"' || c == '`') {
      return sql.substring(start + 1, end - 1).replace(c == '"' ? "\"\"" : "``",
          c == '"' ? "\"" : "`");
    }
    if (c == 'u' || c == 'U') {
      if (start + 1 < end && sql.charAt(start + 1) == '&') {
        return null; // U&"…" with its escapes: not read here
      }
    }
    String word = sql.substring(start, end);
    return upperCase ? upperAscii(word) : lowerAscii(word);
  }

  private static String lowerAscii(String word) {
    StringBuilder b = null;
    for (int k = 0; k < word.length(); k++) {
      char c = word.charAt(k);
      if (c >= 'A' && c <= 'Z') {
        if (b == null) {
          b = new StringBuilder(word);
        }
        b.setCharAt(k, (char) (c | 0x20));
      }
    }
    return b == null ? word : b.toString();
  }

  private static String upperAscii(String word) {
    StringBuilder b = null;
    for (int k = 0; k < word.length(); k++) {
      char c = word.charAt(k);
      if (c >= 'a' && c <= 'z') {
        if (b == null) {
          b = new StringBuilder(word);
        }
        b.setCharAt(k, (char) (c & ~0x20));
      }
    }
    return b == null ? word : b.toString();
  }

  /** Whether the text could be read safely, and names no value of the session. */
  boolean placeable() {
    return placeable;
  }

  /** The names it calls (the last part of a qualified name), folded. */
  Set<String> functions() {
    return functions;
  }

  /** Every name it mentions that is not a call: the relations among them. */
  Set<String> names() {
    return names;
  }
}
