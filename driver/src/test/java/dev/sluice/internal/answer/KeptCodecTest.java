package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.util.PGmoney;
import org.postgresql.util.PGobject;

/**
 * {@link KeptCodec}: every carried class round-trips exactly, anything else is not shared, and
 * no input makes decoding throw or allocate beyond its size. That an answer from a decoded
 * result equals the live result, getter by getter, is {@code AnswerFidelityTest}'s "shared"
 * route.
 */
class KeptCodecTest {
  private static final long SECOND = 1_000_000_000L;

  /** One value of each carried class, and the edges of each. */
  static List<Object> values() {
    Timestamp nanos = Timestamp.valueOf("2024-02-29 13:14:15.123456789");
    Timestamp beforeEpoch = new Timestamp(-1_500);
    beforeEpoch.setNanos(999_999_999);
    return List.of(true, false, (byte) -7, (short) -300, 42, Integer.MIN_VALUE, Long.MAX_VALUE,
        Float.NaN, -0.0f, Float.MIN_VALUE, Double.NaN, -0.0d, Double.NEGATIVE_INFINITY,
        new BigDecimal("12.50"), new BigDecimal(BigInteger.valueOf(123), -5),
        new BigDecimal("-0.000000000000000000001"),
        new BigInteger("-123456789012345678901234567890"), BigInteger.ZERO, "", "plain",
        "a\uD83D\uDE00b\uD834\uDD1E", "Zürich ✓", "x".repeat(300), new byte[0],
        new byte[] {1, -1, 0}, Date.valueOf("2024-02-29"), new Time(-3_600_123L), nanos,
        beforeEpoch, UUID.fromString("6f1c1f6e-8a8e-4b35-9d7c-0123456789ab"),
        LocalDate.of(2024, 2, 29), LocalDate.MIN, LocalTime.of(13, 14, 15, 123_456_789),
        LocalTime.MAX, LocalDateTime.MAX, LocalDateTime.MIN,
        OffsetDateTime.of(2024, 2, 29, 13, 14, 15, 1, ZoneOffset.ofHoursMinutes(5, 45)),
        OffsetTime.of(23, 59, 59, 999_999_999, ZoneOffset.MIN),
        Instant.ofEpochSecond(-1, 999_999_999), Instant.MAX);
  }

  @ParameterizedTest(name = "{index}: {0}")
  @MethodSource("values")
  void aParameterOfEachClass_roundTrips_toAnEqualKeyWithTheSameHash(Object value)
      throws SQLException {
    Parameters p = new Parameters();
    p.setObject(1, value, Integer.MIN_VALUE, 0);
    ReadKey key = ReadKey.of("SELECT ?", p, 0, "app", null, null);

    Kept back = roundTrip(kept(key, 0, List.of(1)), 0);

    assertThat(back.key()).isEqualTo(key);
    assertThat(back.key().hashCode()).isEqualTo(key.hashCode());
    Object got = back.key().parameters().values()[0];
    assertThat(got).isExactlyInstanceOf(value.getClass()).isEqualTo(value);
    if (value instanceof Double d) {
      assertThat(Double.doubleToRawLongBits((Double) got))
          .isEqualTo(Double.doubleToRawLongBits(d));
    }
  }

  @ParameterizedTest(name = "{index}: {0}")
  @MethodSource("values")
  void aValueOfEachClass_roundTrips_asTheDriversObjectTextAndBytes(Object value)
      throws SQLException {
    Kept kept = kept(key(), 0, Arrays.asList(value, null));

    Kept back = roundTrip(kept, 0);

    assertThat(back.rows()).isEqualTo(1);
    assertThat(back.object(0, 1)).isExactlyInstanceOf(value.getClass()).isEqualTo(value);
    assertThat(back.text(0, 1)).isEqualTo(kept.text(0, 1));
    assertThat(back.bytes(0, 1)).isEqualTo(kept.bytes(0, 1));
    assertThat(back.object(0, 2)).isNull();
    assertThat(back.text(0, 2)).isNull();
    assertThat(back.bytes(0, 2)).isNull();
    assertThat(back.bytes()).as("size").isEqualTo(kept.bytes());
    assertThat(back.dialect()).isSameAs(H2Dialect.INSTANCE);
  }

  @Test
  void everySetter_extra_zone_andConnectionName_roundTrip() throws SQLException {
    Parameters p = new Parameters();
    List<Object> values = values();
    for (int i = 0; i < values.size(); i++) {
      p.setObject(i + 1, values.get(i), i % 3 == 0 ? Types.VARCHAR : Integer.MIN_VALUE, i);
    }
    int n = values.size();
    p.setNull(n + 1, Types.DATE);
    p.set(n + 2, Parameters.Setter.NSTRING, "ünï");
    p.set(n + 3, Parameters.Setter.TIMESTAMP, Timestamp.valueOf("2024-02-29 13:14:15.5"),
        Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo")));
    p.set(n + 4, Parameters.Setter.DATE, null, Calendar.getInstance());
    ReadKey key = ReadKey.of("SELECT * FROM t WHERE a = ?", p, 25, "app", "cat", "sch");

    Kept back = roundTrip(kept(key, 0, List.of(1)), 0);

    assertThat(back.key()).isEqualTo(key);
    assertThat(back.key().hashCode()).isEqualTo(key.hashCode());
    assertThat(back.key().parameters().values()[n + 2]).isInstanceOf(Zoned.class);
    assertThat(back.key().maxRows()).isEqualTo(25);
    assertThat(back.key().schema()).isEqualTo("sch");
  }

  @Test
  void aPgObject_roundTripsByItsTypeAndValue() throws SQLException {
    PGobject json = new PGobject();
    json.setType("jsonb");
    json.setValue("{\"a\": [1, \"ü\"]}");

    Kept back = roundTrip(kept(key(), 0, List.of(json)), 0);

    assertThat(back.object(0, 1)).isExactlyInstanceOf(PGobject.class).isEqualTo(json)
        .isNotSameAs(json);
  }

  @Test
  void aColumnPropertyThatThrew_throwsTheSameAfterTheRoundTrip() throws SQLException {
    Object[] answers = columns(2).answers();
    answers[1] = new SQLException("no name here", "0A000", 7); // column 1's NAME
    Kept kept = new Kept(key(), Columns.of(2, answers), H2Dialect.INSTANCE, new Object[0],
        new String[0], new byte[0][], 0, 0, 0);

    Columns back = roundTrip(kept, 0).columns();

    assertThatThrownBy(() -> back.getColumnName(1)).isExactlyInstanceOf(SQLException.class)
        .hasMessage("no name here").extracting(e -> ((SQLException) e).getSQLState() + "/"
            + ((SQLException) e).getErrorCode()).isEqualTo("0A000/7");
    Columns original = kept.columns();
    for (int c = 1; c <= 2; c++) {
      assertThat(back.getColumnLabel(c)).isEqualTo(original.getColumnLabel(c));
      assertThat(back.getColumnTypeName(c)).isEqualTo(original.getColumnTypeName(c));
      assertThat(back.getPrecision(c)).isEqualTo(original.getPrecision(c));
      assertThat(back.isNullable(c)).isEqualTo(original.isNullable(c));
      assertThat(back.isSigned(c)).isEqualTo(original.isSigned(c));
      assertThat(back.find("C" + c)).isEqualTo(c);
    }
  }

  @Test
  void columnAnswersNoDriverGives_areNoColumns() throws SQLException {
    Object[] answers = columns(1).answers();
    assertThat(Columns.of(1, answers)).isNotNull();
    assertThat(Columns.of(2, answers)).as("too few answers").isNull();
    Object[] precision = answers.clone();
    precision[5] = "12"; // PRECISION, an int
    assertThat(Columns.of(1, precision)).isNull();
    Object[] label = answers.clone();
    label[0] = null; // LABEL
    assertThat(Columns.of(1, label)).isNull();
  }

  @Test
  void aValueOfAClassNotCarried_isNotShared() throws SQLException {
    assertThat(KeptCodec.encode(kept(key(), 0, List.of(new Object())), 0)).isNull();
    assertThat(KeptCodec.encode(kept(key(), 0, List.of(new Date(0) {})), 0))
        .as("a subclass of a carried class").isNull();
    assertThat(KeptCodec.encode(kept(key(), 0, List.of(new PGmoney(1.5))), 0))
        .as("a subclass of PGobject").isNull();
    assertThat(KeptCodec.encode(kept(key(), 0, List.of("lone \uD800 surrogate")), 0))
        .as("a string UTF-8 cannot carry").isNull();
  }

  @Test
  void aParameterOrColumnPropertyOfAClassNotCarried_isNotShared() throws SQLException {
    Parameters p = new Parameters();
    p.set(1, Parameters.Setter.TIMESTAMP, new Timestamp(0) {});
    assertThat(KeptCodec.encode(kept(ReadKey.of("SELECT ?", p, 0, null, null, null), 0,
        List.of(1)), 0)).isNull();

    Object[] answers = columns(1).answers();
    answers[1] = new SQLFeatureNotSupportedException("a subclass");
    Kept kept = new Kept(key(), Columns.of(1, answers), H2Dialect.INSTANCE, new Object[0],
        new String[0], new byte[0][], 0, 0, 0);
    assertThat(KeptCodec.encode(kept, 0)).isNull();
  }

  @Test
  void aResultOverMaxBytes_isNotShared_oneJustUnder_is() throws SQLException {
    // The value is carried three times: as the object, its text and its bytes.
    String big = "x".repeat(KeptCodec.MAX_BYTES / 3 + 100);
    assertThat(KeptCodec.encode(kept(key(), 0, List.of(big)), 0)).isNull();

    String under = "x".repeat(KeptCodec.MAX_BYTES / 3 - 1_000);
    assertThat(roundTrip(kept(key(), 0, List.of(under)), 0).object(0, 1)).isEqualTo(under);
  }

  @Test
  void theAge_travels_notTheClock() throws SQLException {
    long encodedAt = 1_000 * SECOND;
    long decodedAt = -77 * SECOND; // another JVM's nanoTime: any origin
    Kept kept = kept(key(), encodedAt - 3 * SECOND, List.of(1));

    assertThat(roundTrip(kept, encodedAt, decodedAt).keptAtNanos())
        .isEqualTo(decodedAt - 3 * SECOND);
    assertThat(roundTrip(kept, encodedAt - 5 * SECOND, decodedAt).keptAtNanos())
        .as("kept 'in the future' of the encoding clock: age 0").isEqualTo(decodedAt);
  }

  @Test
  void emptyBytes_aWrongVersion_anUnknownDialect_orTag_decodeToNull() throws SQLException {
    byte[] valid = KeptCodec.encode(kept(key(), 0, Arrays.asList(5, null)), 0);
    assertThat(KeptCodec.decode(valid, 0)).isNotNull();

    assertThat(KeptCodec.decode(new byte[0], 0)).isNull();
    assertThat(KeptCodec.decode(null, 0)).isNull();
    assertThat(KeptCodec.decode(with(valid, 0, (byte) 1), 0)).as("version 1").isNull();
    assertThat(KeptCodec.decode(with(valid, 0, (byte) 3), 0)).as("version 3").isNull();
    assertThat(KeptCodec.decode(with(valid, 14, (byte) '3'), 0)).as("dialect H3").isNull();
    // The end is column 1's Integer (tag, 4 bytes), its text ("5") and bytes, then column 2's
    // three nulls.
    int objectTag = valid.length - 3 - (1 + 4 + 1) - (1 + 4 + 1) - (1 + 4);
    assertThat(valid[objectTag]).isEqualTo((byte) 4);
    assertThat(KeptCodec.decode(with(valid, objectTag, (byte) 99), 0)).as("tag 99").isNull();
    assertThat(KeptCodec.decode(Arrays.copyOf(valid, valid.length + 1), 0)).as("trailing byte")
        .isNull();
  }

  @Test
  void everyTruncation_decodesToNull() throws SQLException {
    List<Object> row = new ArrayList<>(values());
    PGobject json = new PGobject();
    json.setType("json");
    json.setValue("{}");
    row.add(json);
    row.add(null);
    byte[] valid = KeptCodec.encode(kept(key(), 0, row), 0);
    assertThat(KeptCodec.decode(valid, 0)).isNotNull();

    for (int length = 0; length < valid.length; length++) {
      assertThat(KeptCodec.decode(Arrays.copyOf(valid, length), 0)).as("%d bytes", length)
          .isNull();
    }
  }

  @Test
  void aLengthOrCountClaimingTwoGigabytes_decodesToNull_withoutAllocatingIt() {
    ByteBuffer name = ByteBuffer.allocate(13).put((byte) 1).putLong(0).putInt(Integer.MAX_VALUE);
    assertThat(KeptCodec.decode(name.array(), 0)).as("the dialect name's length").isNull();

    ByteBuffer params = ByteBuffer.allocate(64).put((byte) 1).putLong(0).putInt(2)
        .put("H2".getBytes(StandardCharsets.UTF_8)).putInt(1).put((byte) 'x')
        .putInt(Integer.MAX_VALUE);
    assertThat(KeptCodec.decode(params.array(), 0)).as("the parameter count").isNull();
  }

  @Test
  void randomBytes_decodeToNull_andMutatedEncodings_neverThrow() throws SQLException {
    Random random = new Random(20240229);
    for (int i = 0; i < 3_000; i++) {
      byte[] noise = new byte[random.nextInt(300)];
      random.nextBytes(noise);
      if (noise.length > 0 && random.nextBoolean()) {
        noise[0] = 1; // past the version check
      }
      assertThat(KeptCodec.decode(noise, 0)).as("case %d", i).isNull();
    }
    byte[] valid = KeptCodec.encode(kept(key(), 0, values()), 0);
    for (int i = 0; i < 3_000; i++) {
      byte[] mutated = valid.clone();
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        mutated[random.nextInt(mutated.length)] = (byte) random.nextInt();
      }
      KeptCodec.decode(mutated, 0); // a result or null, but no exception
    }
  }

  private static Kept roundTrip(Kept kept, long nowNanos) {
    return roundTrip(kept, nowNanos, nowNanos);
  }

  private static Kept roundTrip(Kept kept, long encodedAt, long decodedAt) {
    byte[] bytes = KeptCodec.encode(kept, encodedAt);
    assertThat(bytes).as("encoded").isNotNull();
    Kept back = KeptCodec.decode(bytes, decodedAt);
    assertThat(back).as("decoded").isNotNull();
    return back;
  }

  private static ReadKey key() {
    return ReadKey.of("SELECT a FROM t", null, 0, "app", null, null);
  }

  /** One row of {@code values}, each its text and its text's bytes, on H2's columns. */
  private static Kept kept(ReadKey key, long keptAtNanos, List<Object> values)
      throws SQLException {
    Columns columns = columns(values.size());
    int n = values.size();
    Object[] objects = values.toArray();
    String[] texts = new String[n];
    byte[][] raws = new byte[n][];
    long size = Kept.baseBytes(key, columns);
    for (int i = 0; i < n; i++) {
      Object v = objects[i];
      texts[i] = v == null ? null : v instanceof byte[] b ? Arrays.toString(b) : v.toString();
      raws[i] = texts[i] == null ? null : texts[i].getBytes(StandardCharsets.UTF_8);
      size += Kept.valueBytes(objects[i], texts[i], raws[i]);
    }
    return new Kept(key, columns, H2Dialect.INSTANCE, objects, texts, raws, 1, size,
        keptAtNanos);
  }

  /** The metadata of {@code n} integer columns {@code C1…Cn}, read from H2. */
  static Columns columns(int n) throws SQLException {
    String select = "SELECT " + IntStream.rangeClosed(1, n).mapToObj(i -> i + " AS c" + i)
        .collect(Collectors.joining(", "));
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:codec");
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery(select)) {
      return Columns.read(rs.getMetaData());
    }
  }

  private static byte[] with(byte[] bytes, int index, byte value) {
    byte[] copy = bytes.clone();
    copy[index] = value;
    return copy;
  }
}
