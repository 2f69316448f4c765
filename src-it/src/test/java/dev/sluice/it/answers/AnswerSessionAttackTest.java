package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.criticalRun;
import static dev.sluice.it.answers.AttackBench.read;
import static dev.sluice.it.answers.AttackBench.readText;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.answers.AttackBench.Outcome;
import dev.sluice.it.support.Servers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Attacks on answers through the session (issue 38, "another tenant's rows"), on the real
 * PostgreSQL: each has four callers of the same SQL, one admitted and three that the rate refuses
 * ({@link AttackBench}); a refused caller must be refused, or answered exactly what its own
 * connection reads live. Each session is changed as SQL text, the way an application does it.
 */
class AnswerSessionAttackTest {
  private static final String ITEMS = "select v from atk_items";
  private static final String DOCS = "select v from atk_docs order by v";
  private static final String SET_TENANT = "select set_config('app.tenant', ?, false)";

  @BeforeAll
  static void schema() {
    Servers.postgres().execute(
        "drop schema if exists atk_ta cascade", "drop schema if exists atk_tb cascade",
        "create schema atk_ta", "create schema atk_tb",
        "create table if not exists public.atk_items(v text)", "delete from public.atk_items",
        "insert into public.atk_items values ('public-row')",
        "create table atk_ta.atk_items(v text)", "insert into atk_ta.atk_items values ('a-row')",
        "create table atk_tb.atk_items(v text)", "insert into atk_tb.atk_items values ('b-row')",
        "do $$ begin create role atk_app login; exception when duplicate_object then null; end $$",
        "do $$ begin create role atk_nogrant login; exception when duplicate_object then null;"
            + " end $$",
        "grant usage on schema atk_ta, atk_tb to atk_app",
        "drop table if exists atk_docs",
        "create table atk_docs(tenant text, v text)",
        "insert into atk_docs values ('a', 'doc-a1'), ('a', 'doc-a2'), ('b', 'doc-b1')",
        "grant select on atk_docs to atk_app",
        "alter table atk_docs enable row level security",
        "create policy atk_tenant on atk_docs using (tenant = current_setting('app.tenant', true))");
  }

  private static String url() {
    return Servers.postgres().jdbcUrl();
  }

  private static String appUrl() {
    return url().replace("user=postgres", "user=atk_app");
  }

  @Test
  void searchPath_setAsSql_anotherSchemasRowsAreNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      criticalRun(c1, "set search_path = atk_ta");
      criticalRun(c2, "set search_path = atk_tb");
      criticalRun(c3, "set search_path to atk_tb, public");
      criticalRun(c4, "set search_path = public");
      for (Connection c : new Connection[] {c2, c3, c4}) {
        critical(() -> readText(c, "select 1")); // each session read once, admitted
      }
      Outcome admitted = critical(() -> read(c1, ITEMS));
      assertThat(admitted.rows()).isEqualTo("[a-row]");

      Outcome[] got = {read(c2, ITEMS), read(c3, ITEMS), read(c4, ITEMS)};

      bench.closeFlag();
      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], ITEMS);
        assertThat(live.rows()).isNotEqualTo("[a-row]");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  /** The same search path as the admitted caller's is answered: the key is not merely larger. */
  @Test
  void searchPath_theSameAsTheAdmittedCallers_isAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      criticalRun(c1, "set search_path = atk_ta");
      criticalRun(c2, "set search_path = atk_ta");
      critical(() -> readText(c2, "select 1"));
      critical(() -> readText(c1, "select 1"));
      critical(() -> read(c1, ITEMS));

      Outcome got = read(c2, ITEMS);

      assertThat(got.answered()).as("%s", got).isTrue();
      assertThat(got.rows()).isEqualTo("[a-row]");
    }
  }

  /** The session was set while the flag was closed, before Sluice looked at any statement. */
  @Test
  void searchPath_setBeforeTheFlagOpened_isNotAnsweredAnotherSchemasRows() throws Exception {
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection[] victims = {bench.connection(), bench.connection(), bench.connection()};
      for (Connection v : victims) {
        try (var s = v.createStatement()) {
          s.execute("set search_path = atk_tb");
        }
      }
      bench.trip();
      Outcome admitted = critical(() -> read(c1, ITEMS));
      assertThat(admitted.rows()).isEqualTo("[public-row]");

      Outcome[] got = new Outcome[3];
      for (int i = 0; i < 3; i++) {
        got[i] = read(victims[i], ITEMS);
      }

      bench.closeFlag();
      for (int i = 0; i < 3; i++) {
        assertNoLie("caller " + (i + 2), got[i], read(victims[i], ITEMS));
      }
    }
  }

  @Test
  void rowLevelSecurity_keyedBySetAppTenant_anotherTenantsRowsAreNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      criticalRun(c1, "set app.tenant = 'a'");
      criticalRun(c2, "set app.tenant = 'b'");
      criticalRun(c3, "set app.tenant to 'b'");
      criticalRun(c4, "set session app.tenant = 'nobody'");
      for (Connection c : new Connection[] {c2, c3, c4}) {
        critical(() -> readText(c, "select 1"));
      }
      assertThat(critical(() -> read(c1, DOCS)).rows()).isEqualTo("[doc-a1; doc-a2]");

      Outcome[] got = {read(c2, DOCS), read(c3, DOCS), read(c4, DOCS)};

      bench.closeFlag();
      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        assertNoLie("caller " + (i + 2), got[i], read(victims[i], DOCS));
      }
    }
  }

  /**
   * The pooled pattern: each request sets its tenant with {@code set_config} on a connection the
   * pool lent it, then reads. The {@code set_config} must run (never be answered), and a read
   * must never be answered another tenant's rows.
   */
  @Test
  void rowLevelSecurity_pooledSetConfigAtEachRequest_setConfigRunsAndNoOtherTenantsRows()
      throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      // earlier requests on each pooled connection
      critical(() -> setTenant(c2, "b"));
      critical(() -> setTenant(c3, "b"));
      critical(() -> setTenant(c4, "b"));
      for (Connection c : new Connection[] {c2, c3, c4}) {
        critical(() -> read(c, DOCS));
      }
      // tenant a's request, admitted
      assertThat(critical(() -> setTenant(c1, "a")).rows()).isEqualTo("[a]");
      assertThat(critical(() -> read(c1, DOCS)).rows()).isEqualTo("[doc-a1; doc-a2]");

      // tenant a's requests on connections that served tenant b: set_config, refused or run
      Outcome[] set = {setTenant(c2, "a"), setTenant(c3, "a")};
      // a request of tenant b that reads without setting again (its session says b)
      Outcome read4 = read(c4, DOCS);

      bench.closeFlag();
      Connection[] setters = {c2, c3};
      for (int i = 0; i < 2; i++) {
        assertThat(set[i].answered()).as("set_config answered to caller %s", i + 2).isFalse();
        String tenant = read(setters[i], "select current_setting('app.tenant')").rows();
        assertThat(set[i].refused() || tenant.equals("[a]"))
            .as("caller %s's set_config %s, its session's tenant %s", i + 2, set[i], tenant)
            .isTrue();
      }
      assertNoLie("caller 4", read4, read(c4, DOCS));
    }
  }

  private static Outcome setTenant(Connection c, String tenant) {
    return Outcome.of(() -> {
      try (PreparedStatement p = c.prepareStatement(SET_TENANT)) {
        p.setString(1, tenant);
        try (ResultSet r = p.executeQuery()) {
          return AttackBench.rows(r);
        }
      }
    });
  }

  @Test
  void setRole_toARoleWithoutTheGrant_isNotAnsweredTheRows() throws Exception {
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      for (Connection c : new Connection[] {c2, c3, c4}) {
        criticalRun(c, "set role atk_nogrant");
        critical(() -> readText(c, "select 1"));
      }
      assertThat(critical(() -> read(c1, ITEMS)).rows()).isEqualTo("[public-row]");

      Outcome[] got = {read(c2, ITEMS), read(c3, ITEMS), read(c4, ITEMS)};

      bench.closeFlag();
      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], ITEMS);
        assertThat(live.sqlState()).as("live, without the grant").isEqualTo("42501");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  @Test
  void setSessionAuthorization_isNotAnsweredAnotherUsersRows() throws Exception {
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      for (Connection c : new Connection[] {c2, c3, c4}) {
        criticalRun(c, "set session authorization atk_nogrant");
        critical(() -> readText(c, "select 1"));
      }
      assertThat(critical(() -> read(c1, ITEMS)).rows()).isEqualTo("[public-row]");

      Outcome[] got = {read(c2, ITEMS), read(c3, ITEMS), read(c4, ITEMS)};

      bench.closeFlag();
      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], ITEMS);
        assertThat(live.sqlState()).isEqualTo("42501");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  /**
   * {@code SET DateStyle} may set one part of the setting and keep the other: {@code 'ISO'}
   * sets the output style and keeps the field order. After {@code 'DMY'} then {@code 'ISO'} a
   * session reads {@code 03/05/2024} as the 3rd of May; after {@code 'ISO'} alone, as the 5th
   * of March. Their last {@code SET} reads the same; their states differ. (pgjdbc refuses a
   * style other than ISO, so the order is the part to attack.)
   */
  @Test
  void setDateStyleInParts_aSessionInAnotherOrderIsNotAnsweredItsDates() throws Exception {
    Servers.postgres().execute("create table if not exists atk_ds(d text)", "delete from atk_ds",
        "insert into atk_ds values ('03/05/2024')");
    String sql = "select d::date from atk_ds";
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      bench.trip();
      for (Connection c : new Connection[] {c1, c2, c3}) {
        critical(() -> readText(c, "select 1")); // the sessions are read first: ISO, MDY
      }
      criticalRun(c1, "set datestyle = 'DMY'", "set datestyle = 'ISO'");
      criticalRun(c2, "set datestyle = 'ISO'");
      criticalRun(c3, "set datestyle = 'DMY'", "set datestyle = 'ISO'");
      assertThat(critical(() -> read(c1, sql)).rows()).isEqualTo("[2024-05-03]");

      Outcome got = read(c2, sql);
      Outcome same = read(c3, sql);
      assertThat(same.answered()).as("the control: the same changes, the same state").isTrue();

      bench.closeFlag();
      Outcome live = read(c2, sql);
      assertThat(live.rows()).isEqualTo("[2024-03-05]");
      assertNoLie("the session in month-first order", got, live);
    }
  }

  @Test
  void setTimeZone_anotherZonesTextIsNotAnswered() throws Exception {
    Servers.postgres().execute("create table if not exists atk_tz(t timestamptz)",
        "delete from atk_tz", "insert into atk_tz values ('2026-01-01 12:00:00+00')");
    String sql = "select t from atk_tz";
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      criticalRun(c1, "set time zone 'UTC'");
      criticalRun(c2, "set time zone 'Asia/Tokyo'");
      criticalRun(c3, "set timezone = 'America/New_York'");
      criticalRun(c4, "set time zone interval '+05:30' hour to minute");
      for (Connection c : new Connection[] {c2, c3, c4}) {
        critical(() -> readText(c, "select 1"));
      }
      assertThat(critical(() -> read(c1, sql)).rows()).isEqualTo("[2026-01-01 12:00:00+00]");

      Outcome[] got = {read(c2, sql), read(c3, sql), read(c4, sql)};

      bench.closeFlag();
      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], sql);
        assertThat(live.rows()).isNotEqualTo("[2026-01-01 12:00:00+00]");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  /**
   * Sessions that set the admitted caller's search path, then went back: {@code RESET},
   * {@code RESET ALL}, {@code DISCARD ALL}. They read the default schema again.
   */
  @Test
  void resetAndDiscardAll_afterASetLikeTheAdmittedCallers_areNotAnsweredItsRows()
      throws Exception {
    try (AttackBench bench = new AttackBench(url())) {
      Connection c1 = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      Connection c4 = bench.connection();
      bench.trip();
      for (Connection c : new Connection[] {c1, c2, c3, c4}) {
        criticalRun(c, "set search_path = atk_ta");
        critical(() -> readText(c, "select 1"));
      }
      assertThat(critical(() -> read(c1, ITEMS)).rows()).isEqualTo("[a-row]");
      criticalRun(c2, "reset search_path");
      criticalRun(c3, "discard all");
      criticalRun(c4, "reset all");

      Outcome[] got = {read(c2, ITEMS), read(c3, ITEMS), read(c4, ITEMS)};

      bench.closeFlag();
      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], ITEMS);
        assertThat(live.rows()).isEqualTo("[public-row]");
        assertNoLie("caller " + (i + 2), got[i], live);
      }
    }
  }

  /**
   * Driver mode: one {@code sluice.name} over two databases of one server. The second database's
   * read must not be answered with the first's row.
   */
  @Test
  void driverMode_oneNameOverTwoDatabases_theSecondIsNotAnsweredTheFirstsRow() throws Exception {
    Servers.postgres().execute("drop database if exists atk_two");
    Servers.postgres().execute("create database atk_two");
    String one = url();
    String two = url().replaceFirst("/postgres\\?", "/atk_two?");
    String db = "create table if not exists atk_db(v text); delete from atk_db;";
    try (Connection a = DriverManager.getConnection(one); var s = a.createStatement()) {
      s.execute(db + " insert into atk_db values ('first-db')");
    }
    try (Connection b = DriverManager.getConnection(two); var s = b.createStatement()) {
      s.execute(db + " insert into atk_db values ('second-db')");
    }
    String params = "sluice.name=atk-two-dbs&sluice.budget=0.001&sluice.burst=200"
        + "&sluice.reserve=0.9&sluice.stale.max-age=60s&sluice.flag=always";
    String sluiceOne = "jdbc:sluice:" + one.substring(5) + "&" + params;
    String sluiceTwo = "jdbc:sluice:" + two.substring(5) + "&" + params;
    String sql = "select v from atk_db";
    try (Connection c1 = DriverManager.getConnection(sluiceOne);
        Connection c2 = DriverManager.getConnection(sluiceTwo);
        Connection c3 = DriverManager.getConnection(sluiceTwo);
        Connection c4 = DriverManager.getConnection(sluiceTwo);
        Connection spare = DriverManager.getConnection(sluiceOne)) {
      AttackBench.drain(spare); // the first refusal: answers begin recording
      for (Connection c : new Connection[] {c2, c3, c4}) {
        critical(() -> readText(c, "select 1"));
      }
      assertThat(critical(() -> read(c1, sql)).rows()).isEqualTo("[first-db]");

      Outcome[] got = {read(c2, sql), read(c3, sql), read(c4, sql)};

      Connection[] victims = {c2, c3, c4};
      for (int i = 0; i < 3; i++) {
        Outcome live = critical(() -> Outcome.of(() -> {
          try (Connection plain = DriverManager.getConnection(two);
              var s = plain.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return AttackBench.rows(r);
          }
        }));
        assertThat(live.rows()).isEqualTo("[second-db]");
        assertNoLie("caller " + (i + 2) + " on the second database", got[i], live);
      }
    }
  }
}
