package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.Calendar;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link MariaDbDialect}'s value coding, {@link MariaDbText}'s reading of statements and
 * {@link MariaDbCatalog}'s verdicts, without a server. {@code MariaDbFidelityTest} checks the
 * same getters against the live driver on a real MariaDB.
 */
class MariaDbDialectTest {
  private static final MariaDbDialect D = MariaDbDialect.INSTANCE;

  private static Dialect.Cell cell(Object object, String text, int type, String typeName) {
    return new Dialect.Cell(object, text, null, type, typeName);
  }

  @Test
  void bigintUnsigned_aboveLong_getLongThrows_getBigDecimalAndBigIntegerExact()
      throws SQLException {
    Dialect.Cell c = cell(new BigInteger("18446744073709551615"), "18446744073709551615",
        Types.BIGINT, "BIGINT UNSIGNED");
    assertThrows(SQLException.class, () -> D.getLong(c));
    assertThrows(SQLException.class, () -> D.getInt(c));
    assertThat(D.getBigDecimal(c)).isEqualTo(new BigDecimal("18446744073709551615"));
    assertThat(D.getObject(c, BigInteger.class)).isEqualTo(new BigInteger("18446744073709551615"));
    assertThat(D.getBoolean(c)).isTrue();
    assertThrows(SQLException.class, () -> D.getBytes(c));
  }

  @Test
  void decimal_truncatesTowardsZero_andItsBooleanIsItsIntValue() throws SQLException {
    Dialect.Cell c = cell(new BigDecimal("-12.50"), "-12.50", Types.DECIMAL, "DECIMAL");
    assertThat(D.getInt(c)).isEqualTo(-12);
    assertThat(D.getByte(c)).isEqualTo((byte) -12);
    assertThat(D.getBigDecimal(c)).isEqualTo(new BigDecimal("-12.50"));
    assertThat(D.getBoolean(cell(new BigDecimal("0.40"), "0.40", Types.DECIMAL, "DECIMAL")))
        .as("intValue() of 0.40 is 0").isFalse();
    assertThat(D.getBoolean(cell(0.4, "0.4", Types.DOUBLE, "DOUBLE"))).as("not \"0\"").isTrue();
    assertThrows(SQLException.class, () -> D.getDate(c, null));
  }

  @Test
  void aNull_readsAsTheDriverReadsNull() throws SQLException {
    Dialect.Cell c = cell(null, null, Types.INTEGER, "INTEGER");
    assertThat(D.getInt(c)).isZero();
    assertThat(D.getBoolean(c)).isFalse();
    assertThat(D.getBigDecimal(c)).isNull();
    assertThat(D.getBytes(c)).isNull();
    assertThat(D.getObject(c, Integer.class)).isNull();
  }

  @ParameterizedTest
  @CsvSource({"user-17, true", "Zürich, true", "{\"a\": 1}, true", "abc, false",
      "deadbeef-dead-beef-dead-beefdeadbeef, false", "42, false", "' x', false", "NaN, false",
      "Infinity, false", "'', false", "2024-02-29, false"})
  void aString_isKeptOnlyIfNoGetterParsesIt(String text, boolean kept) {
    assertThat(D.keeps(text, text, Types.VARCHAR, "VARCHAR")).isEqualTo(kept);
  }

  @Test
  void aDouble_beyondALong_isNotKept() {
    assertThat(D.keeps(1e300, "1e300", Types.DOUBLE, "DOUBLE")).isFalse();
    assertThat(D.keeps(-1e18, "-1e18", Types.DOUBLE, "DOUBLE")).isTrue();
    assertThat(D.answers(Types.REAL, "FLOAT")).as("FLOAT: text and binary disagree").isFalse();
    assertThat(D.answers(Types.BIT, "BIT")).isFalse();
    assertThat(MariaDbDialect.WITHOUT_TIME.answers(Types.DATE, "DATE")).isFalse();
    assertThat(D.answers(Types.DATE, "DATE")).isTrue();
  }

  @Test
  void datetime_readsInTheCalendarsZone_dateKeepsTheTimeOfDay() throws SQLException {
    Dialect.Cell c = cell(null, "2024-02-29 13:14:15.123456", Types.TIMESTAMP, "DATETIME");
    Dialect.Cell kept = new Dialect.Cell(new java.sql.Timestamp(0), c.text(), null,
        Types.TIMESTAMP, "DATETIME");
    Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
    assertThat(D.getTimestamp(kept, tokyo).getTime()).isEqualTo(1709180055123L);
    assertThat(D.getTimestamp(kept, tokyo).getNanos()).isEqualTo(123456000);
    assertThat(D.getDate(kept, tokyo).getTime()).as("not midnight").isEqualTo(1709180055123L);
    assertThat(D.getObject(kept, LocalDateTime.class))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123456000));
    assertThrows(SQLException.class, () -> D.getInt(kept));
    assertThat(D.keeps(kept.object(), "0000-00-00 00:00:00", Types.TIMESTAMP, "DATETIME"))
        .as("a zero date").isFalse();
    assertThat(D.keeps(kept.object(), "-01:00:00", Types.TIME, "TIME")).isFalse();
    assertThat(D.keeps(kept.object(), "13:14:15.123456", Types.TIME, "TIME"))
        .as("the binary protocol drops a TIME's microseconds").isFalse();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "select v from t|READ",
      "select @tenant := 'a'|SESSION_UNKNOWN",
      "set @tenant = 'a'|SESSION_UNKNOWN",
      "update t set v = @x|UNKNOWN",
      "use other|SESSION_UNKNOWN",
      "set time_zone = '+00:00'|SET time_zone='+00:00'",
      "set time_zone = '+00:00', sql_mode = ''|SESSION_UNKNOWN",
      "set time_zone = ?|SESSION_UNKNOWN",
      "set sql_mode = (select 'ANSI')|SESSION_UNKNOWN",
      "set names utf8mb4|SESSION_UNKNOWN",
      "set role app|SESSION_UNKNOWN",
      "insert into t values (1)|WRITE t",
      "insert into t values ('a\\\\'', 1)|UNKNOWN",
      "select 1 # c|UNKNOWN",
      "select /*!50000 1 */|UNKNOWN",
      "start transaction|BEGIN",
      "commit|END",
  })
  void mysqlStatements_areReadAsMysqlReadsThem(String sql, String effect) {
    assertThat(MariaDbText.classify(sql).toString()).isEqualTo(effect);
  }

  @ParameterizedTest
  @ValueSource(strings = {"get_lock", "release_lock", "last_insert_id", "rand", "uuid", "sleep",
      "found_rows", "row_count", "connection_id", "database", "user", "nextval", "sysdate",
      "benchmark", "no_such_function"})
  void sessionAndSideEffectBuiltIns_areNeverEligible(String name) {
    assertThat(MariaDbCatalog.builtInEligible(name)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"now", "current_timestamp", "curdate", "upper", "concat", "count",
      "coalesce", "in", "exists", "date_format", "json_extract"})
  void pureAndClockBuiltIns_areEligible(String name) {
    assertThat(MariaDbCatalog.builtInEligible(name)).isTrue();
  }

  @Test
  void storedFunctions_eligibleOnlyDeterministicAndNotWriting() {
    assertThat(MariaDbCatalog.eligible("YES", "NO SQL")).isTrue();
    assertThat(MariaDbCatalog.eligible("YES", "READS SQL DATA")).isTrue();
    assertThat(MariaDbCatalog.eligible("YES", "MODIFIES SQL DATA")).isFalse();
    assertThat(MariaDbCatalog.eligible("YES", "CONTAINS SQL")).isFalse();
    assertThat(MariaDbCatalog.eligible("NO", "NO SQL")).isFalse();
  }

  /**
   * A pool's connection over a tracing library's over the driver's: each unwraps one level (as
   * HikariCP returns the connection it holds), and the driver's own is reached, not the first.
   */
  @Test
  void theDriversConnection_isReachedThroughEveryWrapper() throws Exception {
    java.sql.Connection driver = wrapper(null);
    java.sql.Connection tracing = wrapper(driver);
    java.sql.Connection pooled = wrapper(tracing);
    assertThat(MariaDbCatalog.driversOwn(pooled)).isSameAs(driver);
    assertThat(MariaDbCatalog.driversOwn(driver)).isSameAs(driver);
    java.sql.Connection[] loop = new java.sql.Connection[1];
    loop[0] = (java.sql.Connection) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {java.sql.Connection.class},
        (self, m, a) -> m.getName().equals("isWrapperFor") ? true
            : m.getName().equals("unwrap") ? wrapper(loop[0]) : null);
    assertThat(MariaDbCatalog.driversOwn(loop[0])).as("a circle ends").isNotNull();
  }

  /** A connection that wraps {@code inner} (unwraps to it), or the driver's own when null. */
  private static java.sql.Connection wrapper(java.sql.Connection inner) {
    return (java.sql.Connection) java.lang.reflect.Proxy.newProxyInstance(
        MariaDbDialectTest.class.getClassLoader(), new Class<?>[] {java.sql.Connection.class},
        (self, m, a) -> switch (m.getName()) {
          case "isWrapperFor" -> inner != null;
          case "unwrap" -> inner == null ? self : inner;
          default -> null;
        });
  }

  /** MariaDB holds a function to none of its declarations: the body is what is judged. */
  @Test
  void aStoredFunctionsBody_isJudgedAsARead_onlyWhenItIsOneReturn() {
    assertThat(MariaDbCatalog.returned("return x * 2")).isEqualTo("SELECT  x * 2");
    assertThat(MariaDbCatalog.returned("  RETURN(select v from t where id = x)  "))
        .isEqualTo("SELECT (select v from t where id = x)");
    for (String body : new String[] {"begin insert into atk_log values (1); return 1; end",
        "begin return 1; end", "returns", "return", "", "   ", null}) {
      assertThat(MariaDbCatalog.returned(body)).as("%s", body)
          .isEqualTo(MariaDbCatalog.UNREADABLE);
    }
  }

  @Test
  void readText_withMysqlsLexer_seesTheLockBehindTwoMinusSigns() {
    String sql = "select a --1 from t for update";
    assertThat(ReadText.isRead(sql, dev.sluice.internal.sql.Lexer.MYSQL)).isFalse();
    assertThat(ReadText.isRead("select sql_calc_found_rows a from t",
        dev.sluice.internal.sql.Lexer.MYSQL)).isFalse();
    assertThat(ReadText.isRead("select a from t lock in share mode",
        dev.sluice.internal.sql.Lexer.MYSQL)).isFalse();
    assertThat(ReadText.isRead("select a from t where b = 'x'",
        dev.sluice.internal.sql.Lexer.MYSQL)).isTrue();
  }
}
