package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.internal.config.RedisEndpoint;
import dev.sluice.testing.Await;
import dev.sluice.testing.TestCluster;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@link ClusterLink} on a real cluster of three masters, each with a replica: the protocol's
 * commands reach the masters of their keys, a subscription on one node hears what is published on
 * any other, and it moves to another node when its node dies.
 */
class ClusterLinkTest {
  private static final Duration TIMEOUT = Duration.ofMillis(500);
  private static TestCluster cluster;

  @BeforeAll
  static void startCluster() {
    assumeTrue(System.getenv(TestRedis.ENV) == null, "needs embedded Redis servers");
    cluster = TestCluster.start(3, true);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static RedisLink link() {
    return RedisLinks.connect(RedisEndpoint.parse(cluster.uri()), TIMEOUT, "sluice-test");
  }

  private static String name() {
    return "t-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void commands_reachTheMasterOfEachKey_withTheProtocolsKeyNames() {
    String name = name();
    String flag = "sluice:" + name + ":breaker";
    String registry = "sluice:" + name + ":instances";
    try (RedisLink link = link()) {
      link.setAndPublish(flag, "open", Duration.ofMinutes(1), flag, "open");
      assertThat(link.get(flag)).isEqualTo("open");
      try (Jedis owner = cluster.client(cluster.masterOf(flag))) {
        assertThat(owner.get(flag)).as("stored under its own name, no hash tag").isEqualTo("open");
        assertThat(owner.pttl(flag)).isBetween(1L, 60_000L);
      }
      assertThat(link.heartbeat(registry, "a", Duration.ofSeconds(5))).isEqualTo(1);
      assertThat(link.heartbeat(registry, "b", Duration.ofSeconds(5))).isEqualTo(2);
      link.leave(registry, "a");
      try (Jedis owner = cluster.client(cluster.masterOf(registry))) {
        assertThat(owner.zrange(registry, 0, -1)).containsExactly("b");
      }
      String demand = "sluice:" + name + ":demand"; // division by demand: one key per script
      link.publish(demand, "a", "12.5 100", Duration.ofSeconds(5));
      assertThat(link.publish(demand, "b", "3 50", Duration.ofSeconds(5)))
          .containsOnlyKeys("a", "b").containsEntry("b", "3 50");
      link.forget(demand, "a");
      try (Jedis owner = cluster.client(cluster.masterOf(demand))) {
        assertThat(owner.hkeys(demand)).containsExactly("b");
      }
      link.deleteAndPublish(flag, flag, "closed");
      assertThat(link.get(flag)).isNull();
    }
  }

  @Test
  void wrongPassword_isRefused_notUnreachable_andNotShown() {
    String uri = cluster.uri().replace("redis-cluster://", "redis-cluster://:s3cret@");
    try (RedisLink link = RedisLinks.connect(RedisEndpoint.parse(uri), TIMEOUT, "sluice-test")) {
      assertThatThrownBy(() -> link.get("sluice:" + name() + ":breaker"))
          .isInstanceOf(RedisDown.class)
          .matches(e -> ((RedisDown) e).refused(), "refused: the nodes answered")
          .hasMessageNotContaining("s3cret");
    }
  }

  @Test
  void subscription_hearsPublishesOnEveryNode_mastersAndReplicas() throws Exception {
    String channel = "sluice:" + name() + ":breaker";
    List<String> heard = new CopyOnWriteArrayList<>();
    try (RedisLink link = link()) {
      Thread subscriber = subscribeInBackground(link, channel, heard);
      Await.until("subscribed", Duration.ofSeconds(5), () -> subscribedNode(channel) != null);
      Integer on = subscribedNode(channel);
      List<Integer> nodes = cluster.running();
      for (int port : nodes) {
        try (Jedis cli = cluster.client(port)) {
          cli.publish(channel, "from-" + port);
        }
      }
      Await.until("every node's message heard", Duration.ofSeconds(5),
          () -> heard.size() >= nodes.size());
      assertThat(heard).containsExactlyInAnyOrderElementsOf(
          nodes.stream().map(port -> "from-" + port).toList());
      assertThat(nodes).hasSizeGreaterThanOrEqualTo(5).contains(on);
      link.close();
      subscriber.join(5_000);
      assertThat(subscriber.isAlive()).isFalse();
    }
  }

  @Test
  void subscription_nodeDies_movesToAnotherNode() throws Exception {
    String channel = "sluice:" + name() + ":breaker";
    List<String> heard = new CopyOnWriteArrayList<>();
    try (RedisLink link = link()) {
      Thread subscriber = subscribeInBackground(link, channel, heard);
      Await.until("subscribed", Duration.ofSeconds(5), () -> subscribedNode(channel) != null);
      int first = subscribedNode(channel);
      cluster.stop(first); // a master is replaced by its replica; a replica is just gone
      Await.until("subscribed on another node", Duration.ofSeconds(10),
          () -> subscribedNode(channel) != null);
      cluster.awaitHealthy(Duration.ofSeconds(20));
      int publisher = cluster.running().get(0);
      try (Jedis cli = cluster.client(publisher)) {
        cli.publish(channel, "after");
      }
      Await.until("heard on the new node", Duration.ofSeconds(5), () -> heard.contains("after"));
      assertThat(subscribedNode(channel)).isNotEqualTo(first);
      link.close();
      subscriber.join(5_000);
      assertThat(subscriber.isAlive()).isFalse();
    }
  }

  @Test
  void keysMasterFrozen_callFailsWithinTheTimeoutBound_thenTheReplicaServesIt() {
    String key = keyOnAMasterWithAReplica(); // another test may have killed a node
    try (RedisLink link = link()) {
      link.setAndPublish(key, "open", Duration.ofMinutes(1), key, "open");
      int master = cluster.masterOf(key);
      cluster.freeze(master);
      try {
        long started = System.nanoTime();
        assertThatThrownBy(() -> link.get(key)).isInstanceOf(RedisDown.class)
            .matches(e -> !((RedisDown) e).refused(), "no answer, not an error reply");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.println("GET on a frozen master failed after " + took.toMillis() + " ms");
        // one attempt of at most a timeout; the retry deadline (one timeout) stops the others
        assertThat(took).isLessThan(TIMEOUT.multipliedBy(3));

        long failover = Await.until("the replica answers for the key", Duration.ofSeconds(20),
            () -> "open".equals(quietly(link, key)));
        System.out.printf("frozen master -> replica serves the key: %.1f s%n", failover / 1e9);
      } finally {
        cluster.thaw(master);
      }
      cluster.awaitHealthy(Duration.ofSeconds(20));
    }
  }

  private static String keyOnAMasterWithAReplica() {
    for (int i = 0; i < 100; i++) {
      String key = "sluice:" + name() + ":breaker";
      if (cluster.replicasOf(cluster.masterOf(key)) > 0) {
        return key;
      }
    }
    throw new IllegalStateException("no master with a replica");
  }

  private static String quietly(RedisLink link, String key) {
    try {
      return link.get(key);
    } catch (RedisDown e) {
      return null;
    }
  }

  /** Runs subscriptions one after the other, as the flag reader does, until the link closes. */
  private static Thread subscribeInBackground(RedisLink link, String channel, List<String> heard) {
    AtomicBoolean closed = new AtomicBoolean();
    Thread thread = new Thread(() -> {
      while (!closed.get()) {
        try {
          link.subscribe(channel, Duration.ofSeconds(2), new RedisLink.Listener() {
            @Override
            public void subscribed(RedisLink.Subscription subscription) {}

            @Override
            public void message(String message) {
              heard.add(message);
            }

            @Override
            public void pong() {}
          });
        } catch (RedisDown e) {
          closed.set(e.getMessage().contains("the link is closed"));
          sleep(50);
        }
      }
    }, "test-subscriber");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** The running node on which {@code channel} has a subscriber, or {@code null}. */
  private static Integer subscribedNode(String channel) {
    for (int port : cluster.running()) {
      try (Jedis cli = cluster.client(port)) {
        Map<String, Long> counts = cli.pubsubNumSub(channel);
        if (counts.getOrDefault(channel, 0L) > 0) {
          return port;
        }
      } catch (RuntimeException e) {
        // a node going down
      }
    }
    return null;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
