package dev.sluice.internal.limit;

/**
 * Recognises SQL text that ends a transaction, for statements sent as text through
 * {@code Statement.execute(String)} and its family: {@code COMMIT}, {@code ROLLBACK}, {@code END}
 * and {@code ABORT}, optionally followed by {@code WORK}, {@code TRANSACTION} or {@code TRAN}
 * and anything else ({@code AND CHAIN}, a {@code ;}, more statements). Not an end:
 * {@code ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] x}, which stays inside the transaction, and
 * {@code COMMIT PREPARED}/{@code ROLLBACK PREPARED}, which finish a prepared (two-phase)
 * transaction and cannot run inside one. Case does not matter; whitespace and comments
 * ({@code /* *}{@code /}, {@code --}) may come first.
 *
 * <p>Cheap on purpose: it reads characters in place (no regular expression, no copy, no
 * allocation), and gives up at the first character for any statement that does not begin with
 * {@code a}, {@code c}, {@code e} or {@code r} — every {@code SELECT}, {@code INSERT},
 * {@code UPDATE}, {@code DELETE} and {@code WITH}. It looks only at how the text begins: an
 * ending in the middle of a multi-statement string is not seen.
 *
 * <p>This class is threadsafe (it has no state).
 */
public final class TransactionText {
  private TransactionText() {}

  /**
   * Returns whether {@code sql} begins with a statement that ends the transaction.
   *
   * @param sql the statement's text; {@code null} is not an end
   * @return {@code true} for {@code COMMIT}, {@code ROLLBACK} (not to a savepoint), {@code END},
   *     {@code ABORT} and their {@code WORK}/{@code TRANSACTION} forms
   */
  public static boolean ends(String sql) {
    if (sql == null) {
      return false;
    }
    int start = skipSpace(sql, 0);
    if (start == sql.length()) {
      return false;
    }
    switch (sql.charAt(start) | 0x20) { // ASCII lower case; other characters never match
      case 'c':
        return isWord(sql, start, "commit") && !isPrepared(sql, start + 6);
      case 'r':
        return isWord(sql, start, "rollback") && endsRollback(sql, start + 8);
      case 'e':
        return isWord(sql, start, "end");
      case 'a':
        return isWord(sql, start, "abort");
      default:
        return false;
    }
  }

  /** After {@code ROLLBACK}: an end unless it goes to a savepoint or finishes a prepared one. */
  private static boolean endsRollback(String sql, int from) {
    int next = skipNoiseWord(sql, skipSpace(sql, from));
    return !isWord(sql, next, "to") && !isWord(sql, next, "prepared");
  }

  private static boolean isPrepared(String sql, int from) {
    return isWord(sql, skipSpace(sql, from), "prepared");
  }

  /** Skips {@code WORK}, {@code TRANSACTION} or {@code TRAN} and the space after it. */
  private static int skipNoiseWord(String sql, int at) {
    if (isWord(sql, at, "work")) {
      return skipSpace(sql, at + 4);
    }
    if (isWord(sql, at, "transaction")) {
      return skipSpace(sql, at + 11);
    }
    if (isWord(sql, at, "tran")) {
      return skipSpace(sql, at + 4);
    }
    return at;
  }

  /**
   * Whether {@code word} (lower case ASCII) stands at {@code at}, in any case, and is not the
   * start of a longer identifier ({@code COMMITTED}, {@code commit_log}, {@code endpoint}).
   */
  private static boolean isWord(String sql, int at, String word) {
    int end = at + word.length();
    if (end > sql.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if ((sql.charAt(at + i) | 0x20) != word.charAt(i)) {
        return false;
      }
    }
    return end == sql.length() || !isIdentifierPart(sql.charAt(end));
  }

  private static boolean isIdentifierPart(char c) {
    return c == '_' || c == '$' || Character.isLetterOrDigit(c);
  }

  /** The index of the first character at or after {@code at} that is not space or a comment. */
  private static int skipSpace(String sql, int at) {
    int n = sql.length();
    int i = at;
    while (i < n) {
      char c = sql.charAt(i);
      if (c <= ' ') {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int newline = sql.indexOf('\n', i + 2);
        i = newline < 0 ? n : newline + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else {
        return i;
      }
    }
    return n;
  }
}
