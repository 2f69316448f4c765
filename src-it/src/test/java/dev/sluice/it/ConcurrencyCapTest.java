package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Limit;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.it.support.Postgres;
import dev.sluice.it.support.Servers;
import dev.sluice.it.support.Waits;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice.concurrency} against a real PostgreSQL (issue 14): twelve threads send heavy
 * statements ({@code pg_sleep}) through a pool of twelve connections, and a watcher on a
 * connection of its own counts the backends PostgreSQL reports active for them in
 * {@code pg_stat_activity}. The count never exceeds the cap, reaches it, and the calls beyond it
 * are refused with {@link Limit#CONCURRENCY}; once the load stops nothing is left in flight.
 */
class ConcurrencyCapTest {
  private static final int CAP = 3;
  private static final int THREADS = 12;
  private static final Duration LOAD = Duration.ofSeconds(3);
  private static final String APP = "sluice-it-concurrency";

  @Test
  void heavyStatements_activeBackendsNeverExceedTheCap() throws Exception {
    Postgres pg = Servers.postgres();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pg.jdbcUrl());
    config.setPoolName(APP);
    config.setMaximumPoolSize(THREADS);
    config.setMinimumIdle(THREADS);
    config.addDataSourceProperty("ApplicationName", APP);
    Properties settings = new Properties();
    settings.setProperty("sluice.concurrency", Integer.toString(CAP));
    // every statement here is NORMAL: with no reserve it sees the whole cap (the parts each
    // priority sees are tested in the driver's ConcurrencyCapAtTheDatabaseTest)
    settings.setProperty("sluice.reserve", "0");
    try (HikariDataSource pool = new HikariDataSource(config);
        RateLimitedDataSource ds = RateLimitedDataSource.builder(pool).name(APP)
            .budget(10_000).properties(settings).build()) { // no flag: always limiting
      Waits.until(Duration.ofSeconds(15), "the pool is full",
          () -> pool.getHikariPoolMXBean().getTotalConnections() == THREADS);
      AtomicBoolean running = new AtomicBoolean(true);
      LongAdder ran = new LongAdder();
      LongAdder refused = new LongAdder();
      AtomicInteger wrongLimit = new AtomicInteger();
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        workers.add(new Thread(() -> work(ds, running, ran, refused, wrongLimit)));
      }
      workers.forEach(Thread::start);
      int most = watch(pg, LOAD);
      running.set(false);
      for (Thread worker : workers) {
        worker.join();
      }

      assertThat(most).as("active backends at most").isLessThanOrEqualTo(CAP);
      assertThat(most).as("the cap was reached").isEqualTo(CAP);
      assertThat(refused.sum()).isPositive();
      assertThat(wrongLimit).hasValue(0);
      assertThat(ran.sum()).isPositive();
      assertThat(ds.stats().inFlight()).isZero();
      assertThat(ds.stats().concurrencyLimit()).isEqualTo(CAP);
    }
  }

  private static void work(RateLimitedDataSource ds, AtomicBoolean running, LongAdder ran,
      LongAdder refused, AtomicInteger wrongLimit) {
    try (Connection connection = ds.getConnection();
        PreparedStatement heavy = connection.prepareStatement("select pg_sleep(0.05)")) {
      while (running.get()) {
        try {
          heavy.execute();
          ran.increment();
        } catch (RateLimitExceededException e) {
          refused.increment();
          if (e.limit() != Limit.CONCURRENCY) {
            wrongLimit.incrementAndGet();
          }
          Thread.onSpinWait();
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The most backends of {@link #APP} PostgreSQL reported running a sleep, polled for a while. */
  private static int watch(Postgres pg, Duration load) throws SQLException {
    int most = 0;
    long end = System.nanoTime() + load.toNanos();
    try (Connection watcher = DriverManager.getConnection(pg.jdbcUrl());
        PreparedStatement active = watcher.prepareStatement("select count(*) from"
            + " pg_stat_activity where application_name = ? and state = 'active'"
            + " and query like 'select pg_sleep%'")) {
      active.setString(1, APP);
      while (System.nanoTime() < end) {
        try (ResultSet rows = active.executeQuery()) {
          rows.next();
          most = Math.max(most, rows.getInt(1));
        }
      }
    }
    return most;
  }
}
