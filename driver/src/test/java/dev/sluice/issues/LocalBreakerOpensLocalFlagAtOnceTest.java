package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitedDataSource;
import dev.sluice.RedisBreakerFlag;
import dev.sluice.Scope;
import dev.sluice.testing.StubDataSource;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5, on a real Redis: the first second of an outage exceeded the budget, in part
 * with the reads an instance admitted between its own breaker opening and its data source's flag
 * seeing the published key. The Spring Boot starter publishes through a {@link RedisBreakerFlag}
 * of its own; the data source's flag is another reader of the same key in the same JVM. Now a trip
 * opens it at once — here with the publisher's Redis silent, so that neither the key nor the
 * message can have carried it.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class LocalBreakerOpensLocalFlagAtOnceTest {

  @Test
  void publisherTrips_theDataSourceBesideItLimitsAtOnce_evenWithRedisSilent() throws Exception {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    try (TestRedis redis = TestRedis.start();
        TcpProxy proxy = TcpProxy.to(redis.host(), redis.port())) {
      String uri = "redis://127.0.0.1:" + proxy.port();
      Properties p = new Properties();
      p.setProperty("sluice.name", name);
      p.setProperty("sluice.budget", "100");
      p.setProperty("sluice.redis", uri);
      p.setProperty("sluice.redis.refresh", "10s"); // no poll can explain what follows
      p.setProperty("sluice.redis.timeout", "1s");
      p.setProperty("sluice.redis.unreachable-after", "60s"); // nor a fail-safe
      try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
              .properties(p).scope(Scope.CONNECTION).build();
          RedisBreakerFlag publisher = RedisBreakerFlag.builder(uri, name)
              .timeout(Duration.ofMillis(200)).build()) {
        assertThat(ds.stats().limiting()).isFalse();
        proxy.mode(TcpProxy.Mode.SILENT);
        assertThat(publisher.trip(Duration.ofMinutes(1))).as("Redis is silent").isFalse();
        assertThat(ds.stats().limiting()).as("the data source's flag, at once").isTrue();
        proxy.mode(TcpProxy.Mode.PASS);
      }
    }
  }
}
