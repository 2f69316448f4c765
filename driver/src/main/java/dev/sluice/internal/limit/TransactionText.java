package dev.sluice.internal.limit;

import dev.sluice.internal.sql.Lexer;

/**
 * Recognises SQL text that ends a transaction, for statements sent as text through
 * {@code Statement.execute(String)} and its family: {@code COMMIT}, {@code ROLLBACK}, {@code END}
 * and {@code ABORT}, optionally followed by {@code WORK}, {@code TRANSACTION} or {@code TRAN}
 * and anything else ({@code AND CHAIN}, a {@code ;}, more statements). Not an end:
 * {@code ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] x}, which stays inside the transaction, and
 * {@code COMMIT PREPARED}/{@code ROLLBACK PREPARED}, which finish a prepared (two-phase)
 * transaction and cannot run inside one. Case does not matter; whitespace and comments may come
 * first, read by the library's one lexer ({@link Lexer}: {@code --} ends at {@code \r} or
 * {@code \n}, block comments nest, as PostgreSQL reads them). {@link #begins} tells the text that
 * opens one.
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

  /**
   * Returns whether {@code sql} begins with a statement that opens a transaction:
   * {@code BEGIN} (optionally {@code WORK}, {@code TRANSACTION} or {@code TRAN}, and its modes) or
   * {@code START TRANSACTION} (a function's {@code BEGIN ATOMIC} body never starts a statement).
   *
   * @param sql the statement's text; {@code null} opens nothing
   * @return {@code true} for {@code BEGIN} and {@code START TRANSACTION}
   */
  public static boolean begins(String sql) {
    if (sql == null) {
      return false;
    }
    int start = skipSpace(sql, 0);
    if (start == sql.length()) {
      return false;
    }
    switch (sql.charAt(start) | 0x20) {
      case 'b':
        return isWord(sql, start, "begin");
      case 's':
        return isWord(sql, start, "start")
            && isWord(sql, skipSpace(sql, start + 5), "transaction");
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

  private static boolean isWord(String sql, int at, String word) {
    return Lexer.isWord(sql, at, word);
  }

  /** The index of the first character at or after {@code at} that is not space or a comment. */
  private static int skipSpace(String sql, int at) {
    return Lexer.skipSpace(sql, at, Lexer.POSTGRES);
  }
}
