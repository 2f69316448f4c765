package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.StaleResultWarning;
import dev.sluice.Stats;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Issue 38's measure for the pooled-tenant pattern: a Spring Boot application whose requests
 * each borrow a pooled connection (HikariCP, through {@code JdbcTemplate}), set their tenant with
 * {@code select set_config('app.tenant', ?, false)} and then read one to three rows, of a table
 * under a row-level-security policy keyed by {@code current_setting('app.tenant', true)} and of a
 * plain table. The flag is open and the budget far below the offered rate, on a real PostgreSQL.
 *
 * <p>Two phases on the same application: requests of one tenant only (the share of their reads
 * that reach their users — admitted or answered — is the measure, at least 85 %); then the
 * requests of a second tenant interleaved on the same pool. In both, every answer is checked
 * against what the caller's own session reads live at that moment, past Sluice: an answered
 * {@code set_config} against the session's tenant, an answered read against its rows.
 *
 * <p>The figures go to {@code target/test-logs/dev.sluice.spring.boot.PooledTenantAnswersTest.log}:
 * {@code mvn -q -pl spring-boot-starter -am test -Dtest=PooledTenantAnswersTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class PooledTenantAnswersTest {
  private static final String SET_TENANT = "select set_config('app.tenant', ?, false)";
  private static final String[] READS = {
      "select v from tenant_docs where id = ?", "select v from tenant_items where id = ?"};
  /** Budget (queries/s), against about 8 threads x 200 requests/s of 1 + 1 to 3 statements. */
  private static final int BUDGET = 100;
  private static final int THREADS = 8;
  private static final long PERIOD_NANOS = 5_000_000;
  /** Requests per thread and phase: 4 s of outage at the pace above. */
  private static final int REQUESTS = 800;
  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      for (String sql : new String[] {
          "create role tenant_app login password 'tenant_app'",
          "create table tenant_docs(tenant text, id int, v text)",
          "insert into tenant_docs select t, i, t || '-doc-' || i"
              + " from unnest(array['a', 'b']) t, generate_series(1, 3) i",
          "alter table tenant_docs enable row level security",
          "create policy by_tenant on tenant_docs"
              + " using (tenant = current_setting('app.tenant', true))",
          "create table tenant_items(id int, v text)",
          "insert into tenant_items select i, 'item-' || i from generate_series(1, 3) i",
          "grant select on tenant_docs, tenant_items to tenant_app"}) {
        s.execute(sql);
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  /** The application: one pool, its {@code JdbcTemplate}, and a breaker flag the test opens. */
  @Configuration(proxyBeanMethods = false)
  static class TenantApplication {
    @Bean
    HikariDataSource dataSource() {
      HikariDataSource pool = new HikariDataSource();
      pool.setJdbcUrl(postgres.getJdbcUrl("tenant_app", "postgres"));
      pool.setPassword("tenant_app");
      pool.setMaximumPoolSize(THREADS);
      pool.setMinimumIdle(THREADS);
      pool.setPoolName("tenant-app");
      return pool;
    }

    @Bean
    JdbcTemplate jdbcTemplate(javax.sql.DataSource dataSource) {
      return new JdbcTemplate(dataSource);
    }

    @Bean
    BreakerFlag.Manual cacheBreaker() {
      return BreakerFlag.manual();
    }
  }

  @Test
  void pooledSetConfigRequests_oneTenant_mostReadsReachTheirUsers_andNoAnswerLies() {
    Fixtures.runner().withUserConfiguration(TenantApplication.class)
        .withPropertyValues("sluice.budget=" + BUDGET, "sluice.stale.max-age=60s",
            "sluice.recovery.settle=0", "sluice.jmx=false")
        .run(context -> {
          assertThat(context).hasNotFailed();
          JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
          RateLimitedDataSource sluice = Fixtures.sluice(context);
          BreakerFlag.Manual flag = context.getBean(BreakerFlag.Manual.class);
          // before the outage: every pooled session has served tenant a
          Tally warm = drive(jdbc, 2 * THREADS, n -> "a", 0);
          assertThat(warm.readsServed.get()).isEqualTo(warm.reads.get());

          flag.trip();
          long admittedBefore = sluice.stats().admitted();
          long started = System.nanoTime();
          Tally one = drive(jdbc, REQUESTS, n -> "a", PERIOD_NANOS);
          double seconds = (System.nanoTime() - started) / 1e9;
          long admitted = sluice.stats().admitted() - admittedBefore;
          report("one tenant", one, admitted, seconds, sluice.stats());

          Tally two = drive(jdbc, REQUESTS, n -> n % 4 == 3 ? "b" : "a", PERIOD_NANOS);
          report("tenant b interleaved", two, sluice.stats().admitted() - admittedBefore
              - admitted, (System.nanoTime() - started) / 1e9 - seconds, sluice.stats());

          assertThat(admitted).as("the database at its budget")
              .isLessThanOrEqualTo((long) (BUDGET * seconds) + BUDGET);
          assertThat(two.setAnswered.get()).as("set_config answered, two tenants").isPositive();
          assertThat(two.readsAnswered.get()).as("reads answered, two tenants").isPositive();
          assertThat(one.lies).as("answers unlike the caller's own session, one tenant").isEmpty();
          assertThat(two.lies).as("answers unlike the caller's own session, two tenants")
              .isEmpty();
          assertThat(two.crossTenant.get()).as("b's requests given a's rows").isZero();
          assertThat(one.readsShare()).as("the reads of one tenant that reached their users")
              .isGreaterThanOrEqualTo(0.85);
        });
  }

  private static void report(String phase, Tally t, long admitted, double seconds, Stats stats) {
    System.out.printf(Locale.ROOT, "%s: %d requests, %.1f%% served whole; %d reads, %.1f%% reached"
            + " their users (%d live, %d answered); set_config: %d live, %d answered, %d refused;"
            + " tenant a's reads %.1f%%; database admitted %d in %.1f s (%.0f/s, budget %d/s);"
            + " %s%n", phase, t.requests.get(), 100.0 * t.requestsServed.get() / t.requests.get(),
        t.reads.get(), 100 * t.readsShare(), t.readsLive.get(), t.readsAnswered.get(),
        t.setLive.get(), t.setAnswered.get(), t.setRefused.get(), 100 * t.tenantAShare(),
        admitted, seconds, admitted / seconds, BUDGET, stats);
  }

  /** What the requests of one phase got. */
  static final class Tally {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong requestsServed = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong readsLive = new AtomicLong();
    final AtomicLong readsAnswered = new AtomicLong();
    final AtomicLong readsServed = new AtomicLong();
    final AtomicLong tenantAReads = new AtomicLong();
    final AtomicLong tenantAServed = new AtomicLong();
    final AtomicLong setLive = new AtomicLong();
    final AtomicLong setAnswered = new AtomicLong();
    final AtomicLong setRefused = new AtomicLong();
    final AtomicLong crossTenant = new AtomicLong();
    final ConcurrentLinkedQueue<String> lies = new ConcurrentLinkedQueue<>();

    double readsShare() {
      return (double) readsServed.get() / reads.get();
    }

    double tenantAShare() {
      return (double) tenantAServed.get() / tenantAReads.get();
    }
  }

  /** The tenant of a thread's {@code n}th request. */
  interface Tenants {
    String of(int n);
  }

  /**
   * {@code THREADS} threads each make {@code perThread} requests, one every {@code periodNanos}
   * on average (open loop, random arrivals: a thread behind its schedule goes on at once), on
   * connections of the pool.
   */
  private static Tally drive(JdbcTemplate jdbc, int perThread, Tenants tenants, long periodNanos)
      throws InterruptedException {
    Tally tally = new Tally();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread worker = new Thread(() -> {
        long next = System.nanoTime();
        for (int n = 0; n < perThread; n++) {
          int request = n * THREADS + thread;
          jdbc.execute((ConnectionCallback<Void>) c -> {
            request(c, tenants.of(request / THREADS), request, tally);
            return null;
          });
          // Poisson arrivals: a fixed pace would lock each thread's phase to the bucket's refills
          next += (long) (-Math.log(1 - ThreadLocalRandom.current().nextDouble()) * periodNanos);
          long wait = next - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait); // the load's pace, not a wait for a condition
          }
        }
      }, "tenant-request-" + t);
      worker.start();
      threads.add(worker);
    }
    for (Thread t : threads) {
      t.join();
    }
    return tally;
  }

  /** One request: its tenant, then one to three reads; refused at its first refusal. */
  private static void request(Connection c, String tenant, int n, Tally tally)
      throws SQLException {
    int reads = 1 + n % 3;
    tally.requests.incrementAndGet();
    tally.reads.addAndGet(reads);
    if (tenant.equals("a")) {
      tally.tenantAReads.addAndGet(reads);
    }
    Got set = run(c, SET_TENANT, tenant);
    if (set == null) {
      tally.setRefused.incrementAndGet();
      return;
    }
    (set.answered ? tally.setAnswered : tally.setLive).incrementAndGet();
    if (set.answered) {
      check(c, tally, "set_config to " + tenant, set.rows,
          live(c, "select current_setting('app.tenant')"));
    }
    for (int r = 0; r < reads; r++) {
      String sql = READS[(n + r) % 2];
      int id = 1 + (n / 2 + r) % 3;
      Got got = run(c, sql, id);
      if (got == null) {
        return;
      }
      (got.answered ? tally.readsAnswered : tally.readsLive).incrementAndGet();
      tally.readsServed.incrementAndGet();
      if (tenant.equals("a")) {
        tally.tenantAServed.incrementAndGet();
      }
      if (!tenant.equals("a") && got.rows.contains("a-doc")) {
        tally.crossTenant.incrementAndGet();
      }
      if (got.answered) {
        check(c, tally, "tenant " + tenant + ": " + sql + " [" + id + "]", got.rows,
            live(c, sql.replace("?", Integer.toString(id))));
      }
    }
    tally.requestsServed.incrementAndGet();
  }

  private static void check(Connection c, Tally tally, String what, String answered,
      String live) {
    if (!answered.equals(live)) {
      tally.lies.add(what + ": answered " + answered + ", live " + live);
    }
  }

  /** What a statement of the request got: its rows, and whether they were an answer. */
  record Got(String rows, boolean answered) {}

  /** Runs {@code sql} through Sluice; {@code null}: refused. */
  private static Got run(Connection c, String sql, Object parameter) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setObject(1, parameter);
      try (ResultSet r = p.executeQuery()) {
        boolean answered = r.getWarnings() instanceof StaleResultWarning;
        return new Got(rows(r), answered);
      }
    } catch (RateLimitExceededException refused) {
      return null;
    }
  }

  /** What the caller's own session reads now, past Sluice (the driver's connection). */
  private static String live(Connection c, String sql) {
    try (Statement s = c.unwrap(org.postgresql.PGConnection.class) instanceof Connection raw
        ? raw.createStatement() : null; ResultSet r = s.executeQuery(sql)) {
      return rows(r);
    } catch (SQLException e) {
      return "error " + e.getSQLState();
    }
  }

  private static String rows(ResultSet r) throws SQLException {
    StringBuilder b = new StringBuilder("[");
    while (r.next()) {
      b.append(b.length() > 1 ? "; " : "").append(r.getString(1));
    }
    return b.append(']').toString();
  }
}
