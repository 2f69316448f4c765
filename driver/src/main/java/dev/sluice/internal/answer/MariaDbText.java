package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;

/**
 * What a statement does, read as MySQL and MariaDB read it ({@link Lexer#MYSQL}), for the
 * sessions Sluice follows through MariaDB Connector/J; {@link SessionText} reads the rest with
 * PostgreSQL's rules, and does so here too where both lexers agree on every token.
 *
 * <ul>
 *   <li>A statement that names a user or system variable ({@code @tenant := 1},
 *       {@code SET @x = …}, {@code @@session.sql_mode}): the session is unknown until read again
 *       (its variables are part of the session's identity, {@link MariaDbSession}); not a read or
 *       {@code SET}: it may also write anything.
 *   <li>{@code USE db}: the session is unknown until read again.
 *   <li>{@code SET} of more than one variable ({@code SET a = 1, b = 2}), or to a value that is
 *       not a literal ({@code SET time_zone = @x}, {@code = ?}, {@code = (SELECT …)},
 *       {@code := …}): the session is unknown; a later {@code SET} of one of them would
 *       otherwise hide the other, or the value is not in the text.
 *   <li>Text whose tokens the two lexers read differently ({@code #} comments, backslashes in
 *       strings, {@code "…"}, {@code 1--1}), or that MySQL's cannot place (an executable
 *       comment): unknown — any table written, the session unknown.
 * </ul>
 *
 * <p>Runs only for statements noted while limiting. Threadsafe (no state).
 */
final class MariaDbText {
  private MariaDbText() {}

  static SessionText.Effect classify(String sql) {
    if (sql == null) {
      return SessionText.Effect.UNKNOWN;
    }
    int first = Lexer.skipSpace(sql, 0, Lexer.MYSQL);
    if (first < 0) {
      return SessionText.Effect.UNKNOWN;
    }
    boolean reads = Lexer.isWord(sql, first, "select") || Lexer.isWord(sql, first, "with")
        || Lexer.isWord(sql, first, "values") || first < sql.length() && sql.charAt(first) == '(';
    boolean set = Lexer.isWord(sql, first, "set");
    if (Lexer.isWord(sql, first, "use")) {
      return SessionText.Effect.SESSION_UNKNOWN;
    }
    int equals = 0;
    boolean notLiteral = false;
    int i = first;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '@') {
        return reads || set ? SessionText.Effect.SESSION_UNKNOWN : SessionText.Effect.UNKNOWN;
      }
      int end = Lexer.tokenEnd(sql, i, Lexer.MYSQL);
      if (end < 0 || end != Lexer.tokenEnd(sql, i, Lexer.POSTGRES)) {
        return SessionText.Effect.UNKNOWN;
      }
      equals += c == '=' ? 1 : 0;
      notLiteral |= c == '(' || c == '?' || c == ':';
      int next = Lexer.skipSpace(sql, end, Lexer.MYSQL);
      if (next < 0 || next != Lexer.skipSpace(sql, end, Lexer.POSTGRES)) {
        return SessionText.Effect.UNKNOWN;
      }
      i = next;
    }
    if (set && (equals > 1 || notLiteral)) {
      return SessionText.Effect.SESSION_UNKNOWN;
    }
    return SessionText.classify(sql);
  }
}
