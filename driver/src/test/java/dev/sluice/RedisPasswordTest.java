package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.TestRedis;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** Issue 10 item 10: {@code sluice.redis.password} logs in, so the URI need not carry it. */
class RedisPasswordTest {
  private static TestRedis redis;

  @BeforeAll
  static void startRedisWithAPassword() {
    redis = TestRedis.start();
    assumeTrue(redis.canStop(), "needs an embedded Redis whose password the test may set");
    try (Jedis cli = redis.client()) {
      cli.configSet("requirepass", "s3cr3t");
    }
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  private static Properties settings(String name) {
    Properties p = new Properties();
    p.setProperty("sluice.name", name);
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.jmx", "false");
    return p;
  }

  @Test
  void passwordKey_logsInAndIsNeverShown() throws Exception {
    Properties p = settings("password-key");
    p.setProperty("sluice.redis.password", "s3cr3t");

    try (RateLimitedDataSource ds = RedisFlagTest.dataSource(p)) {
      RedisFlagTest.awaitClosed(ds); // read: logged in
      assertThat(ds.enforcer().settings().toString()).contains("sluice.redis.password=****")
          .doesNotContain("s3cr3t");
    }
  }

  @Test
  void withoutThePassword_theFlagCannotBeRead() throws Exception {
    try (RateLimitedDataSource ds = RedisFlagTest.dataSource(settings("password-none"))) {
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.UNREACHABLE);
    }
  }
}
