package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * H2's JDBC driver (2.x), re-done for the few types whose every getter it is simple to re-do:
 * the whole numbers ({@code TINYINT}, {@code SMALLINT}, {@code INTEGER}, {@code BIGINT}) and the
 * character strings ({@code CHARACTER VARYING}, {@code CHARACTER}). A result with a column of any
 * other H2 type ({@code BOOLEAN}, {@code NUMERIC}, {@code DOUBLE PRECISION}, dates and times,
 * {@code UUID}, {@code JSON}, binary strings…) is never kept.
 *
 * <p>H2 converts a string for a getter by parsing it: a number ({@code getInt} of {@code '42'}),
 * a date, a {@code UUID}, and a boolean from {@code true/false}, {@code t/f}, {@code yes/no},
 * {@code y/n} (any case) or any non-zero number. A string value is therefore kept only if no
 * such parse can succeed: it begins with a letter, its trimmed text is not {@code NaN} or
 * {@code Infinity} (which {@code getDouble} reads), and it holds a character that is not a
 * hexadecimal digit, a {@code -} or a blank (so it is no {@code UUID}). Every other string makes
 * its result unkept; a boolean word is kept and read as H2 reads it.
 *
 * <p>A whole number reads as H2 reads it: {@code getBoolean} is {@code value != 0}, a narrower
 * getter throws outside its range, {@code getDate}/{@code getTime}/{@code getTimestamp} throw;
 * {@code getObject(Class)} answers {@code String}, {@code Character}, the boxed numbers,
 * {@code BigInteger}, {@code BigDecimal}, {@code Boolean} and {@code byte[]} as H2 does, and
 * throws for any other class (H2 throws for each of them for these types, {@code Object} too).
 * {@code AnswerFidelityTest} checks every getter against the live H2.
 *
 * <p>What H2 knows: whether the session is in a transaction is its own auto-commit
 * ({@code getAutoCommit()} asks the session, which {@code BEGIN} as text turns off). Its
 * {@code INFORMATION_SCHEMA.ROUTINES} lists only the application's routines, with
 * {@code IS_DETERMINISTIC}: a routine is eligible when deterministic; a built-in only when on
 * {@link #BUILT_INS} (deterministic functions and the keywords written before a parenthesis);
 * a view is read through its {@code VIEW_DEFINITION}, as a read's text is. Text is read strictly
 * ({@code Lexer.STRICT}: H2's {@code //} comments and the like make it ineligible).
 */
final class H2Dialect extends Dialect {
  static final H2Dialect INSTANCE = new H2Dialect();

  private static final Set<String> WHOLE = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT");
  private static final Set<String> TEXT = Set.of("CHARACTER VARYING", "CHARACTER");

  /** H2's deterministic built-ins, and keywords that may stand before a parenthesis. */
  static final Set<String> BUILT_INS = Set.of("SELECT", "FROM", "WHERE", "AND", "OR", "NOT",
      "IN", "EXISTS", "VALUES", "AS", "ON", "USING", "JOIN", "ANY", "ALL", "SOME", "ARRAY", "ROW",
      "CAST", "COALESCE", "NULLIF", "GREATEST", "LEAST", "OVER", "FILTER", "CASE", "WHEN", "THEN",
      "ELSE", "UNION", "EXCEPT", "INTERSECT", "WITH", "BY", "HAVING", "LIMIT", "OFFSET", "TABLE",
      "DISTINCT", "COUNT", "SUM", "MIN", "MAX", "AVG", "LOWER", "UPPER", "LENGTH", "CHAR_LENGTH",
      "SUBSTRING", "TRIM", "CONCAT", "REPLACE", "POSITION", "ABS", "ROUND", "FLOOR", "CEIL",
      "MOD", "LEFT", "RIGHT", "VARCHAR", "CHAR", "CHARACTER", "NUMERIC", "DECIMAL");

  private H2Dialect() {}

  @Override
  int syntax() {
    return dev.sluice.internal.sql.Lexer.STRICT;
  }

  @Override
  boolean foldsToUpper() {
    return true;
  }

  @Override
  boolean inTransaction(Connection connection) {
    try {
      return !connection.getAutoCommit();
    } catch (SQLException | RuntimeException e) {
      return true;
    }
  }

  @Override
  void judgeFunctions(Connection connection, Set<String> names, Map<String, Boolean> verdicts)
      throws SQLException {
    Map<String, Boolean> routines = new HashMap<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT ROUTINE_NAME, IS_DETERMINISTIC FROM INFORMATION_SCHEMA.ROUTINES")) {
      while (rs.next()) {
        routines.merge(rs.getString(1), "YES".equals(rs.getString(2)), Boolean::logicalAnd);
      }
    }
    for (String name : names) {
      Boolean routine = routines.get(name);
      verdicts.put(name, routine != null ? routine : BUILT_INS.contains(name));
    }
  }

  @Override
  Map<String, List<String>> views(Connection connection, Set<String> names)
      throws SQLException {
    Map<String, List<String>> views = new HashMap<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT TABLE_NAME, VIEW_DEFINITION FROM INFORMATION_SCHEMA.VIEWS")) {
      while (rs.next()) {
        if (names.contains(rs.getString(1))) {
          views.computeIfAbsent(rs.getString(1), v -> new ArrayList<>()).add(rs.getString(2));
        }
      }
    }
    return views;
  }

  @Override
  String name() {
    return "H2";
  }

  @Override
  boolean answers(int sqlType, String typeName) {
    return WHOLE.contains(typeName) || TEXT.contains(typeName);
  }

  @Override
  boolean keeps(Object object, String text, int sqlType, String typeName) {
    if (text == null || WHOLE.contains(typeName)) {
      return text == null || object instanceof Number;
    }
    if (text.isEmpty() || !Character.isLetter(text.charAt(0))) {
      return false;
    }
    String t = text.trim();
    if (t.equalsIgnoreCase("nan") || t.equalsIgnoreCase("infinity")) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (Character.digit(ch, 16) < 0 && ch != '-' && ch > ' ') {
        return true;
      }
    }
    return false; // hexadecimal digits and dashes only: H2 may read it as a UUID
  }

  private static boolean isWhole(Cell c) {
    return WHOLE.contains(c.typeName());
  }

  /** The value of a whole-number column; for a string, H2's failed parse. */
  private static long whole(Cell c, long min, long max) throws SQLException {
    if (!isWhole(c)) {
      throw conversion(c.text());
    }
    long v = ((Number) c.object()).longValue();
    if (v < min || v > max) {
      throw new SQLException("Numeric value out of range: \"" + v + "\"", "22003");
    }
    return v;
  }

  @Override
  boolean getBoolean(Cell c) throws SQLException {
    if (c.object() == null) {
      return false;
    }
    if (isWhole(c)) {
      return ((Number) c.object()).longValue() != 0;
    }
    String s = c.text().trim();
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("t") || s.equalsIgnoreCase("yes")
        || s.equalsIgnoreCase("y")) {
      return true;
    }
    if (s.equalsIgnoreCase("false") || s.equalsIgnoreCase("f") || s.equalsIgnoreCase("no")
        || s.equalsIgnoreCase("n")) {
      return false;
    }
    throw new SQLException("Data conversion error converting \"" + c.typeName()
        + " to BOOLEAN\"", "22018");
  }

  @Override
  byte getByte(Cell c) throws SQLException {
    return c.object() == null ? 0 : (byte) whole(c, Byte.MIN_VALUE, Byte.MAX_VALUE);
  }

  @Override
  short getShort(Cell c) throws SQLException {
    return c.object() == null ? 0 : (short) whole(c, Short.MIN_VALUE, Short.MAX_VALUE);
  }

  @Override
  int getInt(Cell c) throws SQLException {
    return c.object() == null ? 0 : (int) whole(c, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  @Override
  long getLong(Cell c) throws SQLException {
    return c.object() == null ? 0 : whole(c, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Override
  float getFloat(Cell c) throws SQLException {
    return c.object() == null ? 0 : (float) whole(c, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Override
  double getDouble(Cell c) throws SQLException {
    return c.object() == null ? 0 : (double) whole(c, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Override
  BigDecimal getBigDecimal(Cell c) throws SQLException {
    return c.object() == null ? null
        : BigDecimal.valueOf(whole(c, Long.MIN_VALUE, Long.MAX_VALUE));
  }

  @Override
  Date getDate(Cell c, Calendar cal) throws SQLException {
    return notTemporal(c, "DATE");
  }

  @Override
  Time getTime(Cell c, Calendar cal) throws SQLException {
    return notTemporal(c, "TIME");
  }

  @Override
  Timestamp getTimestamp(Cell c, Calendar cal) throws SQLException {
    return notTemporal(c, "TIMESTAMP");
  }

  /** No kept value is a date or a time, nor parses as one. */
  private static <T> T notTemporal(Cell c, String type) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    throw new SQLException("Data conversion error converting \"" + c.typeName() + " to " + type
        + "\"", "22018");
  }

  @Override
  <T> T getObject(Cell c, Class<T> type) throws SQLException {
    if (type == null) {
      throw new SQLException("Invalid value \"null\" for parameter \"type\"", "90008");
    }
    if (c.object() == null) {
      return null;
    }
    Object v;
    if (type == String.class) {
      v = c.text();
    } else if (type == Character.class) {
      v = c.text().isEmpty() ? ' ' : c.text().charAt(0);
    } else if (type == Boolean.class) {
      v = getBoolean(c);
    } else if (type == Byte.class) {
      v = getByte(c);
    } else if (type == Short.class) {
      v = getShort(c);
    } else if (type == Integer.class) {
      v = getInt(c);
    } else if (type == Long.class) {
      v = getLong(c);
    } else if (type == Float.class) {
      v = getFloat(c);
    } else if (type == Double.class) {
      v = getDouble(c);
    } else if (type == BigDecimal.class) {
      v = getBigDecimal(c);
    } else if (type == BigInteger.class) {
      v = BigInteger.valueOf(whole(c, Long.MIN_VALUE, Long.MAX_VALUE));
    } else if (type == byte[].class) {
      v = c.bytes() == null ? null : c.bytes().clone();
    } else {
      throw new SQLException("Data conversion error converting \"" + c.typeName() + " to "
          + type.getName() + "\"", "22018");
    }
    return type.cast(v);
  }

  private static SQLException conversion(String value) {
    return new SQLException("Data conversion error converting \"" + value + "\"", "22018");
  }
}
