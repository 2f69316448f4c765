package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * PostgreSQL's JDBC driver (pgjdbc 42.7), re-done: its getters read a value's text
 * ({@code getString}) the way {@code PgResultSet} does — trimmed, parsed as a whole number,
 * else as a decimal truncated towards zero within the type's range; {@code getBoolean} of a
 * {@code bool} from the value, of anything else from the text's {@code 1/0}, {@code t/f},
 * {@code true/false}, {@code yes/no}, {@code y/n}, {@code on/off}; {@code getObject(Class)} only
 * for the classes pgjdbc allows for the column's type. Re-done from the kept text, they agree in
 * pgjdbc's text and binary transfer alike, since in binary transfer {@code getString} is the
 * value's {@code toString()} that the binary getters convert.
 *
 * <p>Answered types: {@code int2}, {@code int4}, {@code int8}, {@code numeric}, {@code float4},
 * {@code float8}, {@code bool}, {@code text}, {@code varchar}, {@code bpchar} ({@code char(n)}),
 * {@code bytea}, {@code uuid}, {@code json}, {@code jsonb}, and {@code date}, {@code time},
 * {@code timestamp}, {@code timestamptz} ({@link PostgresTime}). A text value that looks like a
 * number or a date
 * (begins with a digit, a sign or a space) is not kept, since pgjdbc would parse it as a date
 * for {@code getDate}/{@code getTime}/{@code getTimestamp}.
 *
 * <p>What the session and the catalog know (the transaction, the functions, the views):
 * {@link PostgresCatalog}.
 */
final class PostgresDialect extends Dialect {
  static final PostgresDialect INSTANCE = new PostgresDialect();

  private static final Set<String> ANSWERED = Set.of("int2", "int4", "int8", "numeric",
      "float4", "float8", "bool", "text", "varchar", "bpchar", "bytea", "uuid", "json",
      "jsonb", "date", "time", "timestamp", "timestamptz");
  private static final Set<String> TEXTUAL = Set.of("text", "varchar", "bpchar", "json",
      "jsonb");

  private PostgresDialect() {}

  @Override
  String name() {
    return "PostgreSQL";
  }

  @Override
  int syntax() {
    return dev.sluice.internal.sql.Lexer.POSTGRES;
  }

  @Override
  boolean foldsToUpper() {
    return false;
  }

  @Override
  boolean inTransaction(Connection connection) {
    return PostgresCatalog.inTransaction(connection);
  }

  @Override
  void judgeFunctions(Connection connection, Set<String> names, Map<String, Boolean> verdicts)
      throws SQLException {
    PostgresCatalog.judgeFunctions(connection, names, verdicts);
  }

  @Override
  Map<String, List<String>> views(Connection connection, Set<String> names)
      throws SQLException {
    return PostgresCatalog.views(connection, names);
  }

  @Override
  boolean answers(int sqlType, String typeName) {
    return ANSWERED.contains(typeName);
  }

  @Override
  boolean keeps(Object object, String text, int sqlType, String typeName) {
    if (PostgresTime.isTemporal(typeName)) {
      return PostgresTime.keeps(text, typeName);
    }
    if (text == null || !TEXTUAL.contains(typeName) || text.isEmpty()) {
      return true;
    }
    char first = text.charAt(0);
    return !(Character.isDigit(first) || first == '-' || first == '+' || first <= ' ');
  }

  @Override
  boolean getBoolean(Cell c) throws SQLException {
    if (c.object() == null) {
      return false;
    }
    if (c.object() instanceof Boolean b) {
      return b;
    }
    String v = c.text().trim();
    if ("1".equals(v) || "true".equalsIgnoreCase(v) || "t".equalsIgnoreCase(v)
        || "yes".equalsIgnoreCase(v) || "y".equalsIgnoreCase(v) || "on".equalsIgnoreCase(v)) {
      return true;
    }
    if ("0".equals(v) || "false".equalsIgnoreCase(v) || "f".equalsIgnoreCase(v)
        || "no".equalsIgnoreCase(v) || "n".equalsIgnoreCase(v) || "off".equalsIgnoreCase(v)) {
      return false;
    }
    throw bad("boolean", c.text());
  }

  @Override
  byte getByte(Cell c) throws SQLException {
    if (c.object() == null || c.text().trim().isEmpty()) {
      return 0;
    }
    return (byte) whole(c.text(), Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
  }

  @Override
  short getShort(Cell c) throws SQLException {
    return c.object() == null ? 0
        : (short) whole(c.text(), Short.MIN_VALUE, Short.MAX_VALUE, "short");
  }

  @Override
  int getInt(Cell c) throws SQLException {
    return c.object() == null ? 0
        : (int) whole(c.text(), Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
  }

  @Override
  long getLong(Cell c) throws SQLException {
    return c.object() == null ? 0 : whole(c.text(), Long.MIN_VALUE, Long.MAX_VALUE, "long");
  }

  /** pgjdbc's {@code toInt}/{@code toLong}: a whole number, else a decimal truncated. */
  private static long whole(String text, long min, long max, String type) throws SQLException {
    String s = text.trim();
    try {
      long v = Long.parseLong(s);
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException notWhole) {
      // as pgjdbc: try it as a decimal
    }
    try {
      BigInteger i = new BigDecimal(s).toBigInteger();
      if (i.compareTo(BigInteger.valueOf(min)) >= 0 && i.compareTo(BigInteger.valueOf(max)) <= 0) {
        return i.longValue();
      }
    } catch (NumberFormatException notNumber) {
      // falls through to the error
    }
    throw bad(type, s);
  }

  @Override
  float getFloat(Cell c) throws SQLException {
    if (c.object() == null) {
      return 0;
    }
    try {
      return Float.parseFloat(c.text().trim());
    } catch (NumberFormatException e) {
      throw bad("float", c.text());
    }
  }

  @Override
  double getDouble(Cell c) throws SQLException {
    if (c.object() == null) {
      return 0;
    }
    try {
      return Double.parseDouble(c.text().trim());
    } catch (NumberFormatException e) {
      throw bad("double", c.text());
    }
  }

  @Override
  BigDecimal getBigDecimal(Cell c) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    try {
      return new BigDecimal(c.text().trim());
    } catch (NumberFormatException e) {
      throw bad("BigDecimal", c.text());
    }
  }

  @Override
  Date getDate(Cell c, Calendar cal) throws SQLException {
    return isTemporal(c) ? PostgresTime.getDate(c, cal) : notTemporal(c, "date");
  }

  @Override
  Time getTime(Cell c, Calendar cal) throws SQLException {
    return isTemporal(c) ? PostgresTime.getTime(c, cal) : notTemporal(c, "time");
  }

  @Override
  Timestamp getTimestamp(Cell c, Calendar cal) throws SQLException {
    return isTemporal(c) ? PostgresTime.getTimestamp(c, cal) : notTemporal(c, "timestamp");
  }

  /** A temporal value that is not {@code NULL}. */
  private static boolean isTemporal(Cell c) {
    return c.object() != null && PostgresTime.isTemporal(c.typeName());
  }

  /** pgjdbc fails to parse a kept value of any other type as a date or time. */
  private static <T> T notTemporal(Cell c, String type) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    throw bad(type, c.text());
  }

  @Override
  <T> T getObject(Cell c, Class<T> type) throws SQLException {
    if (type == null) {
      throw new SQLException("type is null");
    }
    int t = c.sqlType();
    if (type == BigDecimal.class) {
      return type.cast(only(c, type, t == Types.NUMERIC || t == Types.DECIMAL)
          ? getBigDecimal(c) : null);
    }
    if (type == String.class) {
      return type.cast(only(c, type, t == Types.CHAR || t == Types.VARCHAR) ? c.text() : null);
    }
    if (type == Boolean.class) {
      return boxed(c, type, t == Types.BOOLEAN || t == Types.BIT, () -> getBoolean(c));
    }
    if (type == Short.class) {
      return boxed(c, type, t == Types.SMALLINT, () -> getShort(c));
    }
    if (type == Integer.class) {
      return boxed(c, type, t == Types.INTEGER || t == Types.SMALLINT, () -> getInt(c));
    }
    if (type == Long.class) {
      return boxed(c, type, t == Types.BIGINT, () -> getLong(c));
    }
    if (type == BigInteger.class) {
      return boxed(c, type, t == Types.BIGINT, () -> BigInteger.valueOf(getLong(c)));
    }
    if (type == Float.class) {
      return boxed(c, type, t == Types.REAL, () -> getFloat(c));
    }
    if (type == Double.class) {
      return boxed(c, type, t == Types.FLOAT || t == Types.DOUBLE, () -> getDouble(c));
    }
    if (type == byte[].class) {
      return type.cast(only(c, type, t == Types.BINARY || t == Types.VARBINARY
          || t == Types.LONGVARBINARY) ? copyBytes(c) : null);
    }
    if (type == UUID.class) {
      return type.cast(Values.copy(c.object()));
    }
    if (type == java.time.LocalDate.class || type == java.time.LocalTime.class
        || type == java.time.LocalDateTime.class || type == java.time.OffsetDateTime.class
        || type == java.time.OffsetTime.class) {
      if (c.object() == null) {
        return null;
      }
      return PostgresTime.isTemporal(c.typeName()) ? type.cast(PostgresTime.java(c, type))
          : notTemporal(c, type.getSimpleName());
    }
    if (type.isInstance(c.object()) && type.getName().startsWith("org.postgresql.")) {
      return type.cast(Values.copy(c.object())); // a PGobject: json, jsonb
    }
    throw notSupported(c, type);
  }

  private static byte[] copyBytes(Cell c) {
    return c.bytes() == null ? null : c.bytes().clone();
  }

  private interface Getter {
    Object get() throws SQLException;
  }

  private static <T> T boxed(Cell c, Class<T> type, boolean allowed, Getter getter)
      throws SQLException {
    only(c, type, allowed);
    Object v = getter.get();
    return c.object() == null ? null : type.cast(v);
  }

  private static boolean only(Cell c, Class<?> type, boolean allowed) throws SQLException {
    if (!allowed) {
      throw notSupported(c, type);
    }
    return true;
  }

  private static SQLException notSupported(Cell c, Class<?> type) {
    return new SQLException("conversion to " + type + " from " + c.typeName()
        + " not supported", "22023");
  }

  private static SQLException bad(String type, String value) {
    return new SQLException("Bad value for type " + type + " : " + value, "22003");
  }
}
