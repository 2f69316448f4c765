package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.StaleResultWarning;
import dev.sluice.it.support.Servers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 38, items 1-3: an answer never stands for a read that is not a pure read of committed
 * data — the attacks, on the real PostgreSQL. Each runs the same SQL from four callers on four
 * connections while limiting: one admitted (the first, by the burst; its result kept if
 * eligible), three that Sluice refuses — and that must then be refused, not answered from the
 * first, whenever the first's result is not what they would read themselves: a transaction's
 * uncommitted rows, a value a function drew or a lock it took for someone else, a notification
 * that was never sent. Before the fix every attack here was answered (see the report of
 * issue 38); {@link #pureReads_areStillAnswered} shows the fix keeps the common case.
 *
 * <p>The budget is 0.001/s with a burst of 200 of which NORMAL sees 20: nothing refills during a
 * test, whatever the machine's load. Each caller's session is first read by an admitted
 * {@code CRITICAL select 1} (Sluice answers no session it has not read), then NORMAL's part is
 * spent, so the callers after the first are refused by the rate.
 */
class AnswerTruthTest {
  private static final BreakerFlag.Manual FLAG = BreakerFlag.manual();
  private static HikariDataSource pool;
  private static int budgets;

  private RateLimitedDataSource sluice;
  private final List<Connection> open = new ArrayList<>();
  /** The answers the spending of NORMAL's part got (its own {@code select 1}): not the test's. */
  private long drainAnswered;

  @BeforeAll
  static void start() throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setPoolName("it-truth");
    config.setJdbcUrl(Servers.postgres().jdbcUrl());
    config.setMaximumPoolSize(8);
    config.setAutoCommit(true);
    pool = new HikariDataSource(config);
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS it_truth_app CASCADE");
      s.execute("DROP TABLE IF EXISTS it_truth_t, it_truth_log CASCADE");
      s.execute("DROP SEQUENCE IF EXISTS it_truth_seq");
      s.execute("CREATE TABLE it_truth_t (id int PRIMARY KEY, v text)");
      s.execute("CREATE TABLE it_truth_log (msg text)");
      s.execute("CREATE SEQUENCE it_truth_seq");
      s.execute("CREATE SCHEMA it_truth_app");
      s.execute("CREATE FUNCTION it_truth_app.draw() RETURNS bigint VOLATILE LANGUAGE sql"
          + " AS $$ SELECT nextval('it_truth_seq') $$");
      s.execute("CREATE FUNCTION it_truth_note(text) RETURNS int VOLATILE LANGUAGE sql"
          + " AS $$ INSERT INTO it_truth_log(msg) VALUES ($1) RETURNING 1 $$");
      s.execute("CREATE FUNCTION it_truth_stamp(it_truth_t) RETURNS bigint VOLATILE"
          + " LANGUAGE sql AS $$ SELECT nextval('it_truth_seq') $$");
      s.execute("CREATE FUNCTION it_truth_double(int) RETURNS int IMMUTABLE LANGUAGE sql"
          + " AS $$ SELECT $1 * 2 $$");
      s.execute("CREATE VIEW it_truth_draws AS SELECT nextval('it_truth_seq') AS n");
      s.execute("CREATE VIEW it_truth_draws_again AS SELECT n FROM it_truth_draws");
      s.execute("CREATE VIEW it_truth_clock AS SELECT id, clock_timestamp() AS at"
          + " FROM it_truth_t");
      s.execute("CREATE VIEW it_truth_pure AS SELECT id, upper(v) AS v, now() AS at"
          + " FROM it_truth_t");
    }
  }

  @AfterAll
  static void stop() {
    FLAG.reset();
    if (pool != null) {
      pool.close();
    }
  }

  @BeforeEach
  void rows() throws SQLException {
    FLAG.reset();
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("DELETE FROM it_truth_t");
      s.execute("INSERT INTO it_truth_t VALUES (1, 'committed'), (2, 'two')");
      s.execute("SELECT pg_advisory_unlock_all()");
    }
    sluice = budget(1);
  }

  @AfterEach
  void close() throws SQLException {
    FLAG.reset();
    for (Connection c : open) {
      try (Statement s = c.createStatement()) {
        s.execute("ROLLBACK"); // the flag closed: passes
      } catch (SQLException e) {
        // it was not in a transaction
      }
      c.close();
    }
    open.clear();
    sluice.close();
    // A case may change its session (set_config('app.tenant', …) among the impure reads): the
    // next case starts on sessions of its own, not on one a tenant was set on.
    pool.getHikariPoolMXBean().softEvictConnections();
  }

  private RateLimitedDataSource budget(int burst) throws SQLException {
    if (sluice != null) {
      sluice.close();
    }
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "60s");
    p.setProperty("sluice.stale.wait", "0");
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.jmx", "false");
    // NORMAL sees a tenth of the burst; CRITICAL (the warm-ups) all of it
    p.setProperty("sluice.reserve", "0.9");
    return RateLimitedDataSource.builder(unclosable(pool)).name("it-truth-" + ++budgets)
        .budget(0.001).burst(200 * burst).breakerFlag(FLAG).properties(p).build();
  }

  private static javax.sql.DataSource unclosable(javax.sql.DataSource pool) {
    return (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
        AnswerTruthTest.class.getClassLoader(), new Class<?>[] {javax.sql.DataSource.class},
        (proxy, method, args) -> {
          try {
            return method.invoke(pool, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private Connection connection() throws SQLException {
    Connection c = sluice.getConnection();
    open.add(c);
    return c;
  }

  /**
   * A connection whose session Sluice has read in this outage: an admitted {@code CRITICAL}
   * {@code select 1} (a session Sluice has not read is never answered, nor kept from).
   */
  private Connection warmed() throws SQLException {
    Connection c = connection();
    warm(c);
    return c;
  }

  private static void warm(Connection c) throws SQLException {
    try {
      Priority.CRITICAL.call(() -> read(c, "select 1"));
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Spends NORMAL's part of the burst: a NORMAL read is refused from now. */
  private void refuseNormalFromNow() throws SQLException {
    Connection spare = connection();
    for (int i = 0; i < 1_000; i++) {
      Outcome o = read(spare, "select 1");
      if (o.refused() || o.answered()) { // refused by the rate (answered: an earlier one kept)
        drainAnswered = sluice.stats().answered();
        return;
      }
    }
    throw new AssertionError("the rate never refused a NORMAL read");
  }

  /** What a caller got: the first column of the first row, or how it was refused. */
  private record Outcome(String value, boolean answered, boolean refused) {
    @Override
    public String toString() {
      return refused ? "refused" : (answered ? "answered " : "read ") + value;
    }
  }

  private static Outcome read(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      String value = rs.next() ? rs.getString(1) : null;
      while (rs.next()) {
        // read to its end, so that an admitted read is kept
      }
      return new Outcome(value, rs.getWarnings() instanceof StaleResultWarning, false);
    } catch (RateLimitExceededException e) {
      return new Outcome(null, false, true);
    }
  }

  /**
   * The four callers: the first admitted (kept if eligible), the three others refused by the
   * rate; returns the three others' outcomes.
   */
  private List<Outcome> fourCallers(String sql) throws SQLException {
    FLAG.trip();
    Connection firstCaller = warmed();
    List<Connection> callers = List.of(warmed(), warmed(), warmed());
    Outcome first = read(firstCaller, sql);
    assertThat(first.refused()).as("the first caller is admitted by the burst").isFalse();
    assertThat(first.answered()).isFalse();
    refuseNormalFromNow();
    List<Outcome> others = new ArrayList<>();
    for (Connection c : callers) {
      others.add(read(c, sql));
    }
    return others;
  }

  private void assertRefusedNotAnswered(String sql) throws SQLException {
    List<Outcome> others = fourCallers(sql);
    assertThat(others).as("%s: the three refused callers", sql)
        .allMatch(Outcome::refused, "refused, not answered the first caller's result");
    assertThat(sluice.stats().answered() - drainAnswered).isZero();
  }

  // --- 1. transactions as the server sees them ---

  @ParameterizedTest
  @ValueSource(strings = {"BEGIN", "START TRANSACTION", "begin isolation level repeatable read",
      "/* a /* nested */ comment */ BEGIN", "-- a comment ended by a carriage return\rBEGIN"})
  void aTransactionBegunAsText_itsUncommittedReadIsNeitherKeptNorAnswered_alsoAfterRollback(
      String begin) throws SQLException {
    Connection writer = connection();
    try (Statement s = writer.createStatement()) {
      s.execute(begin); // the flag closed: all of it passes
      s.execute("UPDATE it_truth_t SET v = 'uncommitted' WHERE id = 1");
    }
    String sql = "SELECT v FROM it_truth_t WHERE id = 1";
    FLAG.trip();
    assertThat(read(writer, sql).value()).isEqualTo("uncommitted");
    Connection c2 = warmed();
    Connection c3 = warmed();
    Connection c4 = warmed();
    refuseNormalFromNow();

    Outcome during = read(c2, sql);
    try (Statement s = ((Connection) writer.unwrap(org.postgresql.PGConnection.class))
        .createStatement()) {
      s.execute("ROLLBACK"); // on the same session, past the limit
    }
    Outcome after1 = read(c3, sql);
    Outcome after2 = read(c4, sql);

    assertThat(List.of(during, after1, after2)).as("uncommitted, then rolled back")
        .allMatch(Outcome::refused, "refused, never answered 'uncommitted'");
    assertThat(sluice.stats().answered() - drainAnswered).isZero();
  }

  @Test
  void aTransactionBegunAsText_readsItsOwnUpdate_notTheValueKeptBeforeIt() throws SQLException {
    Connection writer = connection();
    try (Statement s = writer.createStatement()) {
      s.execute("BEGIN");
      s.execute("UPDATE it_truth_t SET v = 'mine' WHERE id = 1");
    }
    String sql = "SELECT v FROM it_truth_t WHERE id = 1";
    FLAG.trip();
    Outcome other = read(warmed(), sql); // admitted: the committed value, kept
    assertThat(other.value()).isEqualTo("committed");
    Connection c3 = warmed();
    Connection c4 = warmed();
    refuseNormalFromNow();

    Outcome own = read(writer, sql);
    Outcome third = read(c3, sql);
    Outcome fourth = read(c4, sql);

    assertThat(own.refused()).as("the transaction's own read: %s", own).isTrue();
    assertThat(List.of(third, fourth)).as("outside it, the committed value may be answered")
        .allMatch(o -> o.answered() && "committed".equals(o.value()));
  }

  /** The session's own state: a transaction begun, or failed, where Sluice could not see it. */
  @ParameterizedTest
  @ValueSource(strings = {"BEGIN", "BEGIN; SELECT 1 / 0"})
  void aTransactionSluiceNeverSaw_isNoPlaceForAnAnswer(String past) throws SQLException {
    String sql = "SELECT v FROM it_truth_t WHERE id = 2";
    FLAG.trip();
    assertThat(read(warmed(), sql).value()).isEqualTo("two"); // admitted and kept
    Connection session = warmed(); // known to Sluice, then changed where Sluice cannot see
    Connection outsider = warmed();
    refuseNormalFromNow();
    try (Statement s = ((Connection) session.unwrap(org.postgresql.PGConnection.class))
        .createStatement()) {
      s.execute(past); // on the same session, past Sluice
    } catch (SQLException expected) {
      // division by zero: the transaction is aborted, every statement fails until it ends
    }

    Outcome inside = read(session, sql);
    Outcome outside = read(outsider, sql);

    assertThat(inside.refused()).as("the read inside it: %s", inside).isTrue();
    assertThat(outside.answered()).as("outside it: %s", outside).isTrue();
  }

  // --- 2. a read is a read by the database's own knowledge ---

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT \"nextval\"('it_truth_seq')",
      "SELECT pg_catalog.\"nextval\"('it_truth_seq')",
      "SELECT \"pg_try_advisory_lock\"(43)",
      "SELECT 1 AS one -- a comment ended by a carriage return\r, nextval('it_truth_seq')",
      "SELECT /* outer /* inner */ it's */ nextval('it_truth_seq') -- '",
      "SELECT $\u00a0$x' $\u00a0$ AS a, nextval('it_truth_seq') AS b -- '",
      "SELECT (pg_notify('it_truth', 'sent') IS NULL) AS sent",
      "SELECT set_config('app.tenant', 'b', false)",
      "SELECT txid_current()",
      "SELECT 'xid ' || pg_current_xact_id()",
      "SELECT clock_timestamp()",
      "SELECT timeofday()",
      "SELECT \"random\"()",
      "SELECT random_normal()",
      "SELECT \"gen_random_uuid\"()",
      "SELECT pg_backend_pid()",
      "SELECT current_setting('application_name')",
      "SELECT current_user::text",
      "SELECT count(*) FROM it_truth_t TABLESAMPLE BERNOULLI (50)",
      "SELECT n FROM it_truth_draws",
      "SELECT n FROM it_truth_draws_again",
      "SELECT at FROM it_truth_clock WHERE id = 1",
      "SELECT it_truth_note('sent')",
      "SELECT it_truth_app.draw()",
      "SELECT \"it_truth_app\" . \"draw\" ( )",
      "SELECT t.it_truth_stamp FROM it_truth_t t WHERE id = 1",
  })
  void aReadThatCallsSomethingImpure_isNeverAnswered(String sql) throws SQLException {
    assertRefusedNotAnswered(sql);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT v FROM it_truth_t WHERE id = 1",
      "WITH x(a) AS (SELECT v FROM it_truth_t) SELECT a FROM x ORDER BY a",
      "SELECT count(*), coalesce(max(v), 'none') FROM it_truth_t WHERE EXISTS (SELECT 1)",
      "SELECT extract(year FROM now()), date_trunc('day', now())",
  })
  void pureReads_areStillAnswered(String sql) throws SQLException {
    List<Outcome> others = fourCallers(sql);
    assertThat(others).as("%s: the three refused callers", sql).allMatch(Outcome::answered);
  }

  /**
   * Pure reads that call a stable, time-like function ({@code now()}, directly or through a
   * view) or only seem to call something impure (the names are inside strings and comments).
   * These were once disabled: after the other answer classes in one JVM every second case was
   * refused. The cause was this class's own: its {@code set_config('app.tenant', 'b', false)}
   * case left its pooled session with a tenant, and once a row-security policy reads
   * {@code app.tenant} (as {@code AnswerSessionAttackTest} makes one) that session's reads are
   * rightly no answer for sessions without it. Each case now starts on new sessions.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT now(), current_date, lower(v) FROM it_truth_t WHERE id IN (1, 2)",
      "SELECT v FROM it_truth_pure WHERE id = 1",
      "SELECT E'it\\'s' || $$ nextval('it_truth_seq') $$ /* random() */ -- clock_timestamp()",
  })
  void pureReadsOfNowOrOfNamesInStrings_areStillAnswered(String sql) throws SQLException {
    List<Outcome> others = fourCallers(sql);
    assertThat(others).as("%s: the three refused callers", sql).allMatch(Outcome::answered);
  }

  /**
   * The application's own {@code IMMUTABLE} function: the catalog calls it pure, and the write
   * fences take it at its word (no write), so the read is kept and answered — as the
   * application's {@code VOLATILE} functions above are not.
   */
  @Test
  void aReadCallingTheApplicationsOwnImmutableFunction_isAnswered() throws SQLException {
    List<Outcome> others = fourCallers("SELECT it_truth_double(21)");
    assertThat(others).as("the three refused callers").allMatch(Outcome::answered);
    assertThat(others.get(0).value()).isEqualTo("42");
  }

}
