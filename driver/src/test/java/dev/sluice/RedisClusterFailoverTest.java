package dev.sluice;

import static dev.sluice.RedisFlagTest.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.Await;
import dev.sluice.testing.TestCluster;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Issue 15, part 2: the master holding the breaker key dies. Meanwhile the flag fails safe (as
 * for one server: unreachable, so open, once the key has gone unread for the unreachable-after)
 * and a {@code trip()} returns within the timeout; once the cluster has promoted the replica,
 * the trip made during the outage is written there, the readers read it, and a reset closes the
 * flag again.
 */
class RedisClusterFailoverTest {
  private static final Duration REFRESH = Duration.ofMillis(200);
  private static final Duration TIMEOUT = Duration.ofMillis(200);
  /** The default silence before Redis counts as unreachable: 4 x (refresh + timeout). */
  private static final Duration UNREACHABLE_AFTER = REFRESH.plus(TIMEOUT).multipliedBy(4);
  /** Room for a loaded two-core machine. */
  private static final Duration SLACK = Duration.ofMillis(800);

  @Test
  void keysMasterDies_flagFailsSafe_thenFollowsThePromotedReplica() throws Exception {
    assumeTrue(System.getenv(TestRedis.ENV) == null, "needs embedded Redis servers");
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    try (TestCluster cluster = TestCluster.start(3, true)) {
      String name = uniqueName();
      String key = "sluice:" + name + ":breaker";
      try (RedisBreakerFlag a = flag(cluster, name); RedisBreakerFlag b = flag(cluster, name)) {
        Await.until("b's first read of the key", Duration.ofSeconds(5),
            () -> b.state() == FlagState.CLOSED);
        int master = cluster.masterOf(key);
        // the replica waits to be promoted until the test lets it: a failover faster than the
        // silence of unreachable-after (the cluster's node timeout is 500 ms) would leave
        // nothing to fail safe from, and the test would race it
        int replica = cluster.replicaOf(master);
        assertThat(replica).as("the key's master has a replica").isPositive();
        try (Jedis r = cluster.client(replica)) {
          r.configSet("cluster-replica-no-failover", "yes");
        }

        cluster.stop(master);
        long nanos = Await.until("b fails safe",
            UNREACHABLE_AFTER.plus(REFRESH).plus(TIMEOUT).plus(SLACK.multipliedBy(2)),
            () -> b.state() == FlagState.UNREACHABLE && b.isOpen());
        System.out.printf("key's master killed -> flag unreachable: %.0f ms%n", nanos / 1e6);

        long started = System.nanoTime();
        a.trip(Duration.ofMinutes(1));
        Duration tripTook = Duration.ofNanos(System.nanoTime() - started);
        assertThat(tripTook).as("a trip() caller waits at most the timeout")
            .isLessThan(TIMEOUT.plus(SLACK));
        assertThat(a.isOpen()).isTrue();

        try (Jedis r = cluster.client(replica)) {
          r.configSet("cluster-replica-no-failover", "no");
        }
        long promoted = Await.until("a replica promoted for the key", Duration.ofSeconds(20),
            () -> cluster.masterOf(key) > 0 && cluster.masterOf(key) != master);
        System.out.printf("replica promoted after a further %.1f s%n", promoted / 1e9);
        Await.until("the trip written to the new master, and read", Duration.ofSeconds(10),
            () -> b.state() == FlagState.OPEN);
        try (Jedis owner = cluster.client(cluster.masterOf(key))) {
          assertThat(owner.get(key)).isEqualTo("open");
        }

        assertThat(a.reset()).as("writes reach the new master").isTrue();
        Await.until("b closed again", Duration.ofSeconds(5),
            () -> !b.isOpen() && b.state() == FlagState.CLOSED);
      }
    }
    assertThat(RedisFlagTest.sluiceThreadsBesides(before)).isEmpty();
    assertThat(RedisClusterTest.jedisThreadsBesides(before)).isEmpty();
  }

  private static RedisBreakerFlag flag(TestCluster cluster, String name) {
    return RedisBreakerFlag.builder(cluster.uri(), name).refresh(REFRESH).timeout(TIMEOUT)
        .settle(Duration.ofMillis(300)).ping(Duration.ofMillis(300)).build();
  }
}
