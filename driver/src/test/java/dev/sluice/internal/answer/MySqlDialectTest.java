package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Calendar;
import java.util.HashMap;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link MySqlDialect}'s choice and value coding without a server: which dialect a driver's name
 * and options get (never MariaDB's for MySQL Connector/J, nor the reverse), and the getters
 * re-done from a value's text. {@code MySqlFidelityTest} checks the same getters against the live
 * driver.
 */
class MySqlDialectTest {
  private static final MySqlDialect D = MySqlDialect.TEXT;
  private TimeZone zone;

  @BeforeEach
  void berlin() {
    zone = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
  }

  @AfterEach
  void back() {
    TimeZone.setDefault(zone);
  }

  private static Dialect.Cell cell(String text, int type, String typeName) {
    return new Dialect.Cell(text == null ? null : text, text, null, type, typeName);
  }

  // ---- the choice: by the driver's name, then its options

  @ParameterizedTest(name = "{0} over {1}: {2}")
  @CsvSource({
      "MySQL Connector/J, MySQL, MySQL Connector/J",
      "MySQL Connector/J, MariaDB, MySQL Connector/J",
      "MariaDB Connector/J, MariaDB, MariaDB",
      "MariaDB Connector/J, MySQL, MariaDB",
      "PostgreSQL JDBC Driver, PostgreSQL, PostgreSQL",
      "H2 JDBC Driver, H2, H2",
      "MySQL Connector Java, MySQL, MySQL Connector/J",
      "Some Other Driver, MySQL, none",
      "Some Other Driver, MariaDB, none",
      "'', '', none"})
  void theDialect_isChosenByTheDriver_overEitherServer(String driver, String product,
      String expected) {
    Dialect d = Answers.dialectOf(product, driver);
    assertThat(d == null ? "none" : d.name()).isEqualTo(expected);
  }

  @Test
  void mariaDbsSelection_neverTakesMySqlConnectorJ_norTheReverse() throws SQLException {
    assertThat(MariaDbDialect.of(meta("MySQL Connector/J", "jdbc:mysql://h/db"))).isNull();
    assertThat(MySqlDialect.of(connection("MariaDB Connector/J", Map.of()))).isNull();
    assertThat(MySqlDialect.isDriver("MariaDB Connector/J")).isFalse();
    assertThat(MySqlDialect.isDriver("MySQL Connector/J")).isTrue();
  }

  @Test
  void mySqlConnectorJ_withItsDefaults_getsTheTextDialect_withDates() {
    assertThat(MySqlDialect.of(connection("MySQL Connector/J", Map.of())))
        .isSameAs(MySqlDialect.TEXT);
  }

  @Test
  void anOptionThatChangesAGetter_keepsNothing_aTimeOption_noDate() {
    assertThat(MySqlDialect.of(connection("MySQL Connector/J",
        Map.of("jdbcCompliantTruncation", false)))).isNull();
    assertThat(MySqlDialect.of(connection("MySQL Connector/J",
        Map.of("padCharsWithSpace", true)))).isNull();
    assertThat(MySqlDialect.of(connection("MySQL Connector/J",
        Map.of("connectionTimeZone", "UTC")))).isSameAs(MySqlDialect.TEXT_WITHOUT_TIME);
    assertThat(MySqlDialect.TEXT_WITHOUT_TIME.answers(Types.DATE, "DATE")).isFalse();
    assertThat(MySqlDialect.TEXT_WITHOUT_TIME.answers(Types.INTEGER, "INT")).isTrue();
  }

  @Test
  void aConnectionWhoseOptionsCannotBeRead_keepsNothing() throws SQLException {
    Connection noOptions = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, (p, m, a) -> switch (m.getName()) {
          case "getMetaData" -> meta("MySQL Connector/J", "jdbc:mysql://h/db");
          case "isWrapperFor" -> false;
          default -> null;
        });
    assertThat(MySqlDialect.of(noOptions)).as("Connector/J 5.1 has no property set").isNull();
  }

  @Test
  void aStatementOfNoKnownProtocol_isNeitherKeptNorServed() {
    MySqlDialect.of(connection("MySQL Connector/J", Map.of())); // learns the driver's classes
    Statement foreign = (Statement) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Statement.class}, (p, m, a) -> m.getName().equals("isWrapperFor")
            ? false : null);
    assertThat(D.forStatement(foreign)).isNull();
    assertThat(D.forStatement(null)).isNull();
    assertThat(D.serves(foreign)).isFalse();
    assertThat(MySqlDialect.BINARY.serves(null)).isFalse();
    assertThat(MariaDbDialect.INSTANCE.forStatement(foreign)).isSameAs(MariaDbDialect.INSTANCE);
  }

  @Test
  void maxFieldSize_isIgnoredByConnectorJ_notByTheOthers() {
    assertThat(D.truncatesTo(16_777_216)).isFalse();
    assertThat(MariaDbDialect.INSTANCE.truncatesTo(10)).isTrue();
    assertThat(MariaDbDialect.INSTANCE.truncatesTo(0)).isFalse();
    assertThat(answers().truncatesTo(16_777_216, connection("MySQL Connector/J", Map.of())))
        .as("Connector/J's default maxFieldSize, max_allowed_packet").isFalse();
    assertThat(answers().truncatesTo(10, connection("MariaDB Connector/J", Map.of()))).isTrue();
    assertThat(answers().truncatesTo(10, connection("Some Other Driver", Map.of())))
        .as("no dialect: unknown").isTrue();
    assertThat(answers().truncatesTo(0, connection("Some Other Driver", Map.of()))).isFalse();
  }

  private static Answers answers() {
    return Answers.create("mysql", new AnswerSettings(java.time.Duration.ofSeconds(5),
        java.time.Duration.ZERO, 10, 1 << 20), System::nanoTime,
        (name, age, joined) -> new java.sql.SQLWarning("stale"));
  }

  // ---- the getters

  @Test
  void bigintUnsigned_aboveLong_getLongThrows_getFloatRoundsThroughADouble()
      throws SQLException {
    Dialect.Cell c = cell("18446744073709551615", Types.BIGINT, "BIGINT UNSIGNED");
    assertThrows(SQLDataException.class, () -> D.getLong(c));
    assertThat(D.getFloat(c)).isEqualTo((float) 1.8446744073709552E19);
    assertThat(D.getBigDecimal(c)).isEqualTo(new BigDecimal("18446744073709551615"));
    assertThat(D.getObject(c, BigInteger.class)).isEqualTo(new BigInteger("18446744073709551615"));
    assertThat(D.getBoolean(c)).isTrue();
    assertThat(D.keeps(new BigInteger("9223372036854775807"), "9223372036854775807",
        Types.BIGINT, "BIGINT UNSIGNED")).as("decoded as a long or not by protocol").isFalse();
  }

  @Test
  void wholeNumbers_booleanIsPositiveOrMinusOne() throws SQLException {
    assertThat(D.getBoolean(cell("-1", Types.INTEGER, "INT"))).isTrue();
    assertThat(D.getBoolean(cell("-2", Types.INTEGER, "INT"))).isFalse();
    assertThat(D.getBoolean(cell("0", Types.INTEGER, "INT"))).isFalse();
    assertThrows(SQLDataException.class, () -> D.getByte(cell("200", Types.TINYINT,
        "TINYINT UNSIGNED")));
  }

  @Test
  void decimal_truncatesTowardsZero_andItsBooleanIsPositiveOrMinusOne() throws SQLException {
    Dialect.Cell c = cell("-12.50", Types.DECIMAL, "DECIMAL");
    assertThat(D.getInt(c)).isEqualTo(-12);
    assertThat(D.getBoolean(c)).isFalse();
    assertThat(D.getBoolean(cell("0.40", Types.DECIMAL, "DECIMAL"))).as("> 0").isTrue();
    assertThat(D.getBoolean(cell("-1.00", Types.DECIMAL, "DECIMAL"))).isTrue();
    assertThrows(SQLException.class, () -> D.getObject(c, BigInteger.class));
    assertThat(D.keeps(null, "1" + "0".repeat(40), Types.DECIMAL, "DECIMAL"))
        .as("beyond a float's bounds").isFalse();
  }

  @Test
  void double_narrowsAfterItsRangeCheck_andItsBigDecimalIsValueOf() throws SQLException {
    assertThat(D.getLong(cell("9.223372036854775807E18", Types.DOUBLE, "DOUBLE")))
        .isEqualTo(Long.MAX_VALUE);
    assertThrows(SQLDataException.class, () -> D.getLong(cell("1.0E19", Types.DOUBLE,
        "DOUBLE")));
    assertThrows(SQLDataException.class, () -> D.getFloat(cell("1.0E300", Types.DOUBLE,
        "DOUBLE")));
    assertThat(D.getBigDecimal(cell("-1.0E18", Types.DOUBLE, "DOUBLE")))
        .isEqualTo(BigDecimal.valueOf(-1e18));
    assertThat(D.keeps(100.0, "100", Types.DOUBLE, "DOUBLE")).as("not the driver's text")
        .isFalse();
  }

  @ParameterizedTest
  @CsvSource({"user-17, true", "Zürich, true", "hello, true", "yes, true", "Tue 12, true",
      "abc, false", "deadbeef-dead-beef-dead-beefdeadbeef, false", "42, false", "' x', false",
      "NaN, true", "Infinity, true", "'', false", "a, false", "Ω, false", "2024-02-29, false",
      "e5, false", "E5x, true"})
  void aString_isKeptOnlyIfNoGetterParsesIt(String text, boolean kept) {
    assertThat(D.keeps(text, text, Types.VARCHAR, "VARCHAR")).isEqualTo(kept);
  }

  @Test
  void aPlainString_throwsAsTheDriverDoes_andReadsItsBooleanWords() throws SQLException {
    assertThrows(NumberFormatException.class,
        () -> D.getInt(cell("hello", Types.VARCHAR, "VARCHAR")), "Double.parseDouble's");
    assertThrows(SQLDataException.class, () -> D.getInt(cell("xy", Types.VARCHAR, "VARCHAR")));
    assertThrows(SQLDataException.class, () -> D.getByte(cell("xy", Types.VARCHAR, "VARCHAR")));
    assertThat(D.getBoolean(cell("YES", Types.VARCHAR, "VARCHAR"))).isTrue();
    assertThat(D.getBoolean(cell("false", Types.VARCHAR, "VARCHAR"))).isFalse();
    assertThrows(SQLDataException.class,
        () -> D.getObject(cell("hello", Types.VARCHAR, "VARCHAR"), java.util.UUID.class));
  }

  @Test
  void getObject_ofObjectInstantOrNull_throwsEvenForANull_asTheDriverDoes() throws SQLException {
    Dialect.Cell none = cell(null, Types.INTEGER, "INT");
    assertThrows(SQLException.class, () -> D.getObject(none, Object.class));
    assertThrows(SQLException.class, () -> D.getObject(none, Instant.class));
    assertThrows(SQLException.class, () -> D.getObject(none, null));
    assertThat(D.getObject(none, Integer.class)).isNull();
    assertThat(D.getObject(cell("7", Types.INTEGER, "INT"), int.class)).isEqualTo(7);
  }

  @Test
  void datetime_getDateIsItsMidnight_getTimeItsTimeOn1970() throws SQLException {
    Dialect.Cell c = cell("2024-02-29 13:14:15.123456", Types.TIMESTAMP, "DATETIME");
    Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
    assertThat(D.getTimestamp(c, tokyo).getTime()).isEqualTo(1709180055123L);
    assertThat(D.getTimestamp(c, tokyo).getNanos()).isEqualTo(123456000);
    assertThat(D.getDate(c, null).getTime()).as("Berlin's midnight").isEqualTo(1709161200000L);
    assertThat(D.getTime(c, null).getTime()).isEqualTo(44055123L);
    assertThat(D.getObject(c, LocalDateTime.class))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123456000));
    assertThrows(SQLException.class, () -> D.getInt(c));
  }

  @Test
  void time_getDateIsTheEpochInTheJvmsZone_whateverTheCalendar() throws SQLException {
    Dialect.Cell c = cell("13:14:15", Types.TIME, "TIME");
    Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
    assertThat(D.getDate(c, tokyo).getTime()).isEqualTo(-3_600_000L);
    assertThat(D.getObject(c, LocalDate.class)).isEqualTo(LocalDate.of(1970, 1, 1));
    assertThat(D.getTime(c, tokyo).getTime()).isEqualTo(15_255_000L);
  }

  @ParameterizedTest
  @CsvSource({"DATETIME, 2024-03-31 02:30:00, false", "DATETIME, 2024-10-27 02:30:00, false",
      "DATETIME, 2024-10-27 03:30:00, true", "DATETIME, 0000-00-00 00:00:00, false",
      "DATE, 1000-01-01, false", "DATE, 2024-02-29, true", "TIME, -01:00:00, false",
      "TIME, 100:00:00, false", "TIME, 13:14:15.123456, true"})
  void aDateOrTime_isKeptOnlyIfEveryGetterIsPlainArithmetic(String type, String text,
      boolean kept) {
    assertThat(D.keeps(text, text, Types.OTHER, type)).isEqualTo(kept);
  }

  // ---- stubs: the driver's metadata, and a connection with Connector/J's options

  private static DatabaseMetaData meta(String driver, String url) {
    return (DatabaseMetaData) Proxy.newProxyInstance(MySqlDialectTest.class.getClassLoader(),
        new Class<?>[] {DatabaseMetaData.class}, (p, m, a) -> switch (m.getName()) {
          case "getDriverName" -> driver;
          case "getURL" -> url;
          default -> null;
        });
  }

  /** Connector/J's way to its options: {@code getPropertySet().getProperty(name)}. */
  interface WithOptions {
    Object getPropertySet();
  }

  interface Options {
    Object getProperty(String name);
  }

  interface Option {
    Object getValue();

    Object getInitialValue();
  }

  /** A connection of {@code driver} whose options are Connector/J's defaults but {@code set}. */
  private static Connection connection(String driver, Map<String, Object> set) {
    Map<String, Object> values = new HashMap<>();
    MySqlDialect.OPTIONS.forEach((k, v) -> values.put(k, v.equals("null") ? null : v));
    MySqlDialect.TIME_OPTIONS.forEach((k, v) -> values.put(k, v.equals("null") ? null : v));
    values.putAll(set);
    ClassLoader loader = MySqlDialectTest.class.getClassLoader();
    Object options = Proxy.newProxyInstance(loader, new Class<?>[] {Options.class},
        (o, get, name) -> Proxy.newProxyInstance(loader, new Class<?>[] {Option.class},
            (p, m, a) -> values.get((String) name[0])));
    return (Connection) Proxy.newProxyInstance(loader,
        new Class<?>[] {Connection.class, WithOptions.class}, (p, m, a) -> switch (m.getName()) {
          case "getMetaData" -> meta(driver, "jdbc:mysql://h/db");
          case "getPropertySet" -> options;
          case "isWrapperFor" -> false;
          default -> null;
        });
  }
}
