package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RedisEndpointTest {

  @Test
  void parse_fullUri_takesEveryPart() {
    RedisEndpoint e = RedisEndpoint.parse("rediss://app:s3cret@cache.example:6380/4");
    assertThat(e).isEqualTo(new RedisEndpoint("cache.example", 6380, "app", "s3cret", 4, true));
  }

  @Test
  void parse_bareHost_defaultsPortAndDatabase() {
    RedisEndpoint e = RedisEndpoint.parse("redis://localhost");
    assertThat(e).isEqualTo(new RedisEndpoint("localhost", 6379, null, null, 0, false));
  }

  @Test
  void parse_userInfoWithoutColon_isAPassword() {
    assertThat(RedisEndpoint.parse("redis://s3cret@h:1").password()).isEqualTo("s3cret");
    assertThat(RedisEndpoint.parse("redis://:s3cret@h:1").user()).isNull();
  }

  @Test
  void toString_withPassword_masksIt() {
    assertThat(RedisEndpoint.parse("redis://app:s3cret@h:1/2").toString())
        .isEqualTo("redis://app:****@h:1/2").doesNotContain("s3cret");
  }

  @Test
  void parse_badDatabase_failsNamingTheKeyWithoutThePassword() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RedisEndpoint.parse("redis://app:s3cret@h:1/x"));
    assertThat(e.getMessage()).startsWith("sluice.redis must be").doesNotContain("s3cret");
  }

  @Test
  void parse_sentinel_takesSentinelsMasterAndDatabase() {
    RedisEndpoint e = RedisEndpoint.parse("redis-sentinel://app:s3cret@s1:26380,s2/mymaster/3");
    assertThat(e.viaSentinel()).isTrue();
    assertThat(e.sentinels()).containsExactly("s1:26380", "s2:26379");
    assertThat(e.master()).isEqualTo("mymaster");
    assertThat(e.database()).isEqualTo(3);
    assertThat(e.user()).isEqualTo("app");
    assertThat(e.password()).isEqualTo("s3cret");
    assertThat(e.toString()).isEqualTo("redis-sentinel://app:****@s1:26380,s2:26379/mymaster/3");
  }

  @Test
  void parse_sentinelWithoutMaster_failsWithoutThePassword() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RedisEndpoint.parse("redis-sentinel://:s3cret@s1:26379"));
    assertThat(e.getMessage()).startsWith("sluice.redis must be").doesNotContain("s3cret")
        .contains("****");
  }

  @Test
  void parse_otherScheme_fails() {
    assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.parse("http://h:1"));
    assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.parse("redis://h:99999"));
  }
}
