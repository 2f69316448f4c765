package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MySQL Connector/J ({@code com.mysql.cj}, 8.0 and later; checked against 26.10 by
 * {@code MySqlFidelityTest}), over MariaDB or MySQL, re-done: each getter decodes the value as the
 * driver's value factories do, from the value's text ({@code getString}), which the driver itself
 * prints from the number or date it decoded, in the text protocol and the binary one alike.
 *
 * <p>The binary protocol (a server-prepared statement) and the text one differ in {@code getBytes}
 * of a number or a date, so a result is kept under the dialect of its own statement's protocol
 * ({@link #forStatement}) and answers only a read the driver reads the same way ({@link #serves});
 * a statement of neither keeps and is answered nothing. Dates and times are {@link MySqlTime}'s,
 * only when the connection leaves every time option at its default ({@link #TIME_OPTIONS}); nothing
 * is kept when it sets an option that changes a getter ({@link #OPTIONS}), read from the
 * connection itself however it was given. Whole numbers, {@code DECIMAL}, {@code DOUBLE},
 * {@code FLOAT} and {@code _ci} strings that no getter parses are kept; {@code BIT},
 * {@code BOOLEAN}, {@code YEAR}, binary strings, LOBs, {@code ENUM}/{@code SET}, {@code JSON} and
 * spatial types never.
 *
 * <p>The server's side is MariaDB's or MySQL's, whichever driver asks: text is read with
 * {@link Lexer#MYSQL}, the transaction, functions and views by {@link MariaDbCatalog}, the session
 * by {@link MariaDbSession}. Threadsafe (the one mutable field is volatile).
 *
 * <p>The long form, getter by getter with the tests: docs/answers.md#mysql-connectorj.
 */
final class MySqlDialect extends MySqlServerDialect {
  static final MySqlDialect TEXT = new MySqlDialect("MySQL Connector/J", true);
  static final MySqlDialect BINARY = new MySqlDialect("MySQL Connector/J, server-prepared", true);
  /** For a connection with a time option: no temporal column is answered. */
  static final MySqlDialect TEXT_WITHOUT_TIME =
      new MySqlDialect("MySQL Connector/J, time options set", false);
  static final MySqlDialect BINARY_WITHOUT_TIME =
      new MySqlDialect("MySQL Connector/J, server-prepared, time options set", false);

  /**
   * The driver's options that change what a getter returns, each with the only value at which
   * anything is kept (as the driver prints it). {@code jdbcCompliantTruncation} is read as the
   * connection began: the driver turns it off for writes on a strict server, and its getters
   * keep the first value.
   */
  static final Map<String, String> OPTIONS = Map.ofEntries(
      Map.entry("jdbcCompliantTruncation", "true"), Map.entry("emptyStringsConvertToZero", "true"),
      Map.entry("padCharsWithSpace", "false"), Map.entry("clobCharacterEncoding", "null"),
      Map.entry("blobsAreStrings", "false"), Map.entry("functionsNeverReturnBlobs", "false"),
      Map.entry("useColumnNamesInFindColumn", "false"), Map.entry("emulateLocators", "false"),
      Map.entry("useCursorFetch", "false"),
      Map.entry("holdResultsOpenOverStatementClose", "false"),
      Map.entry("scrollTolerantForwardOnly", "false"),
      Map.entry("treatUtilDateAsTimestamp", "true"), Map.entry("queryInterceptors", "null"),
      Map.entry("exceptionInterceptors", "null"));

  /** The options that read dates and times otherwise, each with its default. */
  static final Map<String, String> TIME_OPTIONS = Map.ofEntries(
      Map.entry("connectionTimeZone", "null"), Map.entry("forceConnectionTimeZoneToSession",
          "false"), Map.entry("preserveInstants", "true"),
      Map.entry("zeroDateTimeBehavior", "EXCEPTION"),
      Map.entry("treatMysqlDatetimeAsTimestamp", "false"),
      Map.entry("noDatetimeStringSync", "false"), Map.entry("cacheDefaultTimeZone", "true"));

  private static final String STATEMENT = "com.mysql.cj.jdbc.StatementImpl";
  private static final String SERVER_PREPARED = "com.mysql.cj.jdbc.ServerPreparedStatement";

  private static final Set<String> WHOLE = Set.of("TINYINT", "TINYINT UNSIGNED", "SMALLINT",
      "SMALLINT UNSIGNED", "MEDIUMINT", "MEDIUMINT UNSIGNED", "INT", "INT UNSIGNED", "BIGINT",
      "BIGINT UNSIGNED");
  private static final Set<String> DECIMAL = Set.of("DECIMAL", "DECIMAL UNSIGNED");
  private static final Set<String> REAL = Set.of("DOUBLE", "DOUBLE UNSIGNED", "FLOAT",
      "FLOAT UNSIGNED");
  private static final Set<String> TEXTS = Set.of("VARCHAR", "CHAR", "TINYTEXT");
  private static final BigInteger TWO_TO_53 = BigInteger.ONE.shiftLeft(53);
  private static final BigDecimal FLOAT_BOUND = new BigDecimal("1e38");

  /**
   * Connector/J's {@code StatementImpl} and {@code ServerPreparedStatement}, from the class
   * loader of the last connection {@link #of} saw; {@code null} before. A statement of another
   * copy of the driver is neither, and is refused.
   */
  private static volatile Class<?>[] statementClasses;

  private final boolean answersTime;

  private MySqlDialect(String name, boolean answersTime) {
    super(name, MariaDbCatalog.MYSQL_STATUS);
    this.answersTime = answersTime;
  }

  /**
   * Connector/J clears the flags it keeps as it sends any command, and hears them again only in
   * a statement's reply: after a ping (a pool's {@code isValid}) or a server-side prepare they
   * stay {@code 0}, which reads as autocommit off, so a pool's every validated connection would
   * go unanswered. Flags of {@code 0} while the driver believes autocommit is on are such
   * forgotten ones (or a session put in autocommit off by text, which the asking then shows).
   */
  @Override
  boolean forgotTransaction(Connection connection) {
    try {
      return statusFlags(connection) == 0 && connection.getAutoCommit();
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  /** {@code DO 0}: evaluates a constant, reads no table, and its reply carries the flags. */
  @Override
  void askTransaction(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("DO 0");
    }
  }

  /** Whether the driver's name is MySQL Connector/J's. */
  static boolean isDriver(String driverName) {
    return driverName != null
        && driverName.toLowerCase(Locale.ROOT).startsWith("mysql connector");
  }

  /** Whether {@code connection} is MySQL Connector/J's (else, or unknown: {@code false}). */
  static boolean isDriverOf(Connection connection) {
    try {
      return isDriver(connection.getMetaData().getDriverName());
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The dialect of a MySQL Connector/J connection, read from the driver's own options
   * (reached by {@code unwrap} and reflection: the library does not need the driver): the
   * text-protocol one, with or without dates and times; {@code null} for any other driver, and
   * when an option changes what a getter returns or cannot be read.
   */
  static MySqlDialect of(Connection connection) {
    try {
      if (!isDriverOf(connection)) {
        return null;
      }
      Connection driver = connection.isWrapperFor(Connection.class)
          ? connection.unwrap(Connection.class) : connection;
      Object options = call(driver, "getPropertySet");
      for (Map.Entry<String, String> o : OPTIONS.entrySet()) {
        if (!o.getValue().equals(option(options, o.getKey()))) {
          return null;
        }
      }
      boolean time = true;
      for (Map.Entry<String, String> o : TIME_OPTIONS.entrySet()) {
        time &= o.getValue().equals(option(options, o.getKey()));
      }
      ClassLoader loader = driver.getClass().getClassLoader();
      statementClasses = new Class<?>[] {Class.forName(STATEMENT, false, loader),
          Class.forName(SERVER_PREPARED, false, loader)};
      return time ? TEXT : TEXT_WITHOUT_TIME;
    } catch (ReflectiveOperationException | SQLException | RuntimeException e) {
      return null; // not the driver this was written for: nothing is kept
    }
  }

  /** An option's value as the driver prints it ({@code null}: unset). */
  private static String option(Object options, String key)
      throws ReflectiveOperationException {
    Method get = options.getClass().getMethod("getProperty", String.class);
    Object property = get.invoke(options, key);
    return String.valueOf(call(property, key.equals("jdbcCompliantTruncation")
        ? "getInitialValue" : "getValue"));
  }

  private static Object call(Object target, String getter) throws ReflectiveOperationException {
    return target.getClass().getMethod(getter).invoke(target);
  }

  @Override
  Dialect forStatement(Statement statement) {
    Class<?>[] classes = statementClasses;
    if (classes == null || statement == null) {
      return null;
    }
    try {
      boolean serverPrepared = statement.isWrapperFor(classes[1]);
      if (!serverPrepared && !statement.isWrapperFor(classes[0])) {
        return null;
      }
      return serverPrepared ? (answersTime ? BINARY : BINARY_WITHOUT_TIME)
          : answersTime ? TEXT : TEXT_WITHOUT_TIME;
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  @Override
  boolean serves(Statement caller) {
    return forStatement(caller) == this;
  }

  /**
   * Connector/J keeps a statement's {@code maxFieldSize} ({@code max_allowed_packet} until set)
   * and cuts no value to it.
   */
  @Override
  boolean truncatesTo(int maxFieldSize) {
    return false;
  }

  /** Every column answered; a string's only in a case-insensitive collation. */
  @Override
  boolean answersAll(Columns columns) throws SQLException {
    for (int c = 1; c <= columns.count(); c++) {
      String type = columns.getColumnTypeName(c);
      if (!answers(columns.getColumnType(c), type)
          || TEXTS.contains(type) && columns.isCaseSensitive(c)) {
        return false;
      }
    }
    return true;
  }

  @Override
  boolean answers(int sqlType, String typeName) {
    return WHOLE.contains(typeName) || DECIMAL.contains(typeName) || REAL.contains(typeName)
        || TEXTS.contains(typeName) || answersTime && MariaDbTime.isTemporal(typeName);
  }

  @Override
  boolean keeps(Object object, String text, int sqlType, String typeName) {
    if (text == null) {
      return object == null;
    }
    try {
      if (WHOLE.contains(typeName)) {
        BigInteger v = new BigInteger(text);
        return !typeName.equals("BIGINT UNSIGNED") || v.compareTo(TWO_TO_53) < 0
            || v.bitLength() > 63;
      }
      if (DECIMAL.contains(typeName)) {
        return new BigDecimal(text).abs().compareTo(FLOAT_BOUND) < 0;
      }
      if (REAL.contains(typeName)) {
        double d = Double.parseDouble(text);
        return Double.toString(d).equals(text); // the driver's text of its double
      }
    } catch (NumberFormatException notPlain) {
      return false;
    }
    if (MariaDbTime.isTemporal(typeName)) {
      return MySqlTime.keeps(text, typeName);
    }
    return plainString(text);
  }

  /** A string no numeric, boolean, date or {@code UUID} parse of the driver's can read. */
  static boolean plainString(String text) {
    if (text.isEmpty() || !Character.isLetter(text.charAt(0))
        || text.codePointCount(0, text.length()) < 2) {
      return false;
    }
    boolean hexAndDashes = true;
    for (int i = 0; i < text.length() && hexAndDashes; i++) {
      char ch = text.charAt(i);
      hexAndDashes = Character.digit(ch, 16) >= 0 || ch == '-';
    }
    if (hexAndDashes) {
      return false; // UUID.fromString may read it
    }
    if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
      try {
        Double.parseDouble(text);
        return false;
      } catch (NumberFormatException notANumber) {
        return true;
      }
    }
    return true; // begins with a letter: neither -?\d+ nor -?\d*\.\d*
  }

  // ---- the getters: the value decoded as the driver's value factories decode it

  private enum Kind { WHOLE, DECIMAL, REAL, TEXT, TIME }

  private static Kind kind(Dialect.Cell c) {
    String t = c.typeName();
    return WHOLE.contains(t) ? Kind.WHOLE : DECIMAL.contains(t) ? Kind.DECIMAL
        : REAL.contains(t) ? Kind.REAL : TEXTS.contains(t) ? Kind.TEXT : Kind.TIME;
  }

  /** A plain string read as a number: the driver's parse fails, with its exception. */
  private static SQLException notANumber(String text) throws SQLException {
    if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
      Double.parseDouble(text); // the driver's parse: throws NumberFormatException
    }
    return new SQLDataException("Cannot determine value type from string '" + text + "'");
  }

  private static SQLException unsupported(Dialect.Cell c, String target) {
    return new SQLDataException("Unsupported conversion from " + c.typeName() + " to "
        + target);
  }

  private static SQLException outOfRange(Dialect.Cell c, String target) {
    return new SQLDataException("Value '" + c.text() + "' is outside of valid range for type "
        + target);
  }

  /** The value as a whole number within {@code [min, max]}, as the driver narrows it. */
  private static long whole(Dialect.Cell c, long min, long max, String target)
      throws SQLException {
    switch (kind(c)) {
      case WHOLE: {
        BigInteger v = new BigInteger(c.text());
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
          throw outOfRange(c, target);
        }
        return v.longValue();
      }
      case DECIMAL: {
        BigDecimal d = new BigDecimal(c.text());
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
          throw outOfRange(c, target);
        }
        return d.longValue();
      }
      case REAL: {
        double d = Double.parseDouble(c.text());
        if (d < min || d > max) {
          throw outOfRange(c, target);
        }
        return (long) d;
      }
      case TEXT:
        throw notANumber(c.text());
      default:
        throw unsupported(c, target);
    }
  }

  @Override
  boolean getBoolean(Dialect.Cell c) throws SQLException {
    Boolean b = c.object() == null ? null : bool(c);
    return b != null && b;
  }

  private static Boolean bool(Dialect.Cell c) throws SQLException {
    String s = c.text();
    switch (kind(c)) {
      case WHOLE: {
        BigInteger v = new BigInteger(s);
        return v.signum() > 0 || v.equals(BigInteger.ONE.negate());
      }
      case DECIMAL: {
        BigDecimal d = new BigDecimal(s);
        return d.signum() > 0 || d.compareTo(BigDecimal.ONE.negate()) == 0;
      }
      case REAL: {
        double d = Double.parseDouble(s);
        return d > 0 || d == -1.0d;
      }
      case TEXT:
        if (s.equalsIgnoreCase("yes") || s.equalsIgnoreCase("true")) {
          return true;
        }
        if (s.equalsIgnoreCase("no") || s.equalsIgnoreCase("false")) {
          return false;
        }
        throw notANumber(s);
      default:
        throw unsupported(c, "java.lang.Boolean");
    }
  }

  @Override
  byte getByte(Dialect.Cell c) throws SQLException {
    return c.object() == null ? 0 : byteOf(c);
  }

  private static byte byteOf(Dialect.Cell c) throws SQLException {
    if (kind(c) == Kind.TEXT) {
      throw outOfRange(c, "java.lang.Byte"); // a string of more than one byte
    }
    return (byte) whole(c, Byte.MIN_VALUE, Byte.MAX_VALUE, "java.lang.Byte");
  }

  @Override
  short getShort(Dialect.Cell c) throws SQLException {
    return c.object() == null ? 0
        : (short) whole(c, Short.MIN_VALUE, Short.MAX_VALUE, "java.lang.Short");
  }

  @Override
  int getInt(Dialect.Cell c) throws SQLException {
    return c.object() == null ? 0
        : (int) whole(c, Integer.MIN_VALUE, Integer.MAX_VALUE, "java.lang.Integer");
  }

  @Override
  long getLong(Dialect.Cell c) throws SQLException {
    return c.object() == null ? 0 : whole(c, Long.MIN_VALUE, Long.MAX_VALUE, "java.lang.Long");
  }

  @Override
  float getFloat(Dialect.Cell c) throws SQLException {
    return c.object() == null ? 0 : floatOf(c);
  }

  private static float floatOf(Dialect.Cell c) throws SQLException {
    switch (kind(c)) {
      case WHOLE: {
        BigInteger v = new BigInteger(c.text());
        return v.bitLength() <= 63 ? (float) v.longValue() : (float) v.doubleValue();
      }
      case DECIMAL:
        return (float) new BigDecimal(c.text()).doubleValue();
      case REAL: {
        double d = Double.parseDouble(c.text());
        if (d < -Float.MAX_VALUE || d > Float.MAX_VALUE) {
          throw outOfRange(c, "java.lang.Float");
        }
        return (float) d;
      }
      case TEXT:
        throw notANumber(c.text());
      default:
        throw unsupported(c, "java.lang.Float");
    }
  }

  @Override
  double getDouble(Dialect.Cell c) throws SQLException {
    return c.object() == null ? 0 : doubleOf(c);
  }

  private static double doubleOf(Dialect.Cell c) throws SQLException {
    switch (kind(c)) {
      case WHOLE:
        return new BigInteger(c.text()).doubleValue();
      case DECIMAL:
        return new BigDecimal(c.text()).doubleValue();
      case REAL:
        return Double.parseDouble(c.text());
      case TEXT:
        throw notANumber(c.text());
      default:
        throw unsupported(c, "java.lang.Double");
    }
  }

  @Override
  BigDecimal getBigDecimal(Dialect.Cell c) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    switch (kind(c)) {
      case WHOLE:
        return new BigDecimal(new BigInteger(c.text()));
      case DECIMAL:
        return new BigDecimal(c.text());
      case REAL:
        return BigDecimal.valueOf(Double.parseDouble(c.text()));
      case TEXT:
        throw notANumber(c.text());
      default:
        throw unsupported(c, "java.math.BigDecimal");
    }
  }

  /** {@code getObject(i, BigInteger.class)}: the driver parses {@code getString}. */
  private static BigInteger bigInteger(Dialect.Cell c) throws SQLException {
    try {
      return new BigInteger(c.text());
    } catch (NumberFormatException e) {
      throw new SQLException("Bad format for BigInteger '" + c.text() + "'", "S1009");
    }
  }

  @Override
  Date getDate(Dialect.Cell c, Calendar cal) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    return temporal(c, "java.sql.Date") ? MySqlTime.getDate(c, cal) : null;
  }

  @Override
  Time getTime(Dialect.Cell c, Calendar cal) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    return temporal(c, "java.sql.Time") ? MySqlTime.getTime(c, cal) : null;
  }

  @Override
  Timestamp getTimestamp(Dialect.Cell c, Calendar cal) throws SQLException {
    if (c.object() == null) {
      return null;
    }
    return temporal(c, "java.sql.Timestamp") ? MySqlTime.getTimestamp(c, cal) : null;
  }

  /** {@code true} for a temporal value; else throws as the driver does for {@code target}. */
  private static boolean temporal(Dialect.Cell c, String target) throws SQLException {
    switch (kind(c)) {
      case TIME:
        return true;
      case TEXT:
        throw new SQLDataException("Cannot convert string '" + c.text() + "' to " + target
            + " value");
      default:
        throw new SQLDataException("Unsupported conversion from "
            + (kind(c) == Kind.DECIMAL ? "DECIMAL" : kind(c) == Kind.REAL ? "DOUBLE" : "LONG")
            + " to " + target);
    }
  }

  /** The classes {@code getObject(i, type)} converts to, as the driver does. */
  private static final Set<Class<?>> TIME_CLASSES = Set.of(java.time.LocalDate.class,
      java.time.LocalTime.class, java.time.LocalDateTime.class, java.time.OffsetDateTime.class,
      java.time.ZonedDateTime.class, Date.class, Time.class, Timestamp.class,
      java.util.Date.class);

  @Override
  @SuppressWarnings("unchecked")
  <T> T getObject(Dialect.Cell c, Class<T> type) throws SQLException {
    if (type == null) {
      throw new SQLException("Type parameter can not be null", "S1009");
    }
    boolean known = type == String.class || type == BigDecimal.class
        || type == BigInteger.class || type == byte[].class || type == java.util.UUID.class
        || TIME_CLASSES.contains(type) || boxed(type) != null;
    if (!known) {
      throw type == Object.class || type == java.time.Instant.class
          ? new SQLException("Conversion not supported for type " + type.getName(), "S1009")
          : new SQLFeatureNotSupportedException("getObject(" + type.getName()
              + ") is not answered: Sluice answers only the classes its dialect re-does");
    }
    if (c.object() == null) {
      return null;
    }
    return (T) convert(c, boxed(type) != null ? boxed(type) : type);
  }

  /** The boxed class of a number or boolean class, primitive or not; else {@code null}. */
  private static Class<?> boxed(Class<?> type) {
    if (type == Boolean.class || type == boolean.class) {
      return Boolean.class;
    }
    if (type == Byte.class || type == byte.class) {
      return Byte.class;
    }
    if (type == Short.class || type == short.class) {
      return Short.class;
    }
    if (type == Integer.class || type == int.class) {
      return Integer.class;
    }
    if (type == Long.class || type == long.class) {
      return Long.class;
    }
    if (type == Float.class || type == float.class) {
      return Float.class;
    }
    return type == Double.class || type == double.class ? Double.class : null;
  }

  private Object convert(Dialect.Cell c, Class<?> type) throws SQLException {
    if (type == String.class) {
      return c.text();
    }
    if (type == byte[].class) {
      return getBytes(c);
    }
    if (type == BigInteger.class) {
      return bigInteger(c);
    }
    if (type == BigDecimal.class) {
      return getBigDecimal(c);
    }
    if (type == Boolean.class) {
      return bool(c);
    }
    if (type == Byte.class) {
      return byteOf(c);
    }
    if (type == Short.class) {
      return getShort(c);
    }
    if (type == Integer.class) {
      return getInt(c);
    }
    if (type == Long.class) {
      return getLong(c);
    }
    if (type == Float.class) {
      return floatOf(c);
    }
    if (type == Double.class) {
      return doubleOf(c);
    }
    if (type == java.util.UUID.class) {
      throw kind(c) == Kind.TEXT ? new SQLDataException("Cannot convert string '" + c.text()
          + "' to java.util.UUID value") : unsupported(c, "java.util.UUID");
    }
    return temporal(c, type.getName()) ? MySqlTime.java(c, type) : null;
  }
}
