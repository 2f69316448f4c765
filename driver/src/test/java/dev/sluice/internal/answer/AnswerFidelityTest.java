package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Priority;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fidelity, the bar of an answer: for each column type of the matrix, a row with a value and a
 * row with its {@code NULL}, every getter by index and by label on the answered result returns
 * what it returned on the live one, and throws where it threw — or the result is never kept.
 * On PostgreSQL in pgjdbc's text transfer and in its binary transfer ({@code prepareThreshold=-1},
 * what a statement uses once it is server-prepared), and on H2. Each by two routes: the answer
 * from the result as kept, and from the result shared — encoded and decoded ({@link KeptCodec})
 * as another instance of the budget would receive it.
 */
class AnswerFidelityTest {
  private static EmbeddedPostgres postgres;
  private static TimeZone defaultZone;

  /** Each type with a value of it, as SQL. */
  static final Map<String, String> MATRIX = Map.ofEntries(
      Map.entry("int2", "7::int2"), Map.entry("int4", "42"),
      Map.entry("int8", "9000000000::int8"), Map.entry("numeric", "12.50::numeric"),
      Map.entry("float4", "1.5::float4"), Map.entry("float8", "2.25::float8"),
      Map.entry("bool", "true"), Map.entry("text", "'hello'::text"),
      Map.entry("varchar", "'world'::varchar"), Map.entry("char(4)", "'ab'::char(4)"),
      Map.entry("bytea", "decode('01ff', 'hex')"), Map.entry("date", "date '2024-02-29'"),
      Map.entry("time", "time '13:14:15.123456'"),
      Map.entry("timestamp", "timestamp '2024-02-29 13:14:15.123456'"),
      Map.entry("timestamptz", "timestamptz '2024-02-29 13:14:15.123456+02'"),
      Map.entry("uuid", "'6f1c1f6e-8a8e-4b35-9d7c-0123456789ab'::uuid"),
      Map.entry("json", "'{\"a\": 1}'::json"), Map.entry("jsonb", "'{\"a\": 1}'::jsonb"));

  /** The types PostgreSQL answers (the rest: results never kept). */
  static final List<String> POSTGRES_ANSWERED = List.of("int2", "int4", "int8", "numeric",
      "float4", "float8", "bool", "text", "varchar", "char(4)", "bytea", "uuid", "json", "jsonb",
      "date", "time", "timestamp", "timestamptz");

  @BeforeAll
  static void startPostgres() throws IOException {
    // A zone with an offset and summer time, unlike the build machine's UTC: pgjdbc sets the
    // session's zone from it, and the getters without a Calendar use it.
    defaultZone = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    TimeZone.setDefault(defaultZone);
    if (postgres != null) {
      postgres.close();
    }
  }

  /** How an answer reaches its reader: from the result as kept, or as shared. */
  static final List<String> ROUTES = List.of("kept", "shared");

  static List<Arguments> postgresCells() {
    List<Arguments> cells = new ArrayList<>();
    for (String transfer : List.of("text", "binary")) {
      for (String type : MATRIX.keySet().stream().sorted().toList()) {
        for (String route : ROUTES) {
          cells.add(Arguments.of(transfer, type, route));
        }
      }
    }
    return cells;
  }

  @ParameterizedTest(name = "{0} transfer, {1}, {2}")
  @MethodSource("postgresCells")
  void postgres_everyGetter_answersWhatTheLiveResultReturned(String transfer, String type,
      String route) throws SQLException {
    String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres"
        + (transfer.equals("binary") ? "?prepareThreshold=-1" : "");
    try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
      String sql = "SELECT v FROM (VALUES (1, " + MATRIX.get(type) + "), (2, NULL::"
          + type + ")) t(k, v) ORDER BY k";
      Comparison got = compare(c, sql, route);
      if (POSTGRES_ANSWERED.contains(type)) {
        assertThat(got.kept).as("kept").isTrue();
        assertThat(got.answered).as("answered outcomes")
            .isEqualTo(transfer.equals("text") ? asInBinary(type, got.live) : got.live);
      } else {
        assertThat(got.kept).as("a result with %s is never kept", type).isFalse();
      }
    }
  }

  /**
   * The live outcomes of text transfer where binary transfer throws instead: {@code getDate} of
   * a {@code time} (1970-01-01 in text), {@code getTime} of a {@code date} (midnight). The
   * answer throws in both transfers, as it cannot know which one the caller's read would use.
   */
  private static List<String> asInBinary(String type, List<String> live) {
    String getter = type.equals("time") ? "getDate" : type.equals("date") ? "getTime" : null;
    return getter == null ? live : live.stream().map(o -> {
      boolean refused = (o.startsWith(getter + " ") || o.startsWith(getter + "(cal) "))
          && !o.contains("-> null,");
      return refused ? o.replaceFirst("-> .*, wasNull=", "-> throws, wasNull=") : o;
    }).toList();
  }

  @Test
  void aResultClosedBeforeItsEnd_orLongerThanMaxRows_isNotKept() throws SQLException {
    String sql = "SELECT g FROM generate_series(1, 5) g";
    try (Connection c = postgresConnection()) {
      Answers answers = answers(4);
      ReadKey key = ReadKey.of(sql, null, 0, "postgres", null, null);
      readAll(c, answers, key);
      assertThat(answers.answer(key, null, Priority.NORMAL)).as("5 rows, max-rows 4").isNull();
      Answers roomy = answers(10);
      try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
        Recording recording = roomy.record(key, rs);
        recording.leaving(rs);
        rs.next();
        recording.abandoned();
      }
      assertThat(roomy.answer(key, null, Priority.NORMAL)).as("closed after one row").isNull();
      readAll(c, roomy, key);
      try (ResultSet answer = roomy.answer(key, null, Priority.NORMAL)) {
        assertThat(answer).isNotNull();
        int rows = 0;
        while (answer.next()) {
          rows++;
          assertThat(answer.getInt(1)).isEqualTo(rows);
        }
        assertThat(rows).isEqualTo(5);
      }
      assertThat(roomy.answered()).isEqualTo(1);
      assertThat(roomy.entries()).isEqualTo(1);
      assertThat(roomy.bytes()).isPositive();
      roomy.clear();
      assertThat(roomy.answer(key, null, Priority.NORMAL)).as("emptied").isNull();
    }
  }

  @Test
  void aReadAboutToBeRefused_joinsTheIdenticalReadInFlight() throws Exception {
    String sql = "SELECT 'joined'::text";
    try (Connection c = postgresConnection()) {
      AtomicLong clock = new AtomicLong();
      Answers answers = Answers.create("join", new AnswerSettings(Duration.ofSeconds(5),
          Duration.ofSeconds(30), 10, 1 << 20), clock::get, (n, age, joined) ->
          new SQLWarning(joined ? "joined" : "recent"));
      ReadKey key = ReadKey.of(sql, null, 0, "postgres", null, null);
      try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
        Recording recording = answers.record(key, rs);
        java.util.concurrent.CompletableFuture<String> joiner =
            java.util.concurrent.CompletableFuture.supplyAsync(() -> {
              try (ResultSet answer = answers.answer(key, null, Priority.NORMAL)) {
                answer.next();
                return answer.getString(1) + " " + answer.getWarnings().getMessage();
              } catch (SQLException e) {
                throw new IllegalStateException(e);
              }
            });
        while (!answers.hasWaiters(key)) {
          Thread.onSpinWait();
        }
        recording.leaving(rs);
        rs.next();
        recording.leaving(rs);
        rs.next();
        recording.ended();
        assertThat(joiner.get(30, java.util.concurrent.TimeUnit.SECONDS))
            .isEqualTo("joined joined");
      }
      assertThat(answers.joined()).isEqualTo(1);
    }
  }

  private static Connection postgresConnection() throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres", "postgres", "");
  }

  private static Answers answers(int maxRows) {
    return Answers.create("rows", new AnswerSettings(Duration.ofSeconds(5), Duration.ZERO,
        maxRows, 1 << 20), () -> 0L, (n, age, joined) -> new SQLWarning("stale"));
  }

  private static void readAll(Connection c, Answers answers, ReadKey key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(key.sql()); ResultSet rs = ps.executeQuery()) {
      Recording recording = answers.record(key, rs);
      while (true) {
        recording.leaving(rs);
        if (!rs.next()) {
          break;
        }
      }
      recording.ended();
    }
  }

  /** H2's types with a value of each, as SQL; the answered ones first. */
  static final Map<String, String> H2_MATRIX = Map.ofEntries(
      Map.entry("TINYINT", "CAST(7 AS TINYINT)"), Map.entry("SMALLINT", "CAST(300 AS SMALLINT)"),
      Map.entry("INTEGER", "CAST(70000 AS INTEGER)"),
      Map.entry("BIGINT", "CAST(9000000000 AS BIGINT)"),
      Map.entry("CHARACTER VARYING", "CAST('world' AS CHARACTER VARYING(64))"),
      Map.entry("CHARACTER(4)", "CAST('xy' AS CHARACTER(4))"),
      Map.entry("NUMERIC(5,2)", "CAST(12.50 AS NUMERIC(5,2))"),
      Map.entry("REAL", "CAST(1.5 AS REAL)"),
      Map.entry("DOUBLE PRECISION", "CAST(2.25 AS DOUBLE PRECISION)"),
      Map.entry("BOOLEAN", "TRUE"), Map.entry("BINARY VARYING", "X'01ff'"),
      Map.entry("DATE", "DATE '2024-02-29'"), Map.entry("TIME", "TIME '13:14:15.123456'"),
      Map.entry("TIMESTAMP", "TIMESTAMP '2024-02-29 13:14:15.123456'"),
      Map.entry("TIMESTAMP WITH TIME ZONE",
          "TIMESTAMP WITH TIME ZONE '2024-02-29 13:14:15.123456+02'"),
      Map.entry("UUID", "CAST('6f1c1f6e-8a8e-4b35-9d7c-0123456789ab' AS UUID)"),
      Map.entry("JSON", "JSON '{\"a\": 1}'"));

  /** The types H2 answers (the rest: results never kept). */
  static final List<String> H2_ANSWERED = List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT",
      "CHARACTER VARYING", "CHARACTER(4)");

  @ParameterizedTest(name = "H2, {0}, {1}")
  @MethodSource("h2Cells")
  void h2_everyGetter_answersWhatTheLiveResultReturned(String type, String route)
      throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:fidelity")) {
      String sql = "SELECT v FROM (VALUES (1, " + H2_MATRIX.get(type) + "), (2, CAST(NULL AS "
          + type + "))) t(k, v) ORDER BY k";
      Comparison got = compare(c, sql, route);
      if (H2_ANSWERED.contains(type)) {
        assertThat(got.kept).as("kept").isTrue();
        assertThat(got.answered).as("answered outcomes").isEqualTo(got.live);
      } else {
        assertThat(got.kept).as("a result with %s is never kept", type).isFalse();
      }
    }
  }

  static List<Arguments> h2Cells() {
    return H2_MATRIX.keySet().stream().sorted()
        .flatMap(type -> ROUTES.stream().map(route -> Arguments.of(type, route))).toList();
  }

  /**
   * Strings H2 reads as something else for some getter (a number, a boolean, a UUID, a date):
   * either kept and answered as H2 reads them, or not kept; the plain ones are kept.
   */
  @ParameterizedTest(name = "H2, the string \"{0}\"")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"42", " 1.5 ", "-7", "+7", "true",
      "TRUE", "t", "Yes", "y", "false", "F", "no", "N", "on", "off", "NaN", "Infinity",
      "infinity ", "abc", "deadbeef-dead-beef-dead-beefdeadbeef", "2024-02-29", "13:14:15", "",
      " ", "user-17", "world ", "Zürich", "e1", "x'01'"})
  void h2_aStringIsAnsweredAsH2ReadsIt_orNotKept(String value) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:fidelity")) {
      for (String type : List.of("CHARACTER VARYING(64)", "CHARACTER(40)")) {
        for (String route : ROUTES) {
          String sql = "SELECT v FROM (VALUES (1, CAST('" + value.replace("'", "''") + "' AS "
              + type + "))) t(k, v)";
          Comparison got = compare(c, sql, route);
          if (got.kept) {
            assertThat(got.answered).as("%s as %s, %s", value, type, route).isEqualTo(got.live);
          }
          if (List.of("user-17", "world ", "Zürich", "x'01'").contains(value)) {
            assertThat(got.kept).as("a plain string is kept: %s as %s", value, type).isTrue();
          }
        }
      }
    }
  }

  /**
   * The outcomes of every getter on the live result, and on its answer if it was kept, by
   * {@code route} ({@link #ROUTES}).
   */
  static Comparison compare(Connection c, String sql, String route) throws SQLException {
    AtomicLong now = new AtomicLong();
    Answers answers = Answers.create("fidelity", new AnswerSettings(Duration.ofSeconds(5),
        Duration.ZERO, 100, 1 << 20), now::get, (name, age, joined) -> new SQLWarning("stale"));
    ReadKey key = ReadKey.of(sql, new Parameters(), 0, "postgres", null, null);
    List<String> live = new ArrayList<>();
    List<String> answered = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
      Recording recording = answers.record(key, rs);
      while (true) {
        if (recording != null) {
          recording.leaving(rs);
        }
        if (!rs.next()) {
          break;
        }
        live.addAll(outcomes(rs));
      }
      if (recording != null) {
        recording.ended();
      }
      try (ResultSet answer = answer(answers, key, ps, recording, route.equals("shared"))) {
        if (answer == null) {
          return new Comparison(false, live, answered);
        }
        assertThat(answer.getStatement()).isSameAs(ps);
        assertThat(answer.getWarnings().getMessage()).isEqualTo("stale");
        assertThat(answer.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
        assertThat(answer.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
        assertThat(metaData(answer.getMetaData())).as("metadata")
            .isEqualTo(metaData(rs.getMetaData()));
        while (answer.next()) {
          answered.addAll(outcomes(answer));
        }
      }
    }
    return new Comparison(true, live, answered);
  }

  /**
   * The answer to {@code key}; if {@code shared}, made instead from the kept result encoded 3 s
   * after it was kept and decoded on another clock, as another instance would receive it.
   */
  private static ResultSet answer(Answers answers, ReadKey key, PreparedStatement ps,
      Recording recording, boolean shared) throws SQLException {
    ResultSet answer = answers.answer(key, ps, Priority.NORMAL);
    if (answer == null || !shared) {
      return answer;
    }
    answer.close();
    Kept kept = recording.toKept();
    byte[] bytes = KeptCodec.encode(kept, kept.keptAtNanos() + 3_000_000_000L);
    assertThat(bytes).as("encoded").isNotNull();
    Kept back = KeptCodec.decode(bytes, 50_000_000_000L);
    assertThat(back).as("decoded").isNotNull();
    assertThat(back.key()).isEqualTo(key);
    assertThat(back.dialect()).isSameAs(kept.dialect());
    assertThat(back.rows()).isEqualTo(kept.rows());
    assertThat(back.bytes()).as("size").isEqualTo(kept.bytes());
    assertThat(back.keptAtNanos()).isEqualTo(47_000_000_000L);
    return new AnsweredResultSet(back, back.dialect(), ps, new SQLWarning("stale"));
  }

  /** Every answer of the metadata of the one column, by reflection over the interface. */
  private static List<String> metaData(java.sql.ResultSetMetaData meta) {
    List<String> out = new ArrayList<>();
    for (java.lang.reflect.Method m : java.sql.ResultSetMetaData.class.getMethods()) {
      if (m.getParameterCount() == 1 && m.getParameterTypes()[0] == int.class) {
        String value;
        try {
          value = String.valueOf(m.invoke(meta, 1));
        } catch (ReflectiveOperationException e) {
          value = "throws";
        }
        out.add(m.getName() + " -> " + value);
      }
    }
    out.sort(null);
    return out;
  }

  record Comparison(boolean kept, List<String> live, List<String> answered) {}

  private interface Getter {
    Object get(ResultSet rs, boolean byLabel) throws SQLException;
  }

  private static final Calendar TOKYO = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));

  private static final Map<String, Getter> GETTERS = Map.ofEntries(
      Map.entry("getObject", (rs, l) -> l ? rs.getObject("v") : rs.getObject(1)),
      Map.entry("getObject(LocalDate)", (rs, l) -> as(rs, l, LocalDate.class)),
      Map.entry("getObject(LocalTime)", (rs, l) -> as(rs, l, LocalTime.class)),
      Map.entry("getObject(LocalDateTime)", (rs, l) -> as(rs, l, LocalDateTime.class)),
      Map.entry("getObject(OffsetDateTime)", (rs, l) -> as(rs, l, OffsetDateTime.class)),
      Map.entry("getObject(UUID)", (rs, l) -> as(rs, l, UUID.class)),
      Map.entry("getObject(String)", (rs, l) -> as(rs, l, String.class)),
      Map.entry("getObject(Long)", (rs, l) -> as(rs, l, Long.class)),
      Map.entry("getObject(Integer)", (rs, l) -> as(rs, l, Integer.class)),
      Map.entry("getObject(BigDecimal)", (rs, l) -> as(rs, l, BigDecimal.class)),
      Map.entry("getString", (rs, l) -> l ? rs.getString("v") : rs.getString(1)),
      Map.entry("getInt", (rs, l) -> l ? rs.getInt("v") : rs.getInt(1)),
      Map.entry("getLong", (rs, l) -> l ? rs.getLong("v") : rs.getLong(1)),
      Map.entry("getShort", (rs, l) -> l ? rs.getShort("v") : rs.getShort(1)),
      Map.entry("getByte", (rs, l) -> l ? rs.getByte("v") : rs.getByte(1)),
      Map.entry("getDouble", (rs, l) -> l ? rs.getDouble("v") : rs.getDouble(1)),
      Map.entry("getFloat", (rs, l) -> l ? rs.getFloat("v") : rs.getFloat(1)),
      Map.entry("getBigDecimal", (rs, l) -> l ? rs.getBigDecimal("v") : rs.getBigDecimal(1)),
      Map.entry("getBoolean", (rs, l) -> l ? rs.getBoolean("v") : rs.getBoolean(1)),
      Map.entry("getBytes", (rs, l) -> l ? rs.getBytes("v") : rs.getBytes(1)),
      Map.entry("getDate", (rs, l) -> l ? rs.getDate("v") : rs.getDate(1)),
      Map.entry("getTime", (rs, l) -> l ? rs.getTime("v") : rs.getTime(1)),
      Map.entry("getTimestamp", (rs, l) -> l ? rs.getTimestamp("v") : rs.getTimestamp(1)),
      Map.entry("getDate(cal)", (rs, l) -> l ? rs.getDate("v", TOKYO) : rs.getDate(1, TOKYO)),
      Map.entry("getTime(cal)", (rs, l) -> l ? rs.getTime("v", TOKYO) : rs.getTime(1, TOKYO)),
      Map.entry("getTimestamp(cal)",
          (rs, l) -> l ? rs.getTimestamp("v", TOKYO) : rs.getTimestamp(1, TOKYO)),
      Map.entry("findColumn(V)", (rs, l) -> rs.findColumn(l ? "V" : "v")),
      Map.entry("findColumn(missing)", (rs, l) -> rs.findColumn("missing")));

  private static Object as(ResultSet rs, boolean byLabel, Class<?> type) throws SQLException {
    return byLabel ? rs.getObject("v", type) : rs.getObject(1, type);
  }

  /** Each getter's outcome on the current row, by index and by label, with wasNull after it. */
  private static List<String> outcomes(ResultSet rs) {
    List<String> out = new ArrayList<>();
    for (String name : GETTERS.keySet().stream().sorted().toList()) {
      for (boolean byLabel : new boolean[] {false, true}) {
        out.add(name + (byLabel ? " by label" : " by index") + " -> "
            + outcome(rs, GETTERS.get(name), byLabel));
      }
    }
    return out;
  }

  private static String outcome(ResultSet rs, Getter getter, boolean byLabel) {
    String value;
    try {
      Object v = getter.get(rs, byLabel);
      value = v == null ? "null" : v.getClass().getName() + ":" + show(v);
    } catch (SQLException | RuntimeException e) {
      // A throw is a throw: pgjdbc's date parser throws ArrayIndexOutOfBoundsException for
      // getDate of a short non-date text, where the answer throws an SQLException.
      value = "throws";
    }
    try {
      return value + ", wasNull=" + rs.wasNull();
    } catch (SQLException e) {
      return value + ", wasNull throws";
    }
  }

  private static String show(Object v) {
    if (v instanceof byte[] b) {
      return Arrays.toString(b);
    }
    if (v instanceof java.util.Date d) {
      return v + "@" + d.getTime();
    }
    return v.toString();
  }
}
