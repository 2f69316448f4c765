package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The driver end to end over a real PostgreSQL, through DriverManager and HikariCP. */
class SluiceDriverPostgresTest {
  private static EmbeddedPostgres postgres;
  private static String base;

  @BeforeAll
  static void startPostgres() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
    base = "jdbc:sluice:postgresql://localhost:" + postgres.getPort() + "/postgres";
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void driverManager_postgresUrl_connectsWithoutOurSettings() throws SQLException {
    try (Connection c = DriverManager.getConnection(
        base + "?ApplicationName=dm&sluice.budget=1000&sluice.name=pg-dm", "postgres", "")) {
      assertThat(SluiceDriverTest.queryOne(c, "SELECT current_setting('application_name')"))
          .isEqualTo("dm");
      assertThat(c.getMetaData().getURL()).isEqualTo(
          "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres?ApplicationName=dm");
      assertThat(SluiceDriver.stats("pg-dm")).isPresent();
    }
  }

  @Test
  void hikari_settingsInJdbcUrl_shareOneBudget() throws SQLException {
    HikariConfig config = hikari("pg-url-pool", 3);
    config.setJdbcUrl(base + "?sluice.budget=1000&sluice.name=pg-url");
    try (HikariDataSource pool = new HikariDataSource(config);
        Connection c = pool.getConnection()) {
      assertThat(SluiceDriverTest.queryOne(c, "SELECT 1")).isEqualTo("1");
      assertThat(c.getMetaData().getURL()).doesNotContain("sluice");
      assertThat(SluiceDriver.stats("pg-url")).isPresent();
    }
  }

  @Test
  void hikari_settingsInDataSourceProperties_shareOneBudget() throws SQLException {
    HikariConfig config = hikari("pg-props-pool", 3);
    config.setJdbcUrl(base);
    config.addDataSourceProperty("sluice.budget", "1000");
    config.addDataSourceProperty("sluice.name", "pg-props");
    try (HikariDataSource pool = new HikariDataSource(config);
        Connection c = pool.getConnection()) {
      assertThat(SluiceDriverTest.queryOne(c, "SELECT 1")).isEqualTo("1");
      assertThat(SluiceDriver.stats("pg-props")).isPresent();
    }
  }

  @Test
  void hikari_derivedName_isHostPortDatabase() throws SQLException {
    HikariConfig config = hikari("pg-derived-pool", 1);
    config.setJdbcUrl(base + "?sluice.budget=1000");
    try (HikariDataSource pool = new HikariDataSource(config);
        Connection c = pool.getConnection()) {
      assertThat(c.isValid(1)).isTrue();
      assertThat(SluiceDriver.stats("localhost-" + postgres.getPort() + "-postgres")).isPresent();
    }
  }

  @Test
  void getPropertyInfo_listsOursThenPostgresOwn() throws SQLException {
    DriverPropertyInfo[] infos = new SluiceDriver().getPropertyInfo(
        base + "?sslmode=disable&sluice.budget=5", new Properties());

    assertThat(Arrays.stream(infos).map(i -> i.name))
        .contains("sluice.budget", "sluice.name", "sslmode", "user");
    assertThat(Arrays.stream(infos).filter(i -> i.name.equals("sslmode")).findFirst()
        .orElseThrow().value).isEqualTo("disable");
  }

  @Test
  void hikari_eightBusyThreadsOnEightConnections_admitOneBudgetNotEight() throws Exception {
    double budget = 40;
    HikariConfig config = hikari("pg-eight-pool", 8);
    config.setJdbcUrl(base + "?sluice.budget=" + budget + "&sluice.burst=4&sluice.name=pg-eight");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      fill(pool, 8);
      long started = System.nanoTime();
      long admitted = hammer(pool, 8, 1_000);
      double seconds = (System.nanoTime() - started) / 1e9;

      // one budget: the burst plus the rate over the run; eight budgets would admit eight times
      assertThat((double) admitted).isLessThanOrEqualTo(4 + budget * seconds * 1.5 + 5);
      assertThat(admitted).isGreaterThan(0);
      assertThat(SluiceDriver.stats("pg-eight").orElseThrow().admitted()).isEqualTo(admitted);
    }
  }

  @Test
  void hikari_thousandsOfRejections_keepEveryBackend() throws Exception {
    HikariConfig config = hikari("pg-pids-pool", 4);
    config.setJdbcUrl(base + "?ApplicationName=sluice-pids&sluice.budget=1&sluice.burst=1"
        + "&sluice.name=pg-pids");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      fill(pool, 4);
      Set<Integer> before = backendPids("sluice-pids");

      long rejected = rejections(pool, 4, 5_000);

      assertThat(rejected).isGreaterThanOrEqualTo(4_000);
      assertThat(backendPids("sluice-pids")).isEqualTo(before).hasSize(4);
      assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(4);
    }
  }

  // --- helpers ---

  private static HikariConfig hikari(String poolName, int size) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(poolName);
    config.setUsername("postgres");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    return config;
  }

  /** Runs {@code threads} threads each running {@code SELECT 1} until the deadline; admitted. */
  private static long hammer(HikariDataSource pool, int threads, long millis) throws Exception {
    LongAdder admitted = new LongAdder();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    runOnThreads(threads, () -> {
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        while (System.nanoTime() < deadline) {
          try {
            s.execute("SELECT 1");
            admitted.increment();
          } catch (RateLimitExceededException rejected) {
            Thread.onSpinWait();
          }
        }
      }
      return null;
    });
    return admitted.sum();
  }

  /** Runs {@code perThread} statements on each of {@code threads} threads; rejections. */
  private static long rejections(HikariDataSource pool, int threads, int perThread)
      throws Exception {
    LongAdder rejected = new LongAdder();
    runOnThreads(threads, () -> {
      for (int i = 0; i < perThread / 100; i++) {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          for (int j = 0; j < 100; j++) {
            try {
              s.execute("SELECT 1");
            } catch (RateLimitExceededException e) {
              rejected.increment();
            }
          }
        }
      }
      return null;
    });
    return rejected.sum();
  }

  private static void runOnThreads(int threads, java.util.concurrent.Callable<Void> work)
      throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Void>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(executor.submit(() -> {
          start.await();
          return work.call();
        }));
      }
      start.countDown();
      for (Future<Void> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      executor.shutdownNow();
    }
  }

  /** Makes the pool open all its connections: hold that many at once, then give them back. */
  private static void fill(HikariDataSource pool, int count) throws SQLException {
    List<Connection> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        held.add(pool.getConnection());
      }
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
    assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(count);
  }

  /** The backend PIDs of the connections with this application name, seen from outside. */
  private static Set<Integer> backendPids(String applicationName) throws SQLException {
    Set<Integer> pids = new TreeSet<>();
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE application_name = '"
            + applicationName + "'")) {
      while (rs.next()) {
        pids.add(rs.getInt(1));
      }
    }
    return pids;
  }

}
