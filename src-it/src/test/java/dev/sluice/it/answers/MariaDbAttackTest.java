package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.criticalRun;
import static dev.sluice.it.answers.AttackBench.read;
import static dev.sluice.it.answers.AttackBench.readText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.it.answers.AttackBench.Outcome;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The attacks on answers, on a real MariaDB through MariaDB Connector/J, written as MySQL's
 * syntax lets an application or a hostile tenant write them: a transaction begun as text, another
 * database chosen by {@code USE}, a tenant held in a user variable behind a stored function, the
 * session's time zone, and side effects hidden in a {@code SELECT} (a lock, a sequence, a stored
 * function that declares {@code NO SQL} and writes, an executable comment, {@code --} not
 * followed by a blank). Each has one caller admitted and others the rate refuses
 * ({@link AttackBench}); a refused caller must be refused, or answered exactly what its own
 * connection reads live. Positive controls show that the same bench answers a plain read, so no
 * attack passes by answering nothing.
 *
 * <p>Runs only when {@code IT_SLUICE_MARIADB_URL} names a MariaDB, for example
 * {@code jdbc:mariadb://127.0.0.1:3306/test?user=root} (a user that may create databases and
 * functions); skipped otherwise. {@code MySqlAttackTest} runs the same through MySQL Connector/J.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MariaDbAttackTest {
  static final String ENV = "IT_SLUICE_MARIADB_URL";
  private static final String ITEMS = "select v from atk_items";
  private String url;

  /** The variable that names the server, and with its URL the driver. */
  String variable() {
    return ENV;
  }

  @BeforeAll
  void schema() throws SQLException {
    url = System.getenv(variable());
    assumeTrue(url != null && !url.isBlank(), variable() + " names no MariaDB");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      for (String sql : new String[] {
          "create database if not exists atk_ta", "create database if not exists atk_tb",
          "create or replace table atk_ta.atk_items(v varchar(20))",
          "insert into atk_ta.atk_items values ('a-row')",
          "create or replace table atk_tb.atk_items(v varchar(20))",
          "insert into atk_tb.atk_items values ('b-row')",
          "create or replace table atk_items(v varchar(20))",
          "insert into atk_items values ('committed')",
          "create or replace table atk_docs(tenant varchar(8), v varchar(20))",
          "insert into atk_docs values ('a', 'doc-a1'), ('a', 'doc-a2'), ('b', 'doc-b1')",
          "create or replace table atk_log(v int)",
          "create or replace table atk_times(t timestamp)",
          "insert into atk_times values ('2024-02-29 12:00:00')",
          "create or replace sequence atk_seq",
          // each declaration is the server's to take: none of them is checked
          "create or replace function atk_liar() returns int deterministic no sql"
              + " begin insert into atk_log values (1); return 1; end",
          "create or replace function atk_tenant() returns varchar(8) deterministic no sql"
              + " return @atk_tenant",
          "create or replace function atk_pure(x int) returns int deterministic no sql"
              + " return x * 2",
          "create or replace view atk_liar_view as select atk_liar() as v",
          "create or replace view atk_pure_view as select atk_pure(21) as doubled"}) {
        s.execute(sql);
      }
    }
  }

  /** Control: the bench answers a plain read on MariaDB, so what is refused below is refused. */
  @Test
  void aPlainRead_isAnswered_whatTheDatabaseReturned() throws Exception {
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      seen(c2);
      critical(() -> readText(c1, ITEMS));
      Outcome got = readText(c2, ITEMS);
      assertThat(got.answered()).as("%s", got).isTrue();
      assertThat(got.rows()).isEqualTo("[committed]");
    }
  }

  /** A transaction begun as text: its uncommitted rows reach nobody, not even after rollback. */
  @ParameterizedTest
  @ValueSource(strings = {"start transaction", "begin", "set autocommit = 0"})
  void aTransactionBegunAsText_itsRowsAreNeverAnsweredToOthers(String begin) throws Exception {
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection[] others = {bench.connection(), bench.connection(), bench.connection()};
      bench.trip();
      seen(others);
      criticalRun(c1, begin, "insert into atk_items values ('uncommitted')");
      Outcome inside = critical(() -> readText(c1, ITEMS));
      assertThat(inside.rows()).as("c1 reads its own rows").contains("uncommitted");
      Outcome inTransaction = readText(c1, ITEMS);
      Outcome[] got = {readText(others[0], ITEMS), readText(others[1], ITEMS), null};
      criticalRun(c1, "rollback");
      got[2] = readText(others[2], ITEMS);
      assertThat(inTransaction.answered()).as("c1 in its transaction: %s", inTransaction)
          .isFalse();

      bench.closeFlag();
      for (int i = 0; i < 3; i++) {
        Outcome live = readText(others[i], ITEMS);
        assertThat(live.rows()).isEqualTo("[committed]");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    } finally {
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("delete from atk_items where v = 'uncommitted'"); // had the attack won
      }
    }
  }

  /** {@code USE} as text: another database's rows are not answered. */
  @Test
  void anotherDatabase_chosenByUse_itsRowsAreNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      bench.trip();
      criticalRun(c1, "use atk_ta");
      criticalRun(c2, "use atk_tb");
      criticalRun(c3, "use atk_ta");
      seen(c2, c3);
      Outcome admitted = critical(() -> readText(c1, ITEMS));
      assertThat(admitted.rows()).isEqualTo("[a-row]");

      Outcome other = readText(c2, ITEMS);
      Outcome same = readText(c3, ITEMS);

      bench.closeFlag();
      assertNoLie("caller in atk_tb", other, readText(c2, ITEMS));
      assertNoLie("caller in atk_ta", same, readText(c3, ITEMS));
    }
  }

  /**
   * A tenant held in a user variable, read through a stored function that declares itself
   * {@code DETERMINISTIC NO SQL}: another tenant's rows are not answered.
   */
  @Test
  void aTenantInAUserVariable_behindAStoredFunction_isNotAnsweredAnotherTenantsRows()
      throws Exception {
    String docs = "select v from atk_docs where tenant = atk_tenant() order by v";
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      criticalRun(c1, "set @atk_tenant = 'a'");
      criticalRun(c2, "set @atk_tenant = 'b'");
      seen(c2);
      Outcome admitted = critical(() -> readText(c1, docs));
      assertThat(admitted.rows()).isEqualTo("[doc-a1; doc-a2]");

      Outcome got = readText(c2, docs);

      bench.closeFlag();
      Outcome live = readText(c2, docs);
      assertThat(live.rows()).isEqualTo("[doc-b1]");
      assertNoLie("tenant b", got, live);
    }
  }

  /** The session's time zone changes what a {@code TIMESTAMP} reads: not answered across. */
  @Test
  void theSessionsTimeZone_setAsText_isNotAnsweredAcross() throws Exception {
    String times = "select cast(t as char) from atk_times";
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      criticalRun(c1, "set time_zone = '+00:00'");
      criticalRun(c2, "set time_zone = '+05:00'");
      seen(c2);
      critical(() -> readText(c1, times));

      Outcome got = readText(c2, times);

      bench.closeFlag();
      assertNoLie("the caller at +05:00", got, readText(c2, times));
    }
  }

  /**
   * A side effect hidden in a read: the admitted caller runs it; a refused one must be refused,
   * never answered — an answer would skip the lock, the sequence or the write.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "select get_lock('atk_lock', 0)",
      "select nextval(atk_seq)",
      "select atk_liar()",
      "select v from atk_liar_view",
      "select v from atk_items for update",
      "select v from atk_items lock in share mode",
      "select 1 --1, get_lock('atk_dash', 0)",
      "select 1 /*!, get_lock('atk_bang', 0) */",
      "select last_insert_id()",
      "select uuid()"})
  void aSideEffectHiddenInARead_isNeverAnswered(String sql) throws Exception {
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      seen(c2);
      long written = logged();
      Outcome ran = critical(() -> readText(c1, sql));
      assertThat(ran.refused()).isFalse();

      Outcome got = readText(c2, sql);

      assertThat(got.answered()).as("%s answered: %s", sql, got).isFalse();
      if (sql.contains("liar")) {
        assertThat(logged()).as("the admitted call wrote; no other call ran").isEqualTo(
            written + 1);
      }
    }
  }

  /**
   * Control: a stored function whose body is one {@code RETURN} of a pure expression is answered,
   * read through a view (called directly, Sluice cannot tell what it did to the session, and
   * refuses for that alone).
   */
  @Test
  void aStoredFunctionWhoseBodyIsPure_isAnswered() throws Exception {
    String sql = "select doubled from atk_pure_view";
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      seen(c2);
      critical(() -> readText(c1, sql));
      Outcome got = readText(c2, sql);
      assertThat(got.answered()).as("%s", got).isTrue();
      assertThat(got.rows()).isEqualTo("[42]");
    }
  }

  /**
   * Control: a connection a pool has just validated ({@code isValid}: a ping, after which MySQL
   * Connector/J no longer knows the server's transaction flags) is answered all the same, by a
   * plain statement and by a server-prepared one (whose prepare clears them too).
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aConnectionJustPinged_isAnswered(boolean serverPrepared) throws Exception {
    String sql = "select v from atk_items where v <> ?";
    try (AttackBench bench = new AttackBench(serverPrepared(url, serverPrepared))) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      seen(c2);
      critical(() -> read(c1, sql, "x"));
      assertThat(c2.isValid(1)).isTrue();
      Outcome got = read(c2, sql, "x");
      assertThat(got.answered()).as("%s", got).isTrue();
      assertThat(got.rows()).isEqualTo("[committed]");
    }
  }

  /**
   * A transaction begun as text, then a ping: the flags the ping cleared are read again from the
   * server, which says the session is in a transaction; its own uncommitted row is not hidden
   * behind another's answer.
   */
  @ParameterizedTest
  @ValueSource(strings = {"begin", "set autocommit = 0"})
  void aTransactionBegunAsText_thenAPing_isNotAnswered(String begin) throws Exception {
    try (AttackBench bench = new AttackBench(url)) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      seen(c2);
      critical(() -> readText(c1, ITEMS));
      criticalRun(c2, begin, "insert into atk_items values ('uncommitted')");
      assertThat(c2.isValid(1)).isTrue();
      Outcome got = readText(c2, ITEMS);
      Outcome live = critical(() -> readText(c2, ITEMS));
      criticalRun(c2, "rollback", "set autocommit = 1");
      assertThat(live.rows()).as("c2 reads its own row").contains("uncommitted");
      assertThat(got.answered()).as("%s", got).isFalse();
      assertNoLie("c2", got, live);
    } finally {
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("delete from atk_items where v = 'uncommitted'"); // had the attack won
      }
    }
  }

  private static String serverPrepared(String url, boolean on) {
    return !on ? url : url + (url.contains("?") ? "&" : "?") + "useServerPrepStmts=true";
  }

  /**
   * One admitted read on each connection: Sluice learns a session from a statement it admits, and
   * a session it has not learned is never answered — an attack on it would pass for that alone.
   */
  private static void seen(Connection... connections) throws SQLException {
    for (Connection c : connections) {
      critical(() -> readText(c, "select 'seen'"));
    }
  }

  private long logged() throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from atk_log")) {
      r.next();
      return r.getLong(1);
    }
  }
}
