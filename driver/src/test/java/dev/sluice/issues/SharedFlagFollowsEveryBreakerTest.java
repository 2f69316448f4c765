package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitedDataSource;
import dev.sluice.RedisBreakerFlag;
import dev.sluice.Scope;
import dev.sluice.testing.Await;
import dev.sluice.testing.StubDataSource;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Issue 36, item 3, on a real Redis with two instances in one JVM (each a limited data source
 * reading the shared flag, and its breaker's publisher, a {@link RedisBreakerFlag} as the Spring
 * Boot starter makes with {@code sluice.circuit-breaker.publish=true}): one instance's breaker
 * closing set the fleet's flag closed while the other's was still open (3 runs of 4), and a move
 * to closed that Redis did not take left the key open until its 1-minute expiry.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class SharedFlagFollowsEveryBreakerTest {
  private static final Duration REFRESH = Duration.ofMillis(100);
  /** Patient: these tests are about votes, not timeouts, on a loaded machine. */
  private static final Duration TIMEOUT = Duration.ofMillis(1_000);
  private static final Duration SLACK = Duration.ofSeconds(2);

  private static TestRedis redis;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  private static String uniqueName() {
    return "t-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** One instance's limited data source, reading the flag. */
  private static RateLimitedDataSource instance(String name) {
    Properties p = new Properties();
    p.setProperty("sluice.name", name);
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.redis.refresh", REFRESH.toMillis() + "ms");
    p.setProperty("sluice.redis.timeout", TIMEOUT.toMillis() + "ms");
    p.setProperty("sluice.recovery.settle", "0"); // limiting() follows the flag itself here
    return RateLimitedDataSource.builder(new StubDataSource()).properties(p)
        .scope(Scope.CONNECTION).build();
  }

  /** One instance's breaker publisher. */
  private static RedisBreakerFlag breaker(String uri, String name) {
    return RedisBreakerFlag.builder(uri, name).refresh(REFRESH).timeout(TIMEOUT).build();
  }

  @Test
  void twoBreakers_theFirstCloses_theFleetsFlagStaysOpenUntilTheSecondCloses() throws Exception {
    String name = uniqueName();
    try (RateLimitedDataSource one = instance(name); RateLimitedDataSource two = instance(name);
        RedisBreakerFlag breakerOne = breaker(redis.uri(), name);
        RedisBreakerFlag breakerTwo = breaker(redis.uri(), name);
        Jedis cli = redis.client()) {
      assertThat(breakerOne.trip(Duration.ofMinutes(1))).isTrue();
      assertThat(breakerTwo.trip(Duration.ofMinutes(1))).isTrue();
      Await.until("both instances limiting", SLACK,
          () -> one.stats().limiting() && two.stats().limiting());

      assertThat(breakerOne.reset()).isTrue(); // the first breaker closes; the second is open
      assertThat(cli.get("sluice:" + name + ":breaker")).isEqualTo("open");
      Await.during("both limiting while the second breaker is open", REFRESH.multipliedBy(5),
          () -> one.stats().limiting() && two.stats().limiting());
      assertThat(cli.hlen("sluice:" + name + ":votes")).isEqualTo(1);

      assertThat(breakerTwo.reset()).isTrue();
      Await.until("neither limiting once no breaker is open", SLACK,
          () -> !one.stats().limiting() && !two.stats().limiting());
      assertThat(cli.exists("sluice:" + name + ":breaker")).isFalse();
      assertThat(cli.exists("sluice:" + name + ":votes")).isFalse();
    }
  }

  @Test
  void moveToClosedNotTaken_isWrittenAgainUntilItLands() throws Exception {
    String name = uniqueName();
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port());
        RateLimitedDataSource other = instance(name);
        RedisBreakerFlag breaker = breaker("redis://127.0.0.1:" + proxy.port(), name);
        Jedis cli = redis.client()) {
      assertThat(breaker.trip(Duration.ofMinutes(1))).isTrue();
      Await.until("the other instance limiting", SLACK, () -> other.stats().limiting());

      proxy.mode(TcpProxy.Mode.SILENT); // the breaker's Redis connection goes quiet
      assertThat(breaker.reset()).as("not taken within the timeout").isFalse();
      assertThat(cli.get("sluice:" + name + ":breaker")).isEqualTo("open");

      proxy.mode(TcpProxy.Mode.PASS);
      Await.until("the reset written again, long before the key's 1-minute expiry",
          TIMEOUT.multipliedBy(4).plus(SLACK),
          () -> !cli.exists("sluice:" + name + ":breaker"));
      Await.until("the other instance stops limiting", SLACK, () -> !other.stats().limiting());
    }
  }
}
