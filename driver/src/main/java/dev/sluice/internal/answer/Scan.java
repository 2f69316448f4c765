package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;

/**
 * {@link SessionText}'s steps over a statement, taken by the library's one lexer ({@link Lexer},
 * PostgreSQL's rules): blanks and comments, words, and one token that starts no word. No second
 * reading of SQL lives here. This class is threadsafe (it has no state).
 */
final class Scan {
  private Scan() {}

  /** The first index at or after {@code at} that is neither blank nor inside a comment. */
  static int skipSpace(String sql, int at) {
    return Lexer.skipSpace(sql, at, Lexer.POSTGRES);
  }

  /**
   * Steps over one token that starts no word: a blank or comment, a quoted span, or any other
   * token. Returns the index after it, or {@code -1} for a span whose end the lexer cannot be sure
   * of (a backslash in a standard string, an unclosed quote).
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
