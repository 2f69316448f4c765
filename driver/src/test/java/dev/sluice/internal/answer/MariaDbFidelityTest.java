package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AnswerFidelityTest}'s bar on a real MariaDB through MariaDB Connector/J: for each column
 * type, a row with a value and a row with its {@code NULL}, every getter by index and by label
 * answers what the live result returned, or throws where it threw — or the result is never
 * kept. In the text protocol and the binary one ({@code useServerPrepStmts=true}), each by the
 * kept and the shared route, in a JVM zone with summer time.
 *
 * <p>Runs only when {@code IT_SLUICE_MARIADB_URL} names a MariaDB (for example
 * {@code jdbc:mariadb://127.0.0.1:3306/test?user=root}); skipped otherwise.
 */
class MariaDbFidelityTest {
  static final String ENV = "IT_SLUICE_MARIADB_URL";
  private static TimeZone defaultZone;

  /** Each column type with a value of it, as SQL; the answered ones, then the rest. */
  static final Map<String, String> MATRIX = new LinkedHashMap<>();
  static final List<String> ANSWERED = new ArrayList<>();

  static {
    answered("tinyint", "-7");
    answered("tinyint(1)", "1");
    answered("tinyint unsigned", "200");
    answered("smallint", "-300");
    answered("smallint unsigned", "60000");
    answered("mediumint", "-70000");
    answered("mediumint unsigned", "16000000");
    answered("int", "42");
    answered("int unsigned", "4000000000");
    answered("bigint", "-9000000000");
    answered("bigint unsigned", "18446744073709551615");
    answered("decimal(10,2)", "12.50");
    answered("decimal(10,2) unsigned", "0.40");
    answered("decimal(30,0)", "123456789012345678901234567890");
    answered("double", "2.25");
    answered("double ", "100");
    answered("double  ", "-1e18");
    answered("varchar(64)", "'hello'");
    answered("char(8)", "'xy'");
    answered("text", "'some text'");
    MATRIX.put("json", "'{\"a\": 1}'"); // LONGTEXT: a LOB, never kept
    answered("date", "'2024-02-29'");
    answered("datetime", "'2024-10-27 03:30:00'");
    MATRIX.put("datetime  ", "'2024-10-27 02:30:00'");
    answered("datetime(6)", "'2024-02-29 13:14:15.123456'");
    answered("timestamp(6)", "'2024-02-29 13:14:15.123456'");
    answered("time", "'13:14:15'");
    answered("time(6)", "'23:59:59.999000'");
    MATRIX.put("float", "1.5");
    MATRIX.put("bit(1)", "1");
    MATRIX.put("bit(8)", "b'101'");
    MATRIX.put("varbinary(8)", "x'01ff'");
    MATRIX.put("blob", "x'01ff'");
    MATRIX.put("year", "2024");
    MATRIX.put("enum('a','b')", "'a'");
    MATRIX.put("date ", "'1000-01-01'");
    MATRIX.put("time ", "'-01:00:00'");
    MATRIX.put("time  ", "'100:00:00'");
    MATRIX.put("varchar(64) ", "'42'");
    MATRIX.put("varchar(64)  ", "'2024-02-29'");
    MATRIX.put("varchar(64)   ", "''");
    MATRIX.put("datetime ", "'2024-03-31 02:30:00'");
    MATRIX.put("double   ", "1e300");
    MATRIX.put("time(6) ", "'23:59:59.999999'");
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
    String url = url();
    String option = protocol.equals("binary") ? "useServerPrepStmts=true" : "";
    return DriverManager.getConnection(option.isEmpty() ? url
        : url + (url.contains("?") ? "&" : "?") + option);
  }

  @ParameterizedTest(name = "{0} protocol, {1}, {2}")
  @MethodSource("cells")
  void mariaDb_everyGetter_answersWhatTheLiveResultReturned(String protocol, String type,
      String route) throws SQLException {
    assumeTrue(url() != null, ENV + " names no MariaDB");
    try (Connection c = connect(protocol)) {
      String table = "sluice_fidelity_" + Integer.toHexString(type.hashCode());
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + table);
        s.execute("CREATE TABLE " + table + " (k int, v " + type.trim() + ")");
        s.execute("INSERT INTO " + table + " VALUES (1, " + MATRIX.get(type) + "), (2, NULL)");
      }
      AnswerFidelityTest.Comparison got =
          AnswerFidelityTest.compare(c, "SELECT v FROM " + table + " ORDER BY k", route);
      if (ANSWERED.contains(type)) {
        assertThat(got.kept()).as("kept").isTrue();
        assertThat(got.answered()).as("answered outcomes").isEqualTo(got.live());
      } else {
        assertThat(got.kept()).as("a result with %s %s is never kept", type, MATRIX.get(type))
            .isFalse();
      }
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE " + table);
      }
    }
  }

  /** Strings the driver reads as something else for some getter: kept and answered, or not kept. */
  @ParameterizedTest(name = "MariaDB, the string \"{0}\"")
  @ValueSource(strings = {"42", " 1.5 ", "-7", "true", "false", "0", "1", "NaN", "Infinity",
      "abc", "hello", "[1, 2]", "deadbeef-dead-beef-dead-beefdeadbeef", "2024-02-29", "13:14:15", "", " ",
      "user-17", "world ", "Zürich", "e1", "x'01'", "a-b-c-d-e", "Tue 12"})
  void mariaDb_aStringIsAnsweredAsTheDriverReadsIt_orNotKept(String value) throws SQLException {
    assumeTrue(url() != null, ENV + " names no MariaDB");
    for (String protocol : List.of("text", "binary")) {
      try (Connection c = connect(protocol)) {
        for (String route : AnswerFidelityTest.ROUTES) {
          String sql = "SELECT CAST('" + value.replace("'", "''") + "' AS CHAR(40)) AS v";
          AnswerFidelityTest.Comparison got = AnswerFidelityTest.compare(c, sql, route);
          if (got.kept()) {
            assertThat(got.answered()).as("%s, %s, %s", value, protocol, route)
                .isEqualTo(got.live());
          }
          if (List.of("user-17", "world ", "Zürich", "x'01'", "hello").contains(value)) {
            assertThat(got.kept()).as("a plain string is kept: %s", value).isTrue();
          }
        }
      }
    }
  }
}
