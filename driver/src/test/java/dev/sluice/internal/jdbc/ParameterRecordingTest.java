package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.WrapperFixture;
import dev.sluice.internal.answer.AnswerSettings;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Parameters;
import dev.sluice.internal.answer.ReadKey;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The generated setters of a prepared statement ({@code GenerateWrappers.PARAMETER_SETTERS}):
 * what they record is a read's identity, on a real driver (H2 in memory). Nothing is recorded
 * until answers are active; a setter outside the value types, or one the driver refused, makes
 * the statement ineligible until {@code clearParameters()}.
 */
class ParameterRecordingTest {
  private static final String SQL = "SELECT CAST(? AS VARCHAR)";

  private final WrapperFixture limiter = new WrapperFixture();
  private final Answers answers = Answers.create("params", new AnswerSettings(
      Duration.ofSeconds(5), Duration.ZERO, 100, 1L << 20), System::nanoTime,
      (name, age, joined) -> new SQLWarning());
  private Connection raw;
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    raw = DriverManager.getConnection("jdbc:h2:mem:");
    connection = Connections.wrap(raw, limiter.gate(), answers, 0, "app");
  }

  @AfterEach
  void close() throws SQLException {
    raw.close();
  }

  @FunctionalInterface
  private interface Setter {
    void set(PreparedStatement ps) throws SQLException;
  }

  private static Parameters parameters(PreparedStatement ps) {
    return ((PreparedStatementWrapper) ps).parameters;
  }

  /** The key of {@code SQL} with what {@code setter} set; {@code null}: not answerable. */
  private ReadKey key(Setter setter) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(SQL)) {
      assertThat(parameters(ps)).as("recording while answers are active").isNotNull();
      setter.set(ps);
      return ReadKey.of(SQL, parameters(ps), 0, "app", null, null);
    }
  }

  @Test
  void untilAReadIsRefused_nothingIsRecorded() throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(SQL)) {
      ps.setInt(1, 5);
      assertThat(parameters(ps)).as("answers on but not active: no allocation").isNull();
    }
    Connection off = Connections.wrap(raw, new WrapperFixture().gate());
    answers.limitingStarted();
    try (PreparedStatement ps = off.prepareStatement(SQL)) {
      assertThat(parameters(ps)).as("answers off").isNull();
    }
    try (PreparedStatement call = connection.prepareCall("CALL 1")) {
      assertThat(parameters((PreparedStatement) call)).as("never a callable statement").isNull();
    }
  }

  @Test
  void eachValueSetter_isRecorded_withItsSetter() throws SQLException {
    answers.limitingStarted();
    Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    List<Setter> setters = List.of(
        ps -> ps.setNull(1, Types.VARCHAR), ps -> ps.setNull(1, Types.INTEGER),
        ps -> ps.setBoolean(1, true), ps -> ps.setByte(1, (byte) 5),
        ps -> ps.setShort(1, (short) 5), ps -> ps.setInt(1, 5), ps -> ps.setLong(1, 5L),
        ps -> ps.setFloat(1, 5f), ps -> ps.setDouble(1, 5d),
        ps -> ps.setBigDecimal(1, BigDecimal.valueOf(5)), ps -> ps.setString(1, "5"),
        ps -> ps.setNString(1, "5"), ps -> ps.setBytes(1, new byte[] {5}),
        ps -> ps.setDate(1, Date.valueOf("2026-12-01")),
        ps -> ps.setDate(1, Date.valueOf("2026-12-01"), utc),
        ps -> ps.setTime(1, Time.valueOf("12:00:00")),
        ps -> ps.setTime(1, Time.valueOf("12:00:00"), utc),
        ps -> ps.setTimestamp(1, Timestamp.valueOf("2026-12-01 12:00:00")),
        ps -> ps.setTimestamp(1, Timestamp.valueOf("2026-12-01 12:00:00"), utc),
        ps -> ps.setObject(1, UUID.fromString("00000000-0000-0000-0000-000000000005")),
        ps -> ps.setObject(1, LocalDate.of(2026, 12, 1)), ps -> ps.setObject(1, "5", Types.VARCHAR),
        ps -> ps.setObject(1, BigDecimal.ONE, Types.NUMERIC, 2));
    List<ReadKey> keys = new java.util.ArrayList<>();
    for (Setter setter : setters) {
      ReadKey key = key(setter);
      assertThat(key).as("setter %d is recorded", keys.size()).isNotNull();
      assertThat(key(setter)).as("the same setter and value: the same read").isEqualTo(key);
      keys.add(key);
    }
    assertThat(keys).as("each setter or value is another read").doesNotHaveDuplicates();
    assertThat(key(ps -> ps.setNull(1, Types.VARCHAR, "VARCHAR")))
        .as("the type name is dropped").isEqualTo(key(ps -> ps.setNull(1, Types.VARCHAR)));
    assertThat(key(ps -> ps.setBytes(1, new byte[] {5})))
        .as("bytes by content").isEqualTo(key(ps -> ps.setBytes(1, new byte[] {5})));
    assertThat(key(ps -> ps.setInt(1, 6))).isNotEqualTo(key(ps -> ps.setInt(1, 5)));
  }

  @Test
  void aStreamLobArrayOrOtherObject_makesTheReadIneligible_untilClearParameters()
      throws SQLException {
    answers.limitingStarted();
    List<Setter> ineligible = List.of(
        ps -> ps.setBinaryStream(1, new ByteArrayInputStream(new byte[] {5})),
        ps -> ps.setCharacterStream(1, new StringReader("5")),
        ps -> ps.setClob(1, new StringReader("5")),
        ps -> ps.setAsciiStream(1, new ByteArrayInputStream(new byte[] {5}), 1),
        ps -> ps.setObject(1, new StringBuilder("5")),
        ps -> ps.setObject(1, "5", JDBCType.VARCHAR),
        ps -> ps.setArray(1, raw.createArrayOf("INTEGER", new Object[] {5})));
    for (Setter setter : ineligible) {
      assertThat(key(ps -> {
        setter.set(ps);
        ps.setInt(1, 5); // a later value setter does not make it eligible again
      })).isNull();
    }
    assertThat(key(ps -> {
      ps.setClob(1, new StringReader("5"));
      ps.clearParameters();
      ps.setInt(1, 5);
    })).isEqualTo(key(ps -> ps.setInt(1, 5)));
  }

  @Test
  void aSetterTheDriverRefuses_leavesTheValueUnknown_soTheReadIsIneligible()
      throws SQLException {
    answers.limitingStarted();
    assertThat(key(ps -> {
      assertThatThrownBy(() -> ps.setInt(2, 5)).isInstanceOf(SQLException.class);
      ps.setInt(1, 5);
    })).isNull();
  }
}
