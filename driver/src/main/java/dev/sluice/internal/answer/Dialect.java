package dev.sluice.internal.answer;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a driver's getters turn a value into each Java type, re-done over the kept
 * {@code getObject}, {@code getString} and {@code getBytes} of the value. A dialect names the
 * column types it answers faithfully — every getter, by index and by label, returns what the
 * driver returns, or throws where it throws, as {@code AnswerFidelityTest} checks against the
 * real database. A result with a column of any other type is never kept. {@code Answers} picks
 * the dialect by the database's product name, else by the driver's name.
 *
 * <p>A dialect also knows what only the database knows ({@code Catalog} asks, off the flag-closed
 * path): whether a session is inside a transaction however it began, and what the functions a
 * read calls and the views it reads do.
 */
abstract class Dialect {

  /** Whether results with these columns may be kept: every column's type is answered. */
  boolean answersAll(Columns columns) throws SQLException {
    for (int c = 1; c <= columns.count(); c++) {
      if (!answers(columns.getColumnType(c), columns.getColumnTypeName(c))) {
        return false;
      }
    }
    return true;
  }

  /** The dialect's name, which names it in a shared result ({@code KeptCodec}). */
  abstract String name();

  /**
   * How the database reads text: {@code Lexer.POSTGRES}, {@code Lexer.MYSQL} or
   * {@code Lexer.STRICT}.
   */
  abstract int syntax();

  /** Whether the database folds unquoted names to upper case (else to lower case). */
  abstract boolean foldsToUpper();

  /**
   * Whether the session is inside a transaction, as the driver or the database knows it
   * (however it began: {@code setAutoCommit(false)}, {@code BEGIN} as text, a procedure);
   * {@code true} when that cannot be known.
   */
  abstract boolean inTransaction(Connection connection);

  /**
   * Whether {@link #inTransaction} says yes only because the driver has forgotten what the server
   * said (MySQL Connector/J after a ping or a server-side prepare), so that
   * {@link #askTransaction} would learn it again. Reads the driver's fields only.
   */
  boolean forgotTransaction(Connection connection) {
    return false;
  }

  /**
   * Runs one statement that reads and changes nothing on {@code connection}, so that the driver
   * hears the server's transaction state again; only where {@link #forgotTransaction} said so.
   *
   * @throws SQLException as the driver throws it: the read is then not answered
   */
  void askTransaction(Connection connection) throws SQLException {
    throw new SQLFeatureNotSupportedException(name() + " knows its transaction state");
  }

  /**
   * Judges each function name (folded as {@link #foldsToUpper()} says): {@code true} when every
   * function of that name a read may call is one an answer may stand for.
   *
   * @param verdicts receives a verdict for every name
   * @throws SQLException when the catalog cannot be read: nothing is eligible then
   */
  abstract void judgeFunctions(Connection connection, Set<String> names,
      Map<String, Boolean> verdicts) throws SQLException;

  /**
   * The definitions of the views among {@code names}, each as SELECT text the database would
   * run for it (a name may be a view in more than one schema); a name that is no view is absent.
   *
   * @throws SQLException when the catalog cannot be read: nothing is eligible then
   */
  abstract Map<String, List<String>> views(Connection connection, Set<String> names)
      throws SQLException;

  /**
   * What each stored function among {@code names} runs, as SELECT text to judge as a read's text
   * is, where the database does not itself hold a function to what it declares (a name may have
   * more than one); a name without one is absent. None by default: the database enforces the
   * declarations {@link #judgeFunctions} reads.
   *
   * @throws SQLException when the catalog cannot be read: nothing is eligible then
   */
  Map<String, List<String>> functionBodies(Connection connection, Set<String> names)
      throws SQLException {
    return Map.of();
  }

  /**
   * The dialect of the results of {@code statement}: this one, or the variant for the way the
   * driver reads that statement's rows where its getters depend on it (MySQL Connector/J: the
   * text protocol or a server-prepared statement's binary one); {@code null} when that cannot
   * be told: its result is not kept.
   */
  Dialect forStatement(java.sql.Statement statement) {
    return this;
  }

  /**
   * Whether a result kept under this dialect may answer a read of {@code caller}: the driver
   * would read the caller's rows the way it read the kept ones ({@link #forStatement}).
   */
  boolean serves(java.sql.Statement caller) {
    return true;
  }

  /**
   * Whether the driver cuts values to a statement's {@code maxFieldSize} of this size (an answer
   * does not): then its reads are not answered. Any size but {@code 0} by default.
   */
  boolean truncatesTo(int maxFieldSize) {
    return maxFieldSize != 0;
  }

  /** Whether results with a column of this type may be kept. */
  abstract boolean answers(int sqlType, String typeName);

  /** Whether this value, of a kept column, may be kept (a value a getter reads ambiguously). */
  abstract boolean keeps(Object object, String text, int sqlType, String typeName);

  /**
   * Whether the driver's {@code getBytes} throws for every value of this type that is not
   * {@code NULL}: then it is not read when kept, and {@link #getBytes} throws.
   */
  boolean bytesThrow(int sqlType, String typeName) {
    return false;
  }

  /**
   * What is kept of a value as its {@code getBytes}, read from the live result on its row:
   * the driver's {@code getBytes}, or {@code null} where it throws ({@link #bytesThrow}).
   *
   * @throws SQLException when the value cannot be kept faithfully: its result is not kept
   */
  byte[] keptBytes(java.sql.ResultSet live, int column, String text, int sqlType,
      String typeName) throws SQLException {
    return bytesThrow(sqlType, typeName) ? null : live.getBytes(column);
  }

  /** The kept {@code getBytes}, a copy; or the driver's failure ({@link #bytesThrow}). */
  byte[] getBytes(Cell c) throws SQLException {
    if (c.object() != null && bytesThrow(c.sqlType(), c.typeName())) {
      throw new java.sql.SQLDataException("Data type " + c.typeName()
          + " cannot be decoded as byte[]");
    }
    return c.bytes() == null ? null : c.bytes().clone();
  }

  abstract boolean getBoolean(Cell c) throws SQLException;

  abstract byte getByte(Cell c) throws SQLException;

  abstract short getShort(Cell c) throws SQLException;

  abstract int getInt(Cell c) throws SQLException;

  abstract long getLong(Cell c) throws SQLException;

  abstract float getFloat(Cell c) throws SQLException;

  abstract double getDouble(Cell c) throws SQLException;

  abstract java.math.BigDecimal getBigDecimal(Cell c) throws SQLException;

  abstract java.sql.Date getDate(Cell c, java.util.Calendar cal) throws SQLException;

  abstract java.sql.Time getTime(Cell c, java.util.Calendar cal) throws SQLException;

  abstract java.sql.Timestamp getTimestamp(Cell c, java.util.Calendar cal) throws SQLException;

  abstract <T> T getObject(Cell c, Class<T> type) throws SQLException;

  /** One kept value with its column's type, as the getters see it. */
  record Cell(Object object, String text, byte[] bytes, int sqlType, String typeName) {}
}
