package dev.sluice.internal.answer;

/**
 * Recognises SQL text that only reads and may be answered from an earlier identical read: it
 * begins with {@code SELECT}, {@code WITH}, {@code VALUES} or {@code TABLE} (after blanks,
 * comments and opening parentheses) and nowhere outside strings, quoted identifiers and comments
 * holds a word that locks, writes or draws something new:
 *
 * <ul>
 *   <li>{@code FOR UPDATE}, {@code FOR SHARE}, {@code FOR NO KEY UPDATE}, {@code FOR KEY SHARE}
 *       (any {@code FOR} followed by {@code UPDATE}, {@code SHARE}, {@code NO} or {@code KEY}),
 *       MySQL's {@code LOCK IN SHARE MODE};
 *   <li>{@code INTO} ({@code SELECT … INTO} makes a table or sets variables);
 *   <li>{@code INSERT}, {@code UPDATE}, {@code DELETE}, {@code MERGE} (a data-modifying
 *       {@code WITH});
 *   <li>functions whose every call returns something new or takes a lock: {@code nextval},
 *       {@code setval}, {@code lastval}, {@code currval}, {@code NEXT VALUE FOR},
 *       {@code random}, {@code rand}, {@code gen_random_uuid}, {@code random_uuid},
 *       {@code uuid_generate_*}, {@code pg_advisory_*}, {@code pg_try_advisory_*}.
 * </ul>
 *
 * <p>It errs towards "not a read", never the other way: a word it cannot place makes the text
 * ineligible. So a string literal holding a backslash (whose meaning depends on the database and
 * its settings) is ineligible, as is a second statement after a {@code ;}. A block comment ends
 * at its first {@code *}{@code /} (PostgreSQL nests them; reading them flat can only show more
 * words, never hide one), and MySQL's executable comments {@code /*!…*}{@code /} and optimizer
 * hints {@code /*+…*}{@code /} are read as text. A function of the application's own that writes
 * is not recognised: see the design note in {@link Answers}.
 *
 * <p>Like {@code TransactionText} it reads characters in place: no regular expression, no copy,
 * no allocation. It runs only for a read about to be kept or answered, never on the flag-closed
 * path.
 *
 * <p>This class is threadsafe (it has no state).
 */
public final class ReadText {
  private ReadText() {}

  /**
   * Returns whether {@code sql} is a single read that takes no lock and changes nothing.
   *
   * @param sql the statement's text; {@code null} is not a read
   * @return {@code true} only for a {@code SELECT}/{@code WITH}/{@code VALUES}/{@code TABLE}
   *     statement without a locking clause, {@code INTO}, a write or a volatile function
   */
  public static boolean isRead(String sql) {
    if (sql == null) {
      return false;
    }
    int start = skipOpenings(sql, 0);
    return startsRead(sql, start) && bodyOnlyReads(sql, start);
  }

  private static boolean startsRead(String sql, int at) {
    return isWord(sql, at, "select") || isWord(sql, at, "with") || isWord(sql, at, "values")
        || isWord(sql, at, "table");
  }

  /** Skips blanks, comments and opening parentheses ({@code (SELECT 1) UNION (SELECT 2)}). */
  private static int skipOpenings(String sql, int at) {
    int i = Scan.skipSpace(sql, at);
    while (i < sql.length() && sql.charAt(i) == '(') {
      i = Scan.skipSpace(sql, i + 1);
    }
    return i;
  }

  /** Walks the text token by token; {@code false} at the first word that rules it out. */
  private static boolean bodyOnlyReads(String sql, int from) {
    int n = sql.length();
    int i = from;
    while (i < n) {
      char c = sql.charAt(i);
      if (Scan.isIdentifierStart(c)) {
        int end = Scan.wordEnd(sql, i);
        if (rulesOut(sql, i, end)) {
          return false;
        }
        i = end;
      } else if (c == ';') {
        return Scan.skipSpace(sql, i + 1) == n;
      } else {
        i = Scan.skipQuoted(sql, i);
        if (i < 0) {
          return false; // a string the scanner cannot place
        }
      }
    }
    return true;
  }

  /** Whether the word {@code sql[start, end)} locks, writes or draws something new. */
  private static boolean rulesOut(String sql, int start, int end) {
    switch (Scan.lower(sql.charAt(start))) {
      case 'f':
        return isWord(sql, start, "for") && locks(sql, Scan.skipSpace(sql, end));
      case 'l':
        return isWord(sql, start, "lock") || isWord(sql, start, "lastval");
      case 'i':
        return isWord(sql, start, "into") || isWord(sql, start, "insert");
      case 'u':
        return isWord(sql, start, "update") || startsWith(sql, start, end, "uuid_generate");
      case 'd':
        return isWord(sql, start, "delete");
      case 'm':
        return isWord(sql, start, "merge");
      case 'n':
        return isWord(sql, start, "nextval")
            || isWord(sql, start, "next") && isWord(sql, Scan.skipSpace(sql, end), "value");
      case 's':
        return isWord(sql, start, "setval");
      case 'c':
        return isWord(sql, start, "currval");
      case 'r':
        return isWord(sql, start, "random") || isWord(sql, start, "rand")
            || isWord(sql, start, "random_uuid");
      case 'g':
        return isWord(sql, start, "gen_random_uuid");
      case 'p':
        return startsWith(sql, start, end, "pg_advisory")
            || startsWith(sql, start, end, "pg_try_advisory");
      default:
        return false;
    }
  }

  /** After {@code FOR}: {@code UPDATE}, {@code SHARE}, {@code NO KEY UPDATE}, {@code KEY SHARE}. */
  private static boolean locks(String sql, int at) {
    return isWord(sql, at, "update") || isWord(sql, at, "share") || isWord(sql, at, "no")
        || isWord(sql, at, "key");
  }

  private static boolean startsWith(String sql, int start, int end, String prefix) {
    if (end - start < prefix.length()) {
      return false;
    }
    for (int k = 0; k < prefix.length(); k++) {
      if (Scan.lower(sql.charAt(start + k)) != prefix.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWord(String sql, int at, String word) {
    return Scan.isWord(sql, at, word);
  }
}
