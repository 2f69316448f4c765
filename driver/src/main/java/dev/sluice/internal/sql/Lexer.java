package dev.sluice.internal.sql;

/**
 * The one SQL lexer of the library: where a token begins and ends, read as PostgreSQL reads it
 * ({@code scan.l}), so that what Sluice takes for code is what the server runs. Used by
 * {@code TransactionText} (which text ends or begins a transaction) and by the answers' reading of
 * a statement ({@code ReadText}, {@code Calls}); {@code LexerAgreementTest} (on an embedded
 * PostgreSQL) checks its boundaries against a real PostgreSQL over a corpus of a few hundred texts.
 *
 * <p>Three readings: the default, PostgreSQL's (nested block comments, escape strings, dollar
 * quotes, a backslash in a standard string unplaceable since its end depends on the session);
 * {@link #STRICT}, for a database whose rules differ (H2…), where every construct whose meaning
 * differs between the databases makes the text unplaceable; and {@link #MYSQL}, MySQL's and
 * MariaDB's, where what depends on the session's {@code sql_mode} is placed only if it reads the
 * same either way, and executable comments and {@code @} variables are unplaceable.
 *
 * <p>Every method reads characters in place: no regular expression, no copy, no allocation.
 * {@code -1} ({@link #UNPLACEABLE}) answers a span whose end the lexer cannot be sure of, and an
 * unclosed quote. This class is threadsafe (it has no state).
 *
 * <p>The long form, rule by rule for each reading: docs/architecture.md#the-sql-lexer.
 */
public final class Lexer {
  /** PostgreSQL's rules. */
  public static final int POSTGRES = 0;
  /** Any other database: what PostgreSQL and the others read differently is unplaceable. */
  public static final int STRICT = 1;
  /** MySQL's and MariaDB's rules, with what a session's {@code sql_mode} changes unplaceable. */
  public static final int MYSQL = 2;
  /** A span whose end the lexer cannot be sure of. */
  public static final int UNPLACEABLE = -1;

  /** The kinds of token {@link #kind} tells apart. */
  public static final int WORD = 1;
  public static final int QUOTED_NAME = 2;
  public static final int STRING = 3;
  public static final int DOLLAR_QUOTE = 4;
  public static final int PARAMETER = 5;
  public static final int NUMBER = 6;
  public static final int OTHER = 7;

  private Lexer() {}

  /**
   * The first index at or after {@code at} that is neither blank nor inside a comment:
   * {@code sql.length()} at the end (an unclosed block comment runs to the end, as the server
   * refuses it), {@link #UNPLACEABLE} for a comment {@link #STRICT} cannot place.
   */
  public static int skipSpace(String sql, int at, int syntax) {
    int n = sql.length();
    int i = at;
    while (i < n) {
      char c = sql.charAt(i);
      if (c <= ' ') {
        i++;
      } else if (syntax == MYSQL && (c == '#' || c == '-' && next(sql, i) == '-')) {
        if (c == '-' && !mysqlDashComment(sql, i)) {
          return i; // two minus signs
        }
        i = newlineEnd(sql, i + 1);
      } else if (c == '-' && next(sql, i) == '-') {
        i = lineEnd(sql, i + 2);
      } else if (c == '/' && next(sql, i) == '*') {
        i = blockEnd(sql, i, syntax);
        if (i < 0) {
          return UNPLACEABLE;
        }
      } else if (syntax == STRICT && (c == '#' || c == '/' && next(sql, i) == '/')) {
        return UNPLACEABLE; // a comment in MySQL (#) or H2 (//), an operator in PostgreSQL
      } else {
        return i;
      }
    }
    return n;
  }

  /** After {@code --}: the index of the first {@code \r} or {@code \n}, else the end. */
  private static int lineEnd(String sql, int from) {
    int n = sql.length();
    int i = from;
    while (i < n && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
      i++;
    }
    return i;
  }

  /**
   * Whether MySQL reads the {@code --} at {@code at} as a comment: a blank or control character
   * follows it (else, the end of the text included, two minus signs).
   */
  private static boolean mysqlDashComment(String sql, int at) {
    return at + 2 < sql.length() && sql.charAt(at + 2) <= ' ';
  }

  /** After {@code #} or {@code -- }: the index of the first {@code \n}, else the end. */
  private static int newlineEnd(String sql, int from) {
    int i = sql.indexOf('\n', from);
    return i < 0 ? sql.length() : i;
  }

  /** The index after the block comment at {@code at}, nested as PostgreSQL nests them. */
  private static int blockEnd(String sql, int at, int syntax) {
    int n = sql.length();
    if (syntax == MYSQL) {
      char c = at + 2 < n ? sql.charAt(at + 2) : 0;
      if (c == '!' || c == 'M' && at + 3 < n && sql.charAt(at + 3) == '!') {
        return UNPLACEABLE; // an executable comment: the server runs what it holds
      }
      int close = sql.indexOf("*/", at + 2);
      return close < 0 ? UNPLACEABLE : close + 2;
    }
    if (syntax == STRICT && at + 2 < n && (sql.charAt(at + 2) == '!' || sql.charAt(at + 2) == '+')) {
      return UNPLACEABLE; // MySQL runs /*! … */ and steers the planner with /*+ … */
    }
    int depth = 1;
    int i = at + 2;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '*' && next(sql, i) == '/') {
        i += 2;
        if (--depth == 0) {
          return i;
        }
      } else if (c == '/' && next(sql, i) == '*') {
        if (syntax == STRICT) {
          return UNPLACEABLE; // nested in PostgreSQL, not in MySQL
        }
        depth++;
        i += 2;
      } else {
        i++;
      }
    }
    return n;
  }

  /**
   * The kind of the token that begins at {@code at} (not a blank nor a comment): one of
   * {@link #WORD}, {@link #QUOTED_NAME}, {@link #STRING}, {@link #DOLLAR_QUOTE},
   * {@link #PARAMETER}, {@link #NUMBER}, {@link #OTHER}.
   */
  public static int kind(String sql, int at, int syntax) {
    char c = sql.charAt(at);
    if (c == '\'') {
      return STRING;
    }
    if (c == '"' || c == '`' && syntax != POSTGRES) {
      return QUOTED_NAME;
    }
    if (isWordStart(c)) {
      int quote = syntax == MYSQL ? mysqlPrefixedQuote(sql, at) : prefixedQuote(sql, at);
      if (quote < 0) {
        return WORD;
      }
      return sql.charAt(quote) == '"' ? QUOTED_NAME : STRING;
    }
    if (c == '$') {
      if (isDigit(next(sql, at))) {
        return PARAMETER;
      }
      return dollarTagEnd(sql, at) > 0 ? DOLLAR_QUOTE : OTHER;
    }
    if (isDigit(c) || c == '.' && isDigit(next(sql, at))) {
      return NUMBER;
    }
    return OTHER;
  }

  /**
   * The index after the token that begins at {@code at} (not a blank nor a comment), or
   * {@link #UNPLACEABLE}.
   */
  public static int tokenEnd(String sql, int at, int syntax) {
    char c = sql.charAt(at);
    if (syntax == MYSQL) {
      return mysqlTokenEnd(sql, at);
    }
    switch (kind(sql, at, syntax)) {
      case STRING:
        if (c == '\'') {
          return standardEnd(sql, at + 1);
        }
        int quote = prefixedQuote(sql, at);
        return lower(c) == 'e' && syntax == POSTGRES ? escapeEnd(sql, quote + 1)
            : standardEnd(sql, quote + 1);
      case QUOTED_NAME:
        int open = c == '"' || c == '`' ? at : prefixedQuote(sql, at);
        return doubledEnd(sql, open, sql.charAt(open), syntax);
      case WORD:
        return wordEnd(sql, at);
      case DOLLAR_QUOTE:
        return syntax == STRICT ? UNPLACEABLE : dollarEnd(sql, at);
      case PARAMETER:
        int i = at + 1;
        while (i < sql.length() && isDigit(sql.charAt(i))) {
          i++;
        }
        return i;
      case NUMBER:
        return numberEnd(sql, at);
      default:
        return syntax == STRICT && c == '$' ? UNPLACEABLE : at + 1;
    }
  }

  /** {@link #tokenEnd} by MySQL's rules ({@link #MYSQL}). */
  private static int mysqlTokenEnd(String sql, int at) {
    char c = sql.charAt(at);
    switch (kind(sql, at, MYSQL)) {
      case STRING:
        return bothReadingsEnd(sql, c == '\'' ? at : mysqlPrefixedQuote(sql, at));
      case QUOTED_NAME:
        return c == '`' ? doubledEnd(sql, at, '`', POSTGRES) : bothReadingsEnd(sql, at);
      case WORD:
        return wordEnd(sql, at);
      case NUMBER:
        return mysqlNumberEnd(sql, at);
      case OTHER:
        return c == '@' || c == '$' ? UNPLACEABLE : at + 1;
      default: // a dollar sign: part of a name in MySQL, or a parameter of PostgreSQL's
        return UNPLACEABLE;
    }
  }

  /** {@code N'}, {@code X'}, {@code B'}: the index of the quote; else {@code -1}. */
  private static int mysqlPrefixedQuote(String sql, int at) {
    char p = lower(sql.charAt(at));
    return next(sql, at) == '\'' && (p == 'n' || p == 'b' || p == 'x') ? at + 1 : -1;
  }

  /**
   * The index after the span quoted at {@code open} when the backslash-escaped reading and the
   * literal one ({@code NO_BACKSLASH_ESCAPES}) end at the same quote; else unplaceable.
   */
  private static int bothReadingsEnd(String sql, int open) {
    char quote = sql.charAt(open);
    int escaped = quotedEnd(sql, open, quote, true);
    return escaped == quotedEnd(sql, open, quote, false) ? escaped : UNPLACEABLE;
  }

  private static int quotedEnd(String sql, int open, char quote, boolean backslashEscapes) {
    int n = sql.length();
    int i = open + 1;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\' && backslashEscapes) {
        i += 2;
      } else if (c == quote) {
        if (next(sql, i) != quote) {
          return i + 1;
        }
        i += 2;
      } else {
        i++;
      }
    }
    return UNPLACEABLE;
  }

  /**
   * A MySQL number: digits with a point and an exponent, {@code 0x…}, {@code 0b…}; one that runs
   * into a letter, digit or {@code _} after its end is a name ({@code 1e}, {@code 2abc}):
   * unplaceable.
   */
  private static int mysqlNumberEnd(String sql, int at) {
    int n = sql.length();
    int i = at;
    char second = lower(next(sql, at));
    if (sql.charAt(at) == '0' && (second == 'x' || second == 'b')) {
      i = at + 2;
      while (i < n && Character.digit(sql.charAt(i), second == 'x' ? 16 : 2) >= 0) {
        i++;
      }
    } else {
      i = digits(sql, i);
      if (i < n && sql.charAt(i) == '.') {
        i = digits(sql, i + 1);
      }
      if (i < n && lower(sql.charAt(i)) == 'e') {
        int e = i + 1;
        if (e < n && (sql.charAt(e) == '+' || sql.charAt(e) == '-')) {
          e++;
        }
        if (e < n && isDigit(sql.charAt(e))) {
          i = digits(sql, e);
        }
      }
    }
    return i < n && (isWordPart(sql.charAt(i)) || sql.charAt(i) == '.') ? UNPLACEABLE : i;
  }

  private static int digits(String sql, int from) {
    int i = from;
    while (i < sql.length() && isDigit(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * For a word that opens a string or a quoted name ({@code E'}, {@code N'}, {@code B'},
   * {@code X'}, {@code U&'}, {@code U&"}): the index of its quote; else {@code -1}.
   */
  private static int prefixedQuote(String sql, int at) {
    char p = lower(sql.charAt(at));
    char after = next(sql, at);
    if (after == '\'' && (p == 'e' || p == 'n' || p == 'b' || p == 'x')) {
      return at + 1;
    }
    if (p == 'u' && after == '&' && at + 2 < sql.length()
        && (sql.charAt(at + 2) == '\'' || sql.charAt(at + 2) == '"')) {
      return at + 2;
    }
    return -1;
  }

  /** After the opening quote: the index after {@code '…'}; a backslash is unplaceable. */
  private static int standardEnd(String sql, int from) {
    int n = sql.length();
    int i = from;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\') {
        return UNPLACEABLE; // its meaning is the session's standard_conforming_strings
      }
      if (c == '\'') {
        if (next(sql, i) != '\'') {
          return i + 1;
        }
        i++;
      }
      i++;
    }
    return UNPLACEABLE;
  }

  /** After the opening quote of {@code E'…'}: a backslash escapes the next character. */
  private static int escapeEnd(String sql, int from) {
    int n = sql.length();
    int i = from;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (c == '\'') {
        if (next(sql, i) != '\'') {
          return i + 1;
        }
        i += 2;
      } else {
        i++;
      }
    }
    return UNPLACEABLE;
  }

  /** A quoted name {@code "…"} (or {@code `…`}), the quote doubled inside. */
  private static int doubledEnd(String sql, int at, char quote, int syntax) {
    int n = sql.length();
    int i = at + 1;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\' && syntax == STRICT) {
        return UNPLACEABLE; // MySQL reads "…" as a string, with escapes
      }
      if (c == quote) {
        if (next(sql, i) != quote) {
          return i + 1;
        }
        i++;
      }
      i++;
    }
    return UNPLACEABLE;
  }

  /** The index after the opening {@code $tag$} at {@code at}, or {@code -1}: none opens there. */
  private static int dollarTagEnd(String sql, int at) {
    int n = sql.length();
    int i = at + 1;
    if (i < n && sql.charAt(i) != '$') {
      if (!isWordStart(sql.charAt(i))) {
        return -1;
      }
      while (i < n && isWordStart(sql.charAt(i)) || i < n && isDigit(sql.charAt(i))) {
        i++;
      }
    }
    return i < n && sql.charAt(i) == '$' ? i + 1 : -1;
  }

  private static int dollarEnd(String sql, int at) {
    int body = dollarTagEnd(sql, at);
    String tag = sql.substring(at, body); // only off the flag-closed path: a dollar-quoted read
    int close = sql.indexOf(tag, body);
    return close < 0 ? UNPLACEABLE : close + tag.length();
  }

  /** Digits, a point, an exponent, PostgreSQL 16's {@code 0x…} and {@code 1_000}. */
  private static int numberEnd(String sql, int at) {
    int n = sql.length();
    int i = at;
    while (i < n) {
      char c = sql.charAt(i);
      if (isDigit(c) || c == '.' || c == '_' || isAsciiLetter(c)) {
        i++;
        if ((c == 'e' || c == 'E') && i + 1 < n && (sql.charAt(i) == '+' || sql.charAt(i) == '-')
            && isDigit(sql.charAt(i + 1))) {
          i++;
        }
      } else {
        return i;
      }
    }
    return n;
  }

  /** The index after the word starting at {@code at}. */
  public static int wordEnd(String sql, int at) {
    int i = at + 1;
    while (i < sql.length() && isWordPart(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * Whether {@code word} (lower case ASCII) stands at {@code at}, in any case, and is not the
   * start of a longer word ({@code COMMITTED}, {@code commit_log}, {@code endpoint}).
   */
  public static boolean isWord(String sql, int at, String word) {
    if (at < 0) {
      return false;
    }
    int end = at + word.length();
    if (end > sql.length()) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (lower(sql.charAt(at + k)) != word.charAt(k)) {
        return false;
      }
    }
    return end == sql.length() || !isWordPart(sql.charAt(end));
  }

  /** ASCII lower case; every other character as it is (PostgreSQL folds only ASCII). */
  public static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c | 0x20) : c;
  }

  /** A letter, {@code _}, or any character above {@code 0x7f}, as PostgreSQL's identifiers. */
  public static boolean isWordStart(char c) {
    return isAsciiLetter(c) || c == '_' || c > 0x7f;
  }

  public static boolean isWordPart(char c) {
    return isWordStart(c) || isDigit(c) || c == '$';
  }

  private static boolean isAsciiLetter(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static char next(String sql, int i) {
    return i + 1 < sql.length() ? sql.charAt(i + 1) : 0;
  }
}
