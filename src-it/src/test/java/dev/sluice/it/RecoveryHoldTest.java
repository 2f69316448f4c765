package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.FlagState;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.SluiceDriver;
import dev.sluice.Stats;
import dev.sluice.it.support.DemandWatch;
import dev.sluice.it.support.Hits;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.Postgres;
import dev.sluice.it.support.Redis;
import dev.sluice.it.support.Servers;
import dev.sluice.it.support.Traffic;
import dev.sluice.it.support.Waits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cap holds through the cache's recovery (issue 12): the Redis flag is deleted while eight
 * threads still hammer a real PostgreSQL, as when a cache comes back empty and every read misses.
 * The rows PostgreSQL stamps stay within the budget (plus the burst) in every second of the
 * recovery, and at the budget rather than below it; once the load falls, limiting stops within
 * the settle plus a second.
 *
 * <p>A busy machine may stall the request threads for seconds, and a recovery may then end while
 * the test still meant to flood: the limiter is held to the demand it counted ({@link
 * DemandWatch}), and to the budget only when that demand exceeded it.
 */
class RecoveryHoldTest {
  private static final double BUDGET = 200;
  private static final int BURST = 20;
  private static final int THREADS = 8;
  private static final Duration SETTLE = Duration.ofSeconds(3);
  private static final Duration OUTAGE = Duration.ofSeconds(2);
  /** How long the load goes on after the flag closed: longer than the settle. */
  private static final Duration RECOVERY_UNDER_LOAD = Duration.ofSeconds(4);
  /** A row stamped this close to the close may have been admitted just before it. */
  private static final long EDGE_MILLIS = 100;
  /** As in the soak test: a permit taken near a second's end lands a moment later. */
  private static final double LAG_ALLOWANCE = 0.05 * BUDGET;
  /** How late the watching thread may wake on a loaded two-core machine. */
  private static final Duration SCHEDULING = Duration.ofMillis(300);

  @ParameterizedTest
  @EnumSource(Mode.class)
  void redisFlagDeletedUnderLoad_databaseHeldAtTheBudget_releasedWithinSettlePlusASecond(
      Mode mode) throws Exception {
    Postgres pg = Servers.postgres();
    Redis redis = Servers.redis();
    Hits.create(pg);
    int run = Hits.newRun();
    String name = "it-recovery-" + mode.name().toLowerCase(Locale.ROOT) + "-" + run;
    try (Budgeted budgeted = Budgeted.of(mode, name, pg, redis)) {
      redis.setFlag(name, true);
      Waits.until(Duration.ofSeconds(10), "limiting", () -> budgeted.stats().limiting());
      long closedAt;
      long loadFellAt;
      long refusedInRecovery;
      DemandWatch watch = new DemandWatch(budgeted::stats, BUDGET, SETTLE);
      try (Traffic traffic = Traffic.start("recovery", THREADS, 0,
          thread -> insert(budgeted.dataSource, run, thread))) {
        Waits.sleep(OUTAGE);
        redis.setFlag(name, false); // DEL + PUBLISH: the cache is back, and cold
        Waits.until(Duration.ofSeconds(10), "the flag reads closed",
            () -> budgeted.stats().flagState() == FlagState.CLOSED);
        closedAt = System.currentTimeMillis();
        long refusedBefore = traffic.refused.get();
        long until = closedAt + RECOVERY_UNDER_LOAD.toMillis();
        while (System.currentTimeMillis() < until) {
          watch.sample();
          Waits.sleep(Duration.ofMillis(100));
        }
        refusedInRecovery = traffic.refused.get() - refusedBefore;
        loadFellAt = System.currentTimeMillis();
        assertThat(traffic.unexpected).as("errors other than refusals").isEmpty();
      } // every request thread has stopped: the load has fallen to nothing
      long stoppedNanos = System.nanoTime();
      Waits.until(SETTLE.plusSeconds(10), "limiting stops", () -> !budgeted.stats().limiting());
      long releasedNanos = System.nanoTime();
      long releasedAfter = (releasedNanos - stoppedNanos) / 1_000_000;

      List<Long> perSecond = new ArrayList<>();
      for (long from = closedAt + EDGE_MILLIS; from + 1000 <= loadFellAt; from += 1000) {
        perSecond.add(Hits.between(pg, run, from, from + 1000));
      }
      double seconds = (loadFellAt - closedAt - EDGE_MILLIS) / 1000.0;
      long rows = Hits.between(pg, run, closedAt + EDGE_MILLIS, loadFellAt);
      System.out.printf("[figures] recovery %s: budget %.0f/s burst %d, rows per second during"
          + " recovery %s (%d in %.2f s), %d refused; demand %.0f/s, %d of %d samples recovering"
          + " (%d had to); released %d ms after the load fell (settle %d ms)%n", mode, BUDGET,
          BURST, perSecond, rows, seconds, refusedInRecovery, watch.demandPerSecond(),
          watch.recovering(), watch.size(), watch.mustRecover(), releasedAfter,
          SETTLE.toMillis());

      assertThat(watch.mustRecover()).as("samples a demand above the quiet rate held in"
          + " recovery (the machine offered %.0f calls/s)", watch.demandPerSecond()).isPositive();
      assertThat(watch.endedTooEarly()).as("recovering while the load goes on").isNull();
      double held = Math.min(BUDGET * seconds, watch.demand());
      if (watch.demand() > BUDGET * seconds + BURST + LAG_ALLOWANCE) {
        assertThat(refusedInRecovery).as("the hold refused the flood").isPositive();
      }
      assertThat(perSecond).as("rows per second during the recovery").hasSizeGreaterThan(2)
          .allSatisfy(n -> assertThat((double) n).isLessThanOrEqualTo(BUDGET + BURST
              + LAG_ALLOWANCE));
      assertThat((double) rows).as("rows during the recovery")
          .isLessThanOrEqualTo(BUDGET * seconds + BURST + LAG_ALLOWANCE)
          .isGreaterThanOrEqualTo(0.5 * held); // at the budget, not below it, if the load was
      assertThat(releasedAfter).as("ms from the load falling to limiting stopping")
          .isLessThanOrEqualTo(SETTLE.plusSeconds(1).plus(SCHEDULING).toMillis());
      assertThat(Duration.ofNanos(releasedNanos - watch.lastLoudNanos()))
          .as("from the last loud demand the test saw to limiting stopping")
          .isGreaterThanOrEqualTo(SETTLE.minusMillis(1)); // the limiter notes it to the ms
    }
  }

  private static void insert(DataSource ds, int run, int thread) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("insert into it_hits(run, worker) values (?, ?)")) {
      ps.setInt(1, run);
      ps.setInt(2, thread);
      ps.executeUpdate();
    }
  }

  /** A pool of eight over PostgreSQL with Sluice in it, in either mode, and its stats. */
  private static final class Budgeted implements AutoCloseable {
    final DataSource dataSource;
    private final Supplier<Stats> stats;
    private final AutoCloseable closer;

    private Budgeted(DataSource dataSource, Supplier<Stats> stats, AutoCloseable closer) {
      this.dataSource = dataSource;
      this.stats = stats;
      this.closer = closer;
    }

    static Budgeted of(Mode mode, String name, Postgres pg, Redis redis) {
      HikariConfig config = new HikariConfig();
      config.setPoolName(name);
      config.setMaximumPoolSize(THREADS);
      config.setMinimumIdle(THREADS);
      config.addDataSourceProperty("ApplicationName", name);
      if (mode == Mode.DRIVER) {
        config.setJdbcUrl(pg.sluiceUrl("sluice.name=" + name + "&sluice.budget=" + BUDGET
            + "&sluice.burst=" + BURST + "&sluice.redis=" + redis.uri()
            + "&sluice.flag=redis&sluice.recovery.settle=" + SETTLE.toMillis() + "ms"));
        HikariDataSource pool = new HikariDataSource(config);
        awaitFull(pool);
        return new Budgeted(pool, () -> SluiceDriver.stats(name).orElseThrow(), pool);
      }
      config.setJdbcUrl(pg.jdbcUrl());
      Properties settings = new Properties();
      settings.setProperty("sluice.redis", redis.uri());
      settings.setProperty("sluice.flag", "redis");
      settings.setProperty("sluice.recovery.settle", SETTLE.toMillis() + "ms");
      HikariDataSource pool = new HikariDataSource(config);
      awaitFull(pool);
      RateLimitedDataSource ds = RateLimitedDataSource.builder(pool)
          .name(name).budget(BUDGET).burst(BURST).properties(settings).build();
      return new Budgeted(ds, ds::stats, ds);
    }

    private static void awaitFull(HikariDataSource pool) {
      Waits.until(Duration.ofSeconds(15), "the pool is full",
          () -> pool.getHikariPoolMXBean().getTotalConnections() == THREADS);
    }

    Stats stats() {
      return stats.get();
    }

    @Override
    public void close() throws Exception {
      closer.close();
    }
  }
}
