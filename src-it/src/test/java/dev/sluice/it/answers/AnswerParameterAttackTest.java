package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.answers.AttackBench.Outcome;
import dev.sluice.it.support.Servers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Attacks on answers through a parameter the application changes after setting it (issue 38,
 * "the key moves after it is made"): the driver sent the value as it was when set, so the read's
 * identity must be that value. One admitted caller sets a value and changes its object before
 * executing; three refused callers set the changed value itself: they must not be answered the
 * admitted caller's rows, which belong to the value the database was sent.
 */
class AnswerParameterAttackTest {

  @BeforeAll
  static void schema() {
    Servers.postgres().execute(
        "drop table if exists atk_param",
        "create table atk_param(b bytea, t timestamp, d date, tm time, v text)",
        "insert into atk_param values ('\\x01', '2026-01-01 10:00', '2026-01-01', '10:00', 'one'),"
            + " ('\\x02', '2026-01-02 10:00', '2026-01-02', '11:00', 'two')");
  }

  /** Reads {@code sql} on {@code c}, its first parameter set by {@code setter}, at NORMAL. */
  private static Outcome readWith(Connection c, String sql, Setter setter) {
    return Outcome.of(() -> {
      try (PreparedStatement p = c.prepareStatement(sql)) {
        setter.set(p);
        try (ResultSet r = p.executeQuery()) {
          return AttackBench.rows(r);
        }
      }
    });
  }

  private void attack(String sql, Setter admittedSetsThenChanges, Setter changedValue)
      throws Exception {
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      Connection c1 = bench.connection();
      Connection[] victims = {bench.connection(), bench.connection(), bench.connection()};
      bench.trip();
      Outcome admitted = critical(() -> readWith(c1, sql, admittedSetsThenChanges));
      assertThat(admitted.rows()).as("the database was sent the value as set").isEqualTo("[one]");

      Outcome[] got = new Outcome[3];
      for (int i = 0; i < 3; i++) {
        got[i] = readWith(victims[i], sql, changedValue);
      }

      bench.closeFlag();
      for (int i = 0; i < 3; i++) {
        Outcome live = readWith(victims[i], sql, changedValue);
        assertThat(live.rows()).isEqualTo("[two]");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  @Test
  void bytes_changedAfterSetBytes_theChangedValueIsNotAnsweredTheSentOnesRows()
      throws Exception {
    attack("select v from atk_param where b = ?", p -> {
      byte[] key = {1};
      p.setBytes(1, key);
      key[0] = 2;
    }, p -> p.setBytes(1, new byte[] {2}));
  }

  @Test
  void timestamp_changedAfterSetTimestamp_theChangedValueIsNotAnsweredTheSentOnesRows()
      throws Exception {
    attack("select v from atk_param where t = ?", p -> {
      Timestamp at = Timestamp.valueOf("2026-01-01 10:00:00");
      p.setTimestamp(1, at);
      at.setTime(Timestamp.valueOf("2026-01-02 10:00:00").getTime());
    }, p -> p.setTimestamp(1, Timestamp.valueOf("2026-01-02 10:00:00")));
  }

  @Test
  void timestamp_changedAfterSetObject_theChangedValueIsNotAnsweredTheSentOnesRows()
      throws Exception {
    attack("select v from atk_param where t = ?", p -> {
      Timestamp at = Timestamp.valueOf("2026-01-01 10:00:00");
      p.setObject(1, at);
      at.setTime(Timestamp.valueOf("2026-01-02 10:00:00").getTime());
    }, p -> p.setObject(1, Timestamp.valueOf("2026-01-02 10:00:00")));
  }

  /** A {@code java.sql.Date} is a {@code java.util.Date}: as mutable. */
  @Test
  void date_changedAfterSetObject_theChangedValueIsNotAnsweredTheSentOnesRows()
      throws Exception {
    attack("select v from atk_param where d = ?", p -> {
      java.sql.Date day = java.sql.Date.valueOf("2026-01-01");
      p.setObject(1, day);
      day.setTime(java.sql.Date.valueOf("2026-01-02").getTime());
    }, p -> p.setObject(1, java.sql.Date.valueOf("2026-01-02")));
  }

  @Test
  void date_changedAfterSetDate_theChangedValueIsNotAnsweredTheSentOnesRows() throws Exception {
    attack("select v from atk_param where d = ?", p -> {
      java.sql.Date day = java.sql.Date.valueOf("2026-01-01");
      p.setDate(1, day);
      day.setTime(java.sql.Date.valueOf("2026-01-02").getTime());
    }, p -> p.setDate(1, java.sql.Date.valueOf("2026-01-02")));
  }

  @Test
  void time_changedAfterSetTime_theChangedValueIsNotAnsweredTheSentOnesRows() throws Exception {
    attack("select v from atk_param where tm = ?", p -> {
      Time at = Time.valueOf("10:00:00");
      p.setTime(1, at);
      at.setTime(Time.valueOf("11:00:00").getTime());
    }, p -> p.setTime(1, Time.valueOf("11:00:00")));
  }

  @Test
  void timestamp_changedAfterSetTimestampWithCalendar_theChangedValueIsNotAnswered()
      throws Exception {
    java.util.Calendar utc = java.util.Calendar.getInstance(
        java.util.TimeZone.getTimeZone("UTC"));
    String sql = "select v from atk_param where t = ?";
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      Connection c1 = bench.connection();
      Connection[] victims = {bench.connection(), bench.connection(), bench.connection()};
      bench.trip();
      Outcome admitted = critical(() -> readWith(c1, sql, p -> {
        Timestamp at = Timestamp.valueOf("2026-01-01 10:00:00");
        p.setTimestamp(1, at, utc);
        at.setTime(Timestamp.valueOf("2026-01-02 10:00:00").getTime());
      }));
      assertThat(admitted.rows()).isEqualTo("[one]");

      Outcome[] got = new Outcome[3];
      for (int i = 0; i < 3; i++) {
        got[i] = readWith(victims[i], sql,
            p -> p.setTimestamp(1, Timestamp.valueOf("2026-01-02 10:00:00"), utc));
      }

      bench.closeFlag();
      for (int i = 0; i < 3; i++) {
        Outcome live = readWith(victims[i], sql,
            p -> p.setTimestamp(1, Timestamp.valueOf("2026-01-02 10:00:00"), utc));
        assertThat(live.rows()).isEqualTo("[two]");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  interface Setter {
    void set(PreparedStatement p) throws SQLException;
  }
}
