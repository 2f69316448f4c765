package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.it.support.Redis;
import dev.sluice.it.support.Servers;
import dev.sluice.it.support.TcpProxy;
import dev.sluice.it.support.Traffic;
import dev.sluice.it.support.Waits;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The Redis that holds the flag fails while request threads run: stopped, restarted, and silent
 * (a TCP proxy that swallows bytes, which only a read timeout notices). The application keeps
 * running, the flag fails safe (open: the limiter guards the database), and no request waits on
 * Redis. It uses a Redis of its own, whatever {@code IT_SLUICE_REDIS_URI} says.
 */
class RedisFailureTest {
  /** The flag must react within this; the reader's timeouts and refresh are far shorter. */
  private static final Duration REACTION = Duration.ofSeconds(20);
  /**
   * The slowest request allowed while Redis is down or silent. Requests never talk to Redis: a
   * request that waited for a Redis timeout would take seconds.
   */
  private static final Duration WORST_REQUEST = Duration.ofMillis(1_000);

  @Test
  void redisStoppedRestartedAndSilent_appKeepsRunning_flagFailsSafe_requestsNeverWait()
      throws Exception {
    try (Redis redis = Redis.startEmbedded();
        TcpProxy proxy = TcpProxy.start(redis.host(), redis.port());
        RateLimitedDataSource ds = dataSource("it-redis-failure", proxy.port());
        Traffic traffic = Traffic.start("redis-failure", 4, 1, thread -> selectOne(ds))) {
      Waits.until(REACTION, "the flag reads closed from a healthy Redis",
          () -> !ds.stats().limiting());
      traffic.worstLatencyAndReset();

      redis.stop();
      Waits.until(REACTION, "the flag fails safe when Redis is stopped",
          () -> ds.stats().limiting());
      Waits.sleep(Duration.ofSeconds(2));
      Duration worstWhileStopped = traffic.worstLatencyAndReset();

      redis.start();
      Waits.until(REACTION, "the flag reads closed again after a restart",
          () -> !ds.stats().limiting());

      proxy.silence();
      Waits.until(REACTION, "the flag fails safe when Redis goes silent",
          () -> ds.stats().limiting());
      Waits.sleep(Duration.ofSeconds(2));
      Duration worstWhileSilent = traffic.worstLatencyAndReset();

      proxy.heal();
      Waits.until(REACTION, "the flag reads closed again once Redis answers",
          () -> !ds.stats().limiting());
      long okBefore = traffic.ok.get();
      Waits.until(Duration.ofSeconds(5), "requests pass", () -> traffic.ok.get() > okBefore + 20);

      System.out.printf("[figures] worst request latency: Redis stopped %d ms, Redis silent %d ms;"
          + " %d ok, %d refused%n", worstWhileStopped.toMillis(), worstWhileSilent.toMillis(),
          traffic.ok.get(), traffic.refused.get());
      assertThat(traffic.unexpected).as("errors other than refusals").isEmpty();
      assertThat(worstWhileStopped).isLessThan(WORST_REQUEST);
      assertThat(worstWhileSilent).isLessThan(WORST_REQUEST);
    }
  }

  private static void selectOne(RateLimitedDataSource ds) throws java.sql.SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute("select 1");
    }
  }

  static RateLimitedDataSource dataSource(String name, int redisPort) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(Servers.postgres().jdbcUrl());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(4);
    config.setPoolName(name);
    Properties settings = new Properties();
    settings.setProperty("sluice.redis", "redis://127.0.0.1:" + redisPort);
    settings.setProperty("sluice.flag", "redis");
    settings.setProperty("sluice.recovery.settle", "0"); // limiting() follows the flag itself
    return RateLimitedDataSource.builder(new HikariDataSource(config))
        .name(name).budget(500).burst(50).properties(settings).build();
  }
}
