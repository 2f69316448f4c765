package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.Priority;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AnswerFidelityTest}'s bar for MySQL Connector/J on a real MySQL-protocol server: for
 * each column type, a row with a value and a row with its {@code NULL}, every getter by index
 * and by label answers what the live result returned, or throws where it threw — or the result
 * is never kept. In the text protocol and the binary one (a server-prepared statement,
 * {@code useServerPrepStmts=true}), each by the kept and the shared route, in a JVM zone with
 * summer time. And the driver's options: one that changes a getter keeps nothing, a time option
 * keeps no date; a result kept in one protocol answers no read in the other.
 *
 * <p>Runs only when {@code IT_SLUICE_MYSQL_URL} names a server through MySQL Connector/J (for
 * example {@code jdbc:mysql://127.0.0.1:3306/test?user=root}, MariaDB here: the getters are the
 * driver's); skipped otherwise.
 */
class MySqlFidelityTest {
  static final String ENV = "IT_SLUICE_MYSQL_URL";
  private static TimeZone defaultZone;

  /** Each column type with a value of it, as SQL; the answered ones, then the rest. */
  static final Map<String, String> MATRIX = new LinkedHashMap<>();
  static final List<String> ANSWERED = new ArrayList<>();

  static {
    answered("tinyint", "-7");
    answered("tinyint unsigned", "200");
    answered("smallint", "-300");
    answered("smallint unsigned", "60000");
    answered("mediumint", "-70000");
    answered("mediumint unsigned", "16000000");
    answered("int", "42");
    answered("int unsigned", "4000000000");
    answered("int(8) zerofill", "42");
    answered("bigint", "-9000000000");
    answered("bigint ", "-9223372036854775808");
    answered("bigint unsigned", "18446744073709551615");
    answered("bigint unsigned ", "9000");
    answered("decimal(10,2)", "12.50");
    answered("decimal(10,2) unsigned", "0.40");
    answered("decimal(10,2) ", "-1.00");
    answered("decimal(30,0)", "123456789012345678901234567890");
    answered("decimal(30,10)", "-0.0000000001");
    answered("double", "2.25");
    answered("double ", "100");
    answered("double  ", "-1e18");
    answered("double   ", "1e300");
    answered("double    ", "-1");
    answered("float", "1.5");
    answered("float ", "0.1");
    answered("float  ", "3e38");
    answered("varchar(64)", "'hello'");
    answered("varchar(64) ", "'yes'");
    answered("varchar(64)  ", "'no'");
    answered("char(8)", "'xy'");
    answered("tinytext", "'some text'");
    answered("date", "'2024-02-29'");
    answered("datetime", "'2024-10-27 03:30:00'");
    answered("datetime(6)", "'2024-02-29 13:14:15.123456'");
    answered("timestamp(6)", "'2024-02-29 13:14:15.123456'");
    answered("time", "'13:14:15'");
    answered("time(6)", "'23:59:59.999000'");
    answered("time(6) ", "'13:14:15.123456'");
    MATRIX.put("text", "'some text'"); // LONGVARCHAR: a LOB, never kept
    MATRIX.put("json", "'{\"a\": 1}'");
    MATRIX.put("varchar(64) collate utf8mb4_bin", "'hello'"); // getObject(UUID) reads bytes
    MATRIX.put("tinyint(1)", "1"); // BIT to the driver, as BIT(1) is
    MATRIX.put("boolean", "1");
    MATRIX.put("bit(1)", "1");
    MATRIX.put("bit(8)", "b'101'");
    MATRIX.put("varbinary(8)", "x'01ff'");
    MATRIX.put("blob", "x'01ff'");
    MATRIX.put("year", "2024");
    MATRIX.put("enum('a','b')", "'b'");
    MATRIX.put("bigint unsigned  ", "9223372036854775807"); // text: a BigInteger; binary: long
    MATRIX.put("decimal(65,0)", "1" + "0".repeat(40));
    MATRIX.put("date ", "'1000-01-01'");
    MATRIX.put("time ", "'-01:00:00'");
    MATRIX.put("time  ", "'100:00:00'");
    MATRIX.put("varchar(64)   ", "'42'");
    MATRIX.put("varchar(64)    ", "'2024-02-29'");
    MATRIX.put("varchar(64)     ", "''");
    MATRIX.put("varchar(64)      ", "'a'");
    MATRIX.put("varchar(64)       ", "'deadbeef'");
    MATRIX.put("datetime ", "'2024-03-31 02:30:00'"); // a summer-time gap in Berlin
    MATRIX.put("datetime  ", "'2024-10-27 02:30:00'"); // an hour that repeats
  }

  private static void answered(String type, String value) {
    MATRIX.put(type, value);
    ANSWERED.add(type);
  }

  static String url() {
    return System.getenv(ENV);
  }

  @BeforeAll
  static void zone() {
    defaultZone = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
  }

  @AfterAll
  static void back() {
    TimeZone.setDefault(defaultZone);
  }

  static List<Arguments> cells() {
    List<Arguments> cells = new ArrayList<>();
    for (String protocol : List.of("text", "binary")) {
      for (String type : MATRIX.keySet()) {
        for (String route : AnswerFidelityTest.ROUTES) {
          cells.add(Arguments.of(protocol, type, route));
        }
      }
    }
    return cells;
  }

  private static Connection connect(String protocol) throws SQLException {
    return withOptions(protocol.equals("binary") ? "useServerPrepStmts=true" : "");
  }

  private static Connection withOptions(String options, String... more) throws SQLException {
    String url = url();
    for (String option : more) {
      options = options.isEmpty() ? option : options + "&" + option;
    }
    return DriverManager.getConnection(options.isEmpty() ? url
        : url + (url.contains("?") ? "&" : "?") + options);
  }

  private static String table(Statement s, String type, String value) throws SQLException {
    String table = "sluice_mysql_" + Integer.toHexString(type.hashCode());
    s.execute("DROP TABLE IF EXISTS " + table);
    s.execute("CREATE TABLE " + table + " (k int, v " + type.trim() + ")");
    s.execute("INSERT INTO " + table + " VALUES (1, " + value + "), (2, NULL)");
    return table;
  }

  @ParameterizedTest(name = "{0} protocol, {1}, {2}")
  @MethodSource("cells")
  void mysqlConnectorJ_everyGetter_answersWhatTheLiveResultReturned(String protocol, String type,
      String route) throws SQLException {
    assumeTrue(url() != null, ENV + " names no server");
    try (Connection c = connect(protocol); Statement s = c.createStatement()) {
      String table = table(s, type, MATRIX.get(type));
      AnswerFidelityTest.Comparison got =
          AnswerFidelityTest.compare(c, "SELECT v FROM " + table + " ORDER BY k", route);
      if (ANSWERED.contains(type)) {
        assertThat(got.kept()).as("kept").isTrue();
        assertThat(got.answered()).as("answered outcomes").isEqualTo(got.live());
      } else {
        assertThat(got.kept()).as("a result with %s %s is never kept", type, MATRIX.get(type))
            .isFalse();
      }
      s.execute("DROP TABLE " + table);
    }
  }

  /** Strings the driver reads as something else for some getter: kept and answered, or not kept. */
  @ParameterizedTest(name = "MySQL Connector/J, the string \"{0}\"")
  @ValueSource(strings = {"42", " 1.5 ", "-7", "true", "false", "yes", "no", "YES", "0", "1",
      "NaN", "Infinity", "abc", "hello", "e1", "E5", "deadbeef-dead-beef-dead-beefdeadbeef",
      "a-b-c-d-e", "2024-02-29", "13:14:15", "", " ", "user-17", "world ", "Zürich", "x'01'",
      "Tue 12", "y", "n", "Ω", "ab", "1e5d", "abcd-ef-gh"})
  void mysqlConnectorJ_aStringIsAnsweredAsTheDriverReadsIt_orNotKept(String value)
      throws SQLException {
    assumeTrue(url() != null, ENV + " names no server");
    for (String protocol : List.of("text", "binary")) {
      try (Connection c = connect(protocol)) {
        for (String route : AnswerFidelityTest.ROUTES) {
          String sql = "SELECT CAST('" + value.replace("'", "''") + "' AS CHAR(40)) AS v";
          AnswerFidelityTest.Comparison got = AnswerFidelityTest.compare(c, sql, route);
          if (got.kept()) {
            assertThat(got.answered()).as("%s, %s, %s", value, protocol, route)
                .isEqualTo(got.live());
          }
          if (List.of("user-17", "world ", "Zürich", "x'01'", "hello", "yes", "no", "Tue 12")
              .contains(value)) {
            assertThat(got.kept()).as("a plain string is kept: %s", value).isTrue();
          }
        }
      }
    }
  }

  /** The dialect follows the protocol of each statement, and the options of the connection. */
  @Test
  void mysqlConnectorJ_theDialectIsThatOfTheDriverAndItsProtocol() throws SQLException {
    assumeTrue(url() != null, ENV + " names no server");
    try (Connection c = withOptions("useServerPrepStmts=true");
        Statement plain = c.createStatement();
        PreparedStatement prepared = c.prepareStatement("SELECT 1")) {
      Dialect d = Answers.dialectOf(c.getMetaData().getDatabaseProductName(),
          c.getMetaData().getDriverName());
      assertThat(d).isSameAs(MySqlDialect.TEXT);
      assertThat(MySqlDialect.of(c)).isSameAs(MySqlDialect.TEXT);
      assertThat(MySqlDialect.TEXT.forStatement(plain)).isSameAs(MySqlDialect.TEXT);
      assertThat(MySqlDialect.TEXT.forStatement(prepared)).isSameAs(MySqlDialect.BINARY);
      assertThat(MySqlDialect.BINARY.serves(prepared)).isTrue();
      assertThat(MySqlDialect.BINARY.serves(plain)).as("text protocol").isFalse();
      assertThat(MariaDbDialect.of(c.getMetaData())).as("not MariaDB's driver").isNull();
      assertThat(MySqlDialect.TEXT.inTransaction(c))
          .as("a statement prepared anew clears the flags the driver keeps: unknown").isTrue();
      plain.executeQuery("SELECT 1").close();
      assertThat(MySqlDialect.TEXT.inTransaction(c)).as("read again from the server").isFalse();
      assertThat(c.isValid(1)).isTrue();
      assertThat(MySqlDialect.TEXT.inTransaction(c))
          .as("a ping (a pool's JDBC4 validation) clears them too: unknown").isTrue();
      assertThat(MySqlDialect.TEXT.forgotTransaction(c)).as("forgotten, autocommit on").isTrue();
      MySqlDialect.TEXT.askTransaction(c);
      assertThat(MySqlDialect.TEXT.forgotTransaction(c)).isFalse();
      assertThat(MySqlDialect.TEXT.inTransaction(c)).as("asked again: none").isFalse();
      plain.execute("SET autocommit = 0");
      assertThat(c.isValid(1)).isTrue();
      MySqlDialect.TEXT.askTransaction(c);
      assertThat(MySqlDialect.TEXT.inTransaction(c)).as("autocommit off by text, asked").isTrue();
      plain.execute("SET autocommit = 1");
      plain.executeQuery("SELECT 1").close();
      c.setAutoCommit(false);
      assertThat(MySqlDialect.TEXT.inTransaction(c)).as("autocommit off").isTrue();
      c.setAutoCommit(true);
      plain.execute("BEGIN");
      assertThat(MySqlDialect.TEXT.inTransaction(c)).as("BEGIN as text").isTrue();
      plain.execute("COMMIT");
      assertThat(MySqlDialect.TEXT.inTransaction(c)).isFalse();
    }
  }

  /** An option that changes what a getter returns keeps nothing; a time option keeps no date. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"jdbcCompliantTruncation=false", "padCharsWithSpace=true",
      "useCursorFetch=true", "emptyStringsConvertToZero=false",
      "holdResultsOpenOverStatementClose=true", "scrollTolerantForwardOnly=true",
      "clobCharacterEncoding=UTF-16"})
  void mysqlConnectorJ_anOptionThatChangesAGetter_keepsNothing(String option)
      throws SQLException {
    assumeTrue(url() != null, ENV + " names no server");
    try (Connection c = withOptions(option)) {
      assertThat(MySqlDialect.of(c)).isNull();
      assertThat(AnswerFidelityTest.compare(c, "SELECT 42 AS v", "kept").kept()).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"connectionTimeZone=UTC", "serverTimezone=Asia/Tokyo",
      "preserveInstants=false", "zeroDateTimeBehavior=CONVERT_TO_NULL",
      "cacheDefaultTimeZone=false", "noDatetimeStringSync=true",
      "treatMysqlDatetimeAsTimestamp=true"})
  void mysqlConnectorJ_aTimeOption_keepsNoDate_butNumbers(String option) throws SQLException {
    assumeTrue(url() != null, ENV + " names no server");
    for (String protocol : List.of("", "useServerPrepStmts=true")) {
      try (Connection c = withOptions(protocol, option); Statement s = c.createStatement()) {
        assertThat(MySqlDialect.of(c)).isSameAs(MySqlDialect.TEXT_WITHOUT_TIME);
        String table = table(s, "datetime", "'2024-02-29 13:14:15'");
        assertThat(AnswerFidelityTest.compare(c, "SELECT v FROM " + table, "kept").kept())
            .as("a date-time").isFalse();
        AnswerFidelityTest.Comparison number =
            AnswerFidelityTest.compare(c, "SELECT k AS v FROM " + table, "shared");
        assertThat(number.kept()).as("a number").isTrue();
        assertThat(number.answered()).isEqualTo(number.live());
        s.execute("DROP TABLE " + table);
      }
    }
  }

  /** A result read in one protocol answers no read the driver would read in the other. */
  @Test
  void mysqlConnectorJ_aResultKeptInOneProtocol_answersNoReadInTheOther() throws SQLException {
    assumeTrue(url() != null, ENV + " names no server");
    String sql = "SELECT 42 AS v";
    try (Connection c = withOptions("useServerPrepStmts=true");
        Statement plain = c.createStatement();
        PreparedStatement prepared = c.prepareStatement(sql)) {
      Answers answers = Answers.create("protocols", new AnswerSettings(Duration.ofSeconds(5),
          Duration.ZERO, 100, 1 << 20), new AtomicLong()::get,
          (name, age, joined) -> new SQLWarning("stale"));
      ReadKey key = ReadKey.of(sql, null, 0, "root", null, null);
      try (ResultSet rs = prepared.executeQuery()) {
        Recording recording = answers.record(key, rs);
        assertThat(recording).as("kept in the binary protocol").isNotNull();
        recording.leaving(rs);
        while (rs.next()) {
          recording.leaving(rs);
        }
        recording.ended();
      }
      assertThat(answers.answer(key, plain, Priority.NORMAL)).as("a plain statement").isNull();
      try (ResultSet answer = answers.answer(key, prepared, Priority.NORMAL)) {
        assertThat(answer).as("a server-prepared statement").isNotNull();
        answer.next();
        assertThat(answer.getBytes(1)).as("an INT, in binary").isEqualTo(new byte[] {42, 0, 0, 0});
      }
    }
  }
}
