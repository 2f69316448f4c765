package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.FlagState;
import dev.sluice.RateLimitedDataSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The driver's Redis features on the Jedis that Spring Boot manages (6, where the driver is built
 * with 5): the flag read, trip and reset, and the instance registry's heartbeat, against a real
 * Redis.
 */
class RedisOnBootsJedisTest {

  @Test
  void flagAndRegistry_workOnBootsJedis() throws Exception {
    try (EmbeddedRedis redis = EmbeddedRedis.start(); Jedis operator = redis.client()) {
      Fixtures.runner().withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
          .withPropertyValues("sluice.budget=100", "sluice.name=users-db",
              "sluice.redis=" + redis.uri(), "sluice.instances=redis",
              "sluice.redis.heartbeat=100ms")
          .run(context -> {
            RateLimitedDataSource sluice = Fixtures.sluice(context);
            await().atMost(Duration.ofSeconds(10))
                .until(() -> sluice.stats().flagState() == FlagState.CLOSED);
            await().atMost(Duration.ofSeconds(10))
                .until(() -> sluice.stats().liveInstances() == 1);

            operator.set("sluice:users-db:breaker", "open");

            await().atMost(Duration.ofSeconds(10)).until(() -> sluice.stats().limiting());
            assertThat(operator.zcard("sluice:users-db:instances")).isEqualTo(1);
          });
    }
  }
}
