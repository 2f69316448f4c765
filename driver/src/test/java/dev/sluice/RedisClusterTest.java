package dev.sluice;

import static dev.sluice.RedisFlagTest.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.Await;
import dev.sluice.testing.TestCluster;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The flag and the registry on a real Redis Cluster of three masters, through
 * {@code sluice.redis=redis-cluster://...}: a trip on one instance reaches another by pub/sub
 * across nodes, the registry counts the instances, and nothing is left running after close. The
 * failover of a key's master is {@link RedisClusterFailoverTest}.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class RedisClusterTest {
  private static final double BUDGET = 90;
  private static TestCluster cluster;

  @BeforeAll
  static void startCluster() {
    assumeTrue(System.getenv(TestRedis.ENV) == null, "needs embedded Redis servers");
    cluster = TestCluster.start(3, false);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void trip_onOneInstance_reachesAnotherByPubSub_beforeAnyPoll() throws Exception {
    String name = uniqueName();
    String key = "sluice:" + name + ":breaker";
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    try (RedisBreakerFlag a = flag(name); RedisBreakerFlag b = flag(name)) {
      Await.until("b's first read of the key", Duration.ofSeconds(5),
          () -> b.state() == FlagState.CLOSED);
      Await.until("b subscribed on some node", Duration.ofSeconds(5),
          () -> subscribers(key) >= 2);

      assertThat(a.trip(Duration.ofMinutes(1))).as("written to the key's master").isTrue();
      // polls are 5 s apart: only the message, published on some node and heard on another
      // (or the same), can open b this soon
      long nanos = Await.until("b open", Duration.ofMillis(1500), b::isOpen);
      System.out.printf("trip on a -> b open: %.1f ms%n", nanos / 1e6);
      try (Jedis owner = cluster.client(cluster.masterOf(key))) {
        assertThat(owner.get(key)).isEqualTo("open");
      }

      assertThat(a.reset()).isTrue();
      Await.until("b closed after the reset (the message asks for a read)",
          Duration.ofMillis(1500), () -> !b.isOpen() && b.state() == FlagState.CLOSED);
    }
    assertThat(RedisFlagTest.sluiceThreadsBesides(before)).isEmpty();
    assertThat(jedisThreadsBesides(before)).as("no pool evictor or topology refresher").isEmpty();
  }

  @Test
  void registry_countsThreeInstances_andDividesTheBudget() throws Exception {
    String name = uniqueName();
    try (RateLimitedDataSource a = RedisFlagTest.dataSource(registry(name));
        RateLimitedDataSource b = RedisFlagTest.dataSource(registry(name));
        RateLimitedDataSource c = RedisFlagTest.dataSource(registry(name))) {
      List<RateLimitedDataSource> all = List.of(a, b, c);
      // the registry's count is published a moment after the share it sets: wait for both
      Await.until("each counts three and admits budget/3", Duration.ofSeconds(5), () -> all
          .stream().allMatch(ds -> ds.stats().permitsPerSecond() == BUDGET / 3
              && ds.stats().liveInstances() == 3));
      String key = "sluice:" + name + ":instances";
      try (Jedis owner = cluster.client(cluster.masterOf(key))) {
        assertThat(owner.zcard(key)).as("one sorted set, on its key's master").isEqualTo(3);
      }
      c.close();
      Await.until("the other two grow to budget/2", Duration.ofSeconds(5), () -> List.of(a, b)
          .stream().allMatch(ds -> ds.stats().permitsPerSecond() == BUDGET / 2));
    }
  }

  private static RedisBreakerFlag flag(String name) {
    return RedisBreakerFlag.builder(cluster.uri(), name).refresh(Duration.ofSeconds(5))
        .timeout(Duration.ofMillis(300)).ping(Duration.ofMillis(300)).build();
  }

  private static Properties registry(String name) {
    Properties p = RedisFlagTest.settings(cluster.uri(), name);
    p.setProperty("sluice.budget", Double.toString(BUDGET));
    p.setProperty("sluice.instances", "redis");
    p.setProperty("sluice.redis.heartbeat", "100ms");
    p.setProperty("sluice.instances.expiry", "1s");
    return p;
  }

  /** Subscribers of {@code channel} over all nodes: each node counts only its own. */
  private static long subscribers(String channel) {
    long count = 0;
    for (int port : cluster.running()) {
      try (Jedis cli = cluster.client(port)) {
        count += cli.pubsubNumSub(channel).getOrDefault(channel, 0L);
      }
    }
    return count;
  }

  static List<String> jedisThreadsBesides(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t) && t.isAlive())
        .map(Thread::getName)
        .filter(n -> n.contains("evictor") || n.toLowerCase().contains("jedis")
            || n.toLowerCase().contains("topology"))
        .sorted().toList();
  }
}
