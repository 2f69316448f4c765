package dev.sluice;

import static dev.sluice.RedisFlagTest.dataSource;
import static dev.sluice.RedisFlagTest.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.testing.Await;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The instance registry against a real Redis: the budget divided by the live count. */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class RedisRegistryTest {
  static final double BUDGET = 300;
  private static final Duration CONVERGE = Duration.ofSeconds(3);

  private static TestRedis redis;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /** A budget of {@link #BUDGET} divided by the registry's live count, beating every 100 ms. */
  static Properties registry(String uri, String name) {
    Properties p = RedisFlagTest.settings(uri, name);
    p.setProperty("sluice.budget", Double.toString(BUDGET));
    p.setProperty("sluice.instances", "redis");
    p.setProperty("sluice.redis.heartbeat", "100ms");
    p.setProperty("sluice.instances.expiry", "1s");
    return p;
  }

  private static boolean allShare(List<RateLimitedDataSource> sources, double share) {
    return sources.stream().allMatch(ds -> ds.stats().permitsPerSecond() == share);
  }

  @Test
  void threeInstances_sameName_convergeToAThirdEach_andKeepItWhenRedisDies() throws Exception {
    String name = uniqueName();
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port())) {
      String uri = "redis://127.0.0.1:" + proxy.port();
      try (RateLimitedDataSource a = dataSource(registry(uri, name));
          RateLimitedDataSource b = dataSource(registry(uri, name));
          RateLimitedDataSource c = dataSource(registry(uri, name))) {
        List<RateLimitedDataSource> all = List.of(a, b, c);
        // the share is set before the count is stored, on each heartbeat thread: wait for both
        Await.until("each admits budget/3 and counts three", CONVERGE,
            () -> allShare(all, BUDGET / 3)
                && all.stream().allMatch(ds -> ds.stats().liveInstances() == 3));
        assertThat(a.stats().instances()).isEqualTo(3.0);

        proxy.mode(TcpProxy.Mode.SILENT);
        Await.until("Redis seen as unreachable", Duration.ofSeconds(2),
            () -> a.stats().flagState() == FlagState.UNREACHABLE);
        // Several heartbeats fail meanwhile: the share must not grow back to the whole budget.
        Await.during("shares stay at budget/3", Duration.ofMillis(1500),
            () -> allShare(all, BUDGET / 3));
        assertThat(c.stats().liveInstances()).isEqualTo(3);
      }
    }
  }

  @Test
  void oneInstanceCloses_othersGrowToHalf() throws Exception {
    String name = uniqueName();
    try (RateLimitedDataSource a = dataSource(registry(redis.uri(), name));
        RateLimitedDataSource b = dataSource(registry(redis.uri(), name))) {
      RateLimitedDataSource c = dataSource(registry(redis.uri(), name));
      Await.until("each admits budget/3", CONVERGE, () -> allShare(List.of(a, b, c), BUDGET / 3));
      c.close();
      try (Jedis cli = redis.client()) {
        assertThat(cli.zcard("sluice:" + name + ":instances")).isEqualTo(2);
      }
      Await.until("the other two admit budget/2", CONVERGE,
          () -> allShare(List.of(a, b), BUDGET / 2));
      // the share is set before the count is stored, on the heartbeat thread: wait for both
      Await.until("b counts two", CONVERGE, () -> b.stats().liveInstances() == 2);
    }
  }

  @Test
  void registryNeverAnswered_dividesByTheAssumedCount() throws Exception {
    Properties p = registry("redis://127.0.0.1:" + closedPort(), uniqueName());
    p.setProperty("sluice.instances.assumed", "4");
    try (RateLimitedDataSource ds = dataSource(p)) {
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(BUDGET / 4);
      assertThat(ds.stats().liveInstances()).isZero();
      assertThat(ds.stats().limiting()).isTrue(); // the flag cannot be read either
    }
  }

  @Test
  void registryNeverAnswered_byDefault_neverTheWholeBudget() throws Exception {
    Properties p = registry("redis://127.0.0.1:" + closedPort(), uniqueName());
    try (RateLimitedDataSource ds = dataSource(p)) {
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(BUDGET / 10);
    }
  }

  @Test
  void heartbeat_scoresWithRedisClock_andPrunesTheDead() throws Exception {
    String name = uniqueName();
    String key = "sluice:" + name + ":instances";
    try (Jedis cli = redis.client()) {
      cli.zadd(key, 0, "long-dead-instance"); // scored at the epoch: far older than the expiry
      try (RateLimitedDataSource ds = dataSource(registry(redis.uri(), name))) {
        // the first heartbeat waits at most the timeout at build; a loaded machine may need the
        // next one: waited on, not read once
        Await.until("this instance counted, the dead one pruned", CONVERGE,
            () -> ds.stats().liveInstances() == 1);
        double score = cli.zscore(key, cli.zrange(key, 0, -1).get(0));
        long redisMillis = Long.parseLong(cli.time().get(0)) * 1000;
        assertThat(Math.abs(redisMillis - score)).isLessThan(5_000.0);
      }
      assertThat(cli.exists(key)).isFalse(); // the only member left on close
    }
  }

  /**
   * Issue 10, item 1, against a real Redis: with budget 1, a live count of 1,200 makes the share
   * fall below the slowest rate a bucket holds. The limiter threw inside the heartbeat, which died:
   * this member expired and the others counted it out while it kept its larger share. Now this
   * instance admits nothing new, its heartbeat goes on, and it admits again when the count falls.
   */
  @Test
  void liveCountPushesTheShareBelowTheMinimum_admitsNothing_andTheHeartbeatGoesOn()
      throws Exception {
    String name = uniqueName();
    String key = "sluice:" + name + ":instances";
    Properties p = registry(redis.uri(), name);
    p.setProperty("sluice.budget", "1");
    p.setProperty("sluice.flag", "always");
    p.setProperty("sluice.instances.expiry", "30s"); // the 1,199 others stay live meanwhile
    p.setProperty("sluice.instances.assumed", "1"); // each count applies at once (HeldCount)
    try (RateLimitedDataSource ds = dataSource(p); Jedis cli = redis.client()) {
      Await.until("alone", CONVERGE, () -> ds.stats().permitsPerSecond() == 1.0);
      String me = cli.zrange(key, 0, -1).get(0);
      double redisMillis = Long.parseLong(cli.time().get(0)) * 1000.0;
      Map<String, Double> others = new HashMap<>();
      for (int i = 0; i < 1199; i++) {
        others.put("other-" + i, redisMillis);
      }
      cli.zadd(key, others);

      // the registry's count and the limiter's are two reads: wait for both
      Await.until("1,200 live", CONVERGE, () -> ds.stats().liveInstances() == 1200
          && ds.stats().instances() == 1200.0);
      assertThat(ds.stats().permitsPerSecond()).isZero();
      assertThrows(RateLimitExceededException.class, ds::getConnection);
      double beat = cli.zscore(key, me);
      Await.until("the heartbeat still renews this member", CONVERGE,
          () -> cli.zscore(key, me) > beat);

      cli.zrem(key, others.keySet().toArray(new String[0]));
      Await.until("the whole budget again", CONVERGE,
          () -> ds.stats().permitsPerSecond() == 1.0);
      Await.until("admits again", CONVERGE, () -> admits(ds));
    }
  }

  private static boolean admits(RateLimitedDataSource ds) {
    try {
      ds.getConnection().close();
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
