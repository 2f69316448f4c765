package dev.sluice;

import static dev.sluice.RedisFlagTest.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.Await;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The flag through Sentinel: the master is found by asking the Sentinel, and after a failover
 * the flag follows the new master.
 */
class RedisSentinelTest {

  @Test
  void sentinel_findsTheMaster_andFollowsAFailover() throws Exception {
    assumeTrue(System.getenv(TestRedis.ENV) == null, "needs embedded Redis servers");
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    try (TestRedis master = TestRedis.start();
        TestRedis replica = TestRedis.replicaOf(master);
        TestRedis sentinel = TestRedis.sentinelFor(master, "sluicemaster")) {
      String name = uniqueName();
      String key = "sluice:" + name + ":breaker";
      String uri = "redis-sentinel://127.0.0.1:" + sentinel.port() + "/sluicemaster";
      try (RedisBreakerFlag flag = RedisBreakerFlag.builder(uri, name)
          .refresh(Duration.ofMillis(100)).timeout(Duration.ofMillis(200))
          .settle(Duration.ofMillis(300)).build()) {
        Await.until("the first read of the key", Duration.ofSeconds(5),
            () -> flag.state() == FlagState.CLOSED);
        try (Jedis cli = master.client()) {
          cli.set(key, "open");
        }
        Await.until("open through the master found by Sentinel", Duration.ofSeconds(2),
            flag::isOpen);
        Await.until("the key reached the replica", Duration.ofSeconds(5),
            () -> "open".equals(quietly(replica, cli -> cli.get(key))));

        master.stop();
        Await.until("the replica promoted", Duration.ofSeconds(15),
            () -> String.valueOf(quietly(replica, cli -> cli.info("replication")))
                .contains("role:master"));
        try (Jedis cli = replica.client()) {
          cli.del(key);
        }
        Await.until("closed: the flag reads the new master", Duration.ofSeconds(10),
            () -> !flag.isOpen() && flag.state() == FlagState.CLOSED);
        assertThat(flag.trip(Duration.ofSeconds(30))).as("writes reach the new master").isTrue();
        try (Jedis cli = replica.client()) {
          assertThat(cli.get(key)).isEqualTo("open");
        }
      }
    }
    assertThat(RedisFlagTest.sluiceThreadsBesides(before)).isEmpty();
  }

  /** A call to a server that may be starting or syncing: {@code null} if it fails. */
  private static String quietly(TestRedis server, Function<Jedis, String> call) {
    try (Jedis cli = server.client()) {
      return call.apply(cli);
    } catch (RuntimeException e) {
      System.out.println("while waiting: " + e);
      return null;
    }
  }
}
