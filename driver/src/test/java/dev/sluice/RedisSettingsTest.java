package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.testing.StubDataSource;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The Redis keys are checked when the data source is built, each failure naming its key. */
class RedisSettingsTest {

  private static Properties props(String... pairs) {
    Properties p = new Properties();
    p.setProperty("sluice.budget", "100");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static String failure(Properties p) {
    return assertThrows(IllegalArgumentException.class,
        () -> RateLimitedDataSource.builder(new StubDataSource()).properties(p).build())
        .getMessage();
  }

  @Test
  void instancesRedis_withoutRedis_failsNamingBothKeys() {
    assertThat(failure(props("sluice.instances", "redis")))
        .contains("sluice.instances=redis").contains("sluice.redis");
  }

  @Test
  void redisTimingKey_withoutRedis_failsNamingTheKey() {
    assertThat(failure(props("sluice.redis.refresh", "100ms")))
        .startsWith("sluice.redis.refresh is set, but sluice.redis is not");
  }

  @Test
  void registryKey_withFixedInstances_failsNamingTheKey() {
    assertThat(failure(props("sluice.redis", "redis://localhost:1",
        "sluice.instances.assumed", "3")))
        .startsWith("sluice.instances.assumed is set, but sluice.instances is 1");
  }

  @Test
  void expiry_notLongerThanHeartbeatPlusTimeout_fails() {
    assertThat(failure(props("sluice.redis", "redis://localhost:1", "sluice.instances", "redis",
        "sluice.redis.heartbeat", "1s", "sluice.instances.expiry", "1s")))
        .startsWith("sluice.instances.expiry must be longer than");
  }

  @Test
  void unreachableAfter_notLongerThanRefreshPlusTimeout_failsNamingKeyAndValue() {
    assertThat(failure(props("sluice.redis", "redis://localhost:1",
        "sluice.redis.unreachable-after", "450ms")))
        .startsWith("sluice.redis.unreachable-after must be longer than sluice.redis.refresh"
            + " plus sluice.redis.timeout (450 ms), but was \"450ms\"");
    assertThat(failure(props("sluice.redis", "redis://localhost:1",
        "sluice.redis.unreachable-after", "0s")))
        .startsWith("sluice.redis.unreachable-after must be a positive duration");
  }

  @Test
  void unreachableAfter_unset_isFourReads() {
    assertThat(SettingsCheck.unreachableAfter(Settings.empty()
        .with(Keys.REDIS_REFRESH, Duration.ofSeconds(1))
        .with(Keys.REDIS_TIMEOUT, Duration.ofMillis(500))))
        .isEqualTo(Duration.ofSeconds(6));
    assertThat(SettingsCheck.unreachableAfter(Settings.empty()))
        .isEqualTo(Duration.ofMillis(1_800));
  }

  @Test
  void unreachableAfter_onTheFlagsBuilder_checkedAtBuild() {
    RedisBreakerFlag.Builder builder = RedisBreakerFlag.builder("redis://localhost:1", "x")
        .refresh(Duration.ofSeconds(1)).unreachableAfter(Duration.ofMillis(900));
    assertThat(assertThrows(IllegalArgumentException.class, builder::build).getMessage())
        .startsWith("sluice.redis.unreachable-after must be longer than");
  }

  @Test
  void badDuration_failsNamingKeyAndValue() {
    assertThat(failure(props("sluice.redis", "redis://localhost:1",
        "sluice.redis.timeout", "-5ms")))
        .isEqualTo("sluice.redis.timeout must be a positive duration such as `250ms`, `10s`,"
            + " `1m` or `PT10S`, but was \"-5ms\"");
  }

  @Test
  void badPolicy_failsNamingKeyAndValue() {
    assertThat(failure(props("sluice.redis", "redis://localhost:1",
        "sluice.redis.unreachable", "maybe")))
        .isEqualTo("sluice.redis.unreachable must be `open`, `closed` or `last`, but was"
            + " \"maybe\"");
  }

  @Test
  void badRedisUri_failsWithoutThePassword() {
    assertThat(failure(props("sluice.redis", "http://app:s3cret@localhost:1")))
        .startsWith("sluice.redis must be").doesNotContain("s3cret").contains("****");
  }

  @Test
  void unknownRedisKey_failsNamingTheNearest() {
    assertThat(failure(props("sluice.redis.refesh", "100ms")))
        .contains("sluice.redis.refesh is not a Sluice setting; did you mean sluice.redis.refresh");
  }

  @Test
  void builder_badArguments_failNamingTheKey() {
    assertThat(assertThrows(IllegalArgumentException.class,
        () -> RedisBreakerFlag.builder("redis://localhost:1", "bad name!")).getMessage())
        .startsWith("sluice.name must be");
    RedisBreakerFlag.Builder builder = RedisBreakerFlag.builder("redis://localhost:1", "ok");
    assertThat(assertThrows(IllegalArgumentException.class,
        () -> builder.refresh(Duration.ZERO)).getMessage()).startsWith("sluice.redis.refresh must");
  }

  @Test
  void flagManual_withoutJmx_failsSayingWhy() {
    assertThat(failure(props("sluice.flag", "manual", "sluice.jmx", "false")))
        .startsWith("sluice.flag=manual needs sluice.jmx=true");
  }
}
