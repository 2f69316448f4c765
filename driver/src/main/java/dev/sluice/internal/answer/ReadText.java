package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;

/**
 * Recognises SQL text shaped as a single read: it begins with {@code SELECT}, {@code WITH},
 * {@code VALUES} or {@code TABLE} (after blanks, comments and opening parentheses) and nowhere
 * outside strings, quoted names and comments holds a word that locks or writes:
 *
 * <ul>
 *   <li>{@code FOR UPDATE}, {@code FOR SHARE}, {@code FOR NO KEY UPDATE}, {@code FOR KEY SHARE}
 *       (any {@code FOR} followed by {@code UPDATE}, {@code SHARE}, {@code NO} or {@code KEY}),
 *       MySQL's {@code LOCK IN SHARE MODE};
 *   <li>{@code INTO} ({@code SELECT … INTO} makes a table or sets variables);
 *   <li>{@code INSERT}, {@code UPDATE}, {@code DELETE}, {@code MERGE} (a data-modifying
 *       {@code WITH});
 *   <li>{@code NEXT VALUE FOR} (a sequence, as syntax rather than a call);
 *   <li>MySQL's {@code SQL_CALC_FOUND_ROWS} (it sets what the session's {@code FOUND_ROWS()}
 *       returns next).
 * </ul>
 *
 * <p>The tokens are the library's one lexer's ({@link Lexer}, PostgreSQL's rules), and it errs
 * towards "not a read": a span the lexer cannot place (a backslash in a standard string, an
 * unclosed quote) makes the text ineligible, as does a second statement after a {@code ;}. The
 * functions a read calls are not judged here by their names: {@link Calls} finds them and the
 * database's catalog says what they do ({@code Catalog}).
 *
 * <p>It reads characters in place: no regular expression, no copy, no allocation. It runs only
 * for a read about to be kept or answered, never on the flag-closed path, and then once per text:
 * what a text is ({@link Texts.Shape}) is kept by the budget's answers ({@link Texts}).
 *
 * <p>This class is threadsafe (it has no state).
 */
public final class ReadText {
  private ReadText() {}

  /**
   * Returns whether {@code sql} is a single read that takes no lock and writes nothing.
   *
   * @param sql the statement's text; {@code null} is not a read
   * @return {@code true} only for a {@code SELECT}/{@code WITH}/{@code VALUES}/{@code TABLE}
   *     statement without a locking clause, {@code INTO} or a write
   */
  public static boolean isRead(String sql) {
    return isRead(sql, Lexer.POSTGRES);
  }

  /**
   * As {@link #isRead(String)}, with the database's own lexer ({@link Dialect#syntax()}): in
   * MySQL, {@code 1 --1 FOR UPDATE} locks, where PostgreSQL's rules see a comment.
   */
  static boolean isRead(String sql, int syntax) {
    if (sql == null) {
      return false;
    }
    int start = skipOpenings(sql, 0, syntax);
    return start >= 0 && startsRead(sql, start) && bodyOnlyReads(sql, start, syntax);
  }

  private static boolean startsRead(String sql, int at) {
    return isWord(sql, at, "select") || isWord(sql, at, "with") || isWord(sql, at, "values")
        || isWord(sql, at, "table");
  }

  /** Skips blanks, comments and opening parentheses ({@code (SELECT 1) UNION (SELECT 2)}). */
  private static int skipOpenings(String sql, int at, int syntax) {
    int i = Lexer.skipSpace(sql, at, syntax);
    while (i >= 0 && i < sql.length() && sql.charAt(i) == '(') {
      i = Lexer.skipSpace(sql, i + 1, syntax);
    }
    return i;
  }

  /** Walks the text token by token; {@code false} at the first word that rules it out. */
  private static boolean bodyOnlyReads(String sql, int from, int syntax) {
    int n = sql.length();
    int i = from;
    while (i < n) {
      int end = Lexer.tokenEnd(sql, i, syntax);
      if (end < 0) {
        return false; // a span the lexer cannot place
      }
      char c = sql.charAt(i);
      if (Lexer.kind(sql, i, syntax) == Lexer.WORD && rulesOut(sql, i, end, syntax)) {
        return false;
      }
      if (c == ';') {
        return Lexer.skipSpace(sql, i + 1, syntax) == n;
      }
      i = Lexer.skipSpace(sql, end, syntax);
      if (i < 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether the word {@code sql[start, end)} locks or writes. */
  private static boolean rulesOut(String sql, int start, int end, int syntax) {
    switch (Lexer.lower(sql.charAt(start))) {
      case 'f':
        return isWord(sql, start, "for") && locks(sql, Lexer.skipSpace(sql, end, syntax));
      case 'l':
        return isWord(sql, start, "lock");
      case 'i':
        return isWord(sql, start, "into") || isWord(sql, start, "insert");
      case 'u':
        return isWord(sql, start, "update");
      case 'd':
        return isWord(sql, start, "delete");
      case 'm':
        return isWord(sql, start, "merge");
      case 'n':
        return isWord(sql, start, "next")
            && isWord(sql, Lexer.skipSpace(sql, end, syntax), "value");
      case 's': // MySQL: the count a later FOUND_ROWS() reads is the session's state
        return isWord(sql, start, "sql_calc_found_rows");
      default:
        return false;
    }
  }

  /** After {@code FOR}: {@code UPDATE}, {@code SHARE}, {@code NO KEY UPDATE}, {@code KEY SHARE}. */
  private static boolean locks(String sql, int at) {
    return isWord(sql, at, "update") || isWord(sql, at, "share") || isWord(sql, at, "no")
        || isWord(sql, at, "key");
  }

  private static boolean isWord(String sql, int at, String word) {
    return Lexer.isWord(sql, at, word);
  }
}
