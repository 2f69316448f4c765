package dev.sluice.internal.answer;

/**
 * The character-level steps of {@link ReadText}: blanks and comments, words, and the quoted
 * spans (strings, quoted identifiers, dollar quotes) whose content is not SQL.
 */
final class Scan {
  private Scan() {}

  /** The first index at or after {@code at} that is neither blank nor inside a comment. */
  static int skipSpace(String sql, int at) {
    int n = sql.length();
    int i = at;
    while (i < n) {
      char c = sql.charAt(i);
      if (c <= ' ') {
        i++;
      } else if (c == '-' && next(sql, i) == '-') {
        int newline = sql.indexOf('\n', i + 2);
        i = newline < 0 ? n : newline + 1;
      } else if (c == '/' && next(sql, i) == '*' && !isExecutable(sql, i)) {
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else {
        return i;
      }
    }
    return n;
  }

  /** MySQL runs {@code /*! … *}{@code /}; {@code /*+ … *}{@code /} steers the planner. */
  private static boolean isExecutable(String sql, int at) {
    char third = at + 2 < sql.length() ? sql.charAt(at + 2) : ' ';
    return third == '!' || third == '+';
  }

  /**
   * Steps over one character that starts no word: a blank or comment, a quoted span, or any
   * other single character. Returns the index after it, or {@code -1} for a span whose end the
   * scanner cannot be sure of (a backslash in a string, an unclosed quote).
   */
  static int skipQuoted(String sql, int at) {
    char c = sql.charAt(at);
    switch (c) {
      case '\'':
        return closeString(sql, at);
      case '"':
      case '`':
        return closeDoubled(sql, at, c);
      case '$':
        return closeDollar(sql, at);
      case '-':
      case '/':
        int after = skipSpace(sql, at);
        return after == at ? at + 1 : after;
      default:
        return c <= ' ' ? skipSpace(sql, at) : at + 1;
    }
  }

  /** A string {@code '…'} with {@code ''} inside; a backslash makes it unplaceable. */
  private static int closeString(String sql, int at) {
    int n = sql.length();
    int i = at + 1;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\') {
        return -1;
      }
      if (c == '\'') {
        if (next(sql, i) != '\'') {
          return i + 1;
        }
        i++;
      }
      i++;
    }
    return -1;
  }

  /** A quoted identifier {@code "…"} or {@code `…`}, the quote doubled inside. */
  private static int closeDoubled(String sql, int at, char quote) {
    int n = sql.length();
    int i = at + 1;
    while (i < n) {
      if (sql.charAt(i) == quote) {
        if (next(sql, i) != quote) {
          return i + 1;
        }
        i++;
      }
      i++;
    }
    return -1;
  }

  /**
   * A PostgreSQL dollar quote {@code $tag$…$tag$}; a {@code $} that opens none (a {@code $1}
   * parameter) is one character.
   */
  private static int closeDollar(String sql, int at) {
    int i = at + 1;
    while (i < sql.length() && isIdentifierPart(sql.charAt(i)) && sql.charAt(i) != '$') {
      i++;
    }
    if (i >= sql.length() || sql.charAt(i) != '$'
        || i > at + 1 && Character.isDigit(sql.charAt(at + 1))) {
      return at + 1;
    }
    String tag = sql.substring(at, i + 1);
    int close = sql.indexOf(tag, i + 1);
    return close < 0 ? -1 : close + tag.length();
  }

  /** The index after the identifier or number starting at {@code at}. */
  static int wordEnd(String sql, int at) {
    int i = at + 1;
    while (i < sql.length() && isIdentifierPart(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * Whether {@code word} (lower case ASCII) stands at {@code at}, in any case, and is not the
   * start of a longer identifier.
   */
  static boolean isWord(String sql, int at, String word) {
    int end = at + word.length();
    if (end > sql.length()) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (lower(sql.charAt(at + k)) != word.charAt(k)) {
        return false;
      }
    }
    return end == sql.length() || !isIdentifierPart(sql.charAt(end));
  }

  /** ASCII lower case; every other character as it is. */
  static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c | 0x20) : c;
  }

  static boolean isIdentifierStart(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  private static boolean isIdentifierPart(char c) {
    return c == '_' || c == '$' || Character.isLetterOrDigit(c);
  }

  private static char next(String sql, int i) {
    return i + 1 < sql.length() ? sql.charAt(i + 1) : 0;
  }
}
