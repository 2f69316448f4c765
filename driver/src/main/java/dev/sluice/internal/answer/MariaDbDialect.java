package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * MariaDB Connector/J (3.x), over MariaDB or MySQL, re-done: its getters read a value's text as
 * the server sent it ({@code getString}), as its column decoders do in the text protocol, and
 * agree in the binary protocol ({@code useServerPrepStmts}) since there {@code getString} is the
 * Java text of the value the binary getters convert.
 *
 * <p>Kept: whole numbers, {@code DECIMAL}, {@code DOUBLE} within a {@code long}'s range, strings
 * that no numeric or date getter parses, and dates and times ({@link MariaDbTime}) only when the
 * connection sets no time-zone option ({@link #WITHOUT_TIME} otherwise). Never kept: {@code FLOAT}
 * (its text and binary readings differ), {@code BIT}, binary strings and {@code BLOB}s,
 * {@code YEAR}, {@code UUID}, {@code ENUM}/{@code SET}, spatial types. MySQL Connector/J reads the
 * same server with other getters: {@link MySqlDialect}; {@link #of} never picks this one for it.
 *
 * <p>Text is read with {@link Lexer#MYSQL}. What the session and the catalog know (the
 * transaction, the functions, the views): {@link MariaDbCatalog}; the session's identity:
 * {@link SessionBase}.
 *
 * <p>The long form, getter by getter with the tests: docs/answers.md#mariadb-connectorj.
 */
final class MariaDbDialect extends MySqlServerDialect {
  static final MariaDbDialect INSTANCE = new MariaDbDialect("MariaDB", true);
  /** For a connection with a time-zone option: no temporal column is answered. */
  static final MariaDbDialect WITHOUT_TIME = new MariaDbDialect("MariaDB, zone set", false);

  private static final Set<String> WHOLE = Set.of("TINYINT", "SMALLINT", "MEDIUMINT",
      "INTEGER", "BIGINT", "TINYINT UNSIGNED", "SMALLINT UNSIGNED", "MEDIUMINT UNSIGNED",
      "INTEGER UNSIGNED", "BIGINT UNSIGNED", "BOOLEAN");
  private static final Set<String> DECIMAL = Set.of("DECIMAL", "DECIMAL UNSIGNED");
  private static final Set<String> DOUBLE = Set.of("DOUBLE", "DOUBLE UNSIGNED");
  private static final Set<String> TEXT = Set.of("VARCHAR", "CHAR", "TEXT", "TINYTEXT",
      "MEDIUMTEXT", "LONGTEXT", "JSON");
  /** URL options with which the driver reads dates and times in a zone of the session's. */
  private static final List<String> ZONE_OPTIONS = List.of("timezone", "connectiontimezone",
      "preserveinstants", "forceconnectiontimezonetosession", "servertimezone");

  private final boolean answersTime;

  private MariaDbDialect(String name, boolean answersTime) {
    super(name, MariaDbCatalog.MARIADB_STATUS);
    this.answersTime = answersTime;
  }

  /**
   * The dialect for a connection's metadata: MariaDB Connector/J, with or without dates and
   * times; {@code null} for any other driver.
   */
  static MariaDbDialect of(DatabaseMetaData meta) throws SQLException {
    String driver = String.valueOf(meta.getDriverName()).toLowerCase(Locale.ROOT);
    if (!driver.contains("mariadb")) {
      return null;
    }
    String url = String.valueOf(meta.getURL()).toLowerCase(Locale.ROOT);
    int query = url.indexOf('?');
    String options = query < 0 ? "" : url.substring(query);
    for (String option : ZONE_OPTIONS) {
      if (options.contains(option + "=")) {
        return WITHOUT_TIME;
      }
    }
    return INSTANCE;
  }

  /** Whether {@code connection} is MariaDB Connector/J's (else, or unknown: {@code false}). */
  static boolean isDriverOf(Connection connection) {
    try {
      return String.valueOf(connection.getMetaData().getDriverName())
          .toLowerCase(Locale.ROOT).contains("mariadb");
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  @Override
  boolean answers(int sqlType, String typeName) {
    return WHOLE.contains(typeName) || DECIMAL.contains(typeName) || DOUBLE.contains(typeName)
        || TEXT.contains(typeName) || answersTime && MariaDbTime.isTemporal(typeName);
  }

  @Override
  boolean keeps(Object object, String text, int sqlType, String typeName) {
    if (text == null) {
      return true;
    }
    if (MariaDbTime.isTemporal(typeName)) {
      return MariaDbTime.keeps(text, typeName);
    }
    if (object instanceof Double d) {
      return Math.abs(d) < 9.0E18; // beyond a long, the binary protocol's getLong saturates
    }
    if (!TEXT.contains(typeName)) {
      return object instanceof Number || object instanceof Boolean;
    }
    return plainString(text);
  }

  /** A string no numeric, date or {@code UUID} parse of the driver's can read. */
  static boolean plainString(String text) {
    char first = text.isEmpty() ? ' ' : text.charAt(0);
    if (!Character.isLetter(first) && first != '{' && first != '[') { // JSON's too
      return false;
    }
    String t = text.trim();
    if (t.equals("NaN") || t.equals("Infinity")) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (Character.digit(ch, 16) < 0 && ch != '-') {
        return true;
      }
    }
    return false; // hexadecimal digits and dashes: UUID.fromString may read it
  }

  @Override
  boolean bytesThrow(int sqlType, String typeName) {
    return !TEXT.contains(typeName);
  }

  /**
   * A date-time's text as the driver gives it is moved out of a summer-time gap; its value is
   * not: a value whose text is not its value is not kept.
   */
  @Override
  byte[] keptBytes(java.sql.ResultSet live, int column, String text, int sqlType,
      String typeName) throws SQLException {
    if (text != null && (typeName.equals("DATETIME") || typeName.equals("TIMESTAMP"))
        && !MariaDbTime.sameValue(text, live.getObject(column, java.time.LocalDateTime.class))) {
      throw new SQLDataException("the text of a " + typeName + " is not its value: not kept");
    }
    return super.keptBytes(live, column, text, sqlType, typeName);
  }

  private static boolean isText(Cell c) {
    return TEXT.contains(c.typeName());
  }

  private static boolean isNumber(Cell c) {
    String t = c.typeName();
    return WHOLE.contains(t) || DECIMAL.contains(t) || DOUBLE.contains(t);
  }

  /** The number's value truncated towards zero, within {@code [min, max]}; else it throws. */
  private static long whole(Cell c, long min, long max, String type) throws SQLException {
    if (!isNumber(c)) {
      throw cannot(c, type);
    }
    BigInteger v = new BigDecimal(c.text()).setScale(0, RoundingMode.DOWN).toBigInteger();
    if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
      throw new SQLDataException(type + " overflow");
    }
    return v.longValue();
  }

  @Override
  boolean getBoolean(Cell c) throws SQLException {
    if (c.object() == null) {
      return false;
    }
    if (DECIMAL.contains(c.typeName())) {
      return new BigDecimal(c.text()).intValue() != 0;
    }
    if (isNumber(c) || isText(c)) {
      return !"0".equals(c.text());
    }
    throw cannot(c, "Boolean");
  }

  @Override
  byte getByte(Cell c) throws SQLException {
    return c.object() == null ? 0 : (byte) whole(c, Byte.MIN_VALUE, Byte.MAX_VALUE, "Byte");
  }

  @Override
  short getShort(Cell c) throws SQLException {
    return c.object() == null ? 0
        : (short) whole(c, Short.MIN_VALUE, Short.MAX_VALUE, "Short");
  }

  @Override
  int getInt(Cell c) throws SQLException {
    return c.object() == null ? 0
        : (int) whole(c, Integer.MIN_VALUE, Integer.MAX_VALUE, "Integer");
  }

  @Override
  long getLong(Cell c) throws SQLException {
    return c.object() == null ? 0 : whole(c, Long.MIN_VALUE, Long.MAX_VALUE, "Long");
  }

  @Override
  float getFloat(Cell c) throws SQLException {
    if (c.object() == null) {
      return 0;
    }
    if (!isNumber(c)) {
      throw cannot(c, "Float");
    }
    return Float.parseFloat(c.text());
  }

  @Override
  double getDouble(Cell c) throws SQLException {
    if (c.object() == null) {
      return 0;
    }
    if (!isNumber(c)) {
      throw cannot(c, "Double");
    }
    return Double.parseDouble(c.text());
  }

  @Override
  BigDecimal getBigDecimal(Cell c) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    if (!isNumber(c)) {
      throw cannot(c, "BigDecimal");
    }
    return new BigDecimal(c.text());
  }

  private static boolean isTemporal(Cell c) {
    return MariaDbTime.isTemporal(c.typeName());
  }

  @Override
  Date getDate(Cell c, Calendar cal) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    return isTemporal(c) ? MariaDbTime.getDate(c, cal) : notTemporal(c, "Date");
  }

  @Override
  Time getTime(Cell c, Calendar cal) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    return isTemporal(c) ? MariaDbTime.getTime(c, cal) : notTemporal(c, "Time");
  }

  @Override
  Timestamp getTimestamp(Cell c, Calendar cal) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    return isTemporal(c) ? MariaDbTime.getTimestamp(c, cal) : notTemporal(c, "Timestamp");
  }

  private static <T> T notTemporal(Cell c, String type) throws SQLException {
    throw cannot(c, type);
  }

  @Override
  <T> T getObject(Cell c, Class<T> type) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    if (type == null || type == Object.class) {
      return (T) Values.copy(c.object());
    }
    if (type == String.class) {
      return type.cast(c.text());
    }
    if (isTemporal(c)) {
      return type.cast(MariaDbTime.java(c, type));
    }
    Object v;
    if (type == Integer.class) {
      v = getInt(c);
    } else if (type == Long.class) {
      v = getLong(c);
    } else if (type == Short.class) {
      v = getShort(c);
    } else if (type == Byte.class) {
      v = getByte(c);
    } else if (type == Boolean.class) {
      v = getBoolean(c);
    } else if (type == Double.class) {
      v = getDouble(c);
    } else if (type == Float.class) {
      v = getFloat(c);
    } else if (type == BigDecimal.class) {
      v = getBigDecimal(c);
    } else if (type == BigInteger.class) {
      if (!isNumber(c)) {
        throw cannot(c, "BigInteger");
      }
      v = new BigDecimal(c.text()).toBigInteger();
    } else if (type == byte[].class && isText(c)) {
      v = c.bytes() == null ? null : c.bytes().clone();
    } else {
      throw new SQLException("Type " + type + " not supported type for " + c.typeName()
          + " type");
    }
    return type.cast(v);
  }

  private static SQLException cannot(Cell c, String type) {
    return new SQLDataException("value of type " + c.typeName() + " cannot be decoded as "
        + type);
  }
}
