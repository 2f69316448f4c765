package dev.sluice.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the Redis password comes from: the URI, else the key, else the environment. */
class RedisUriTest {
  private final Map<String, String> environment = new HashMap<>();

  private String password(String... pairs) {
    Map<String, String> text = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      text.put(pairs[i], pairs[i + 1]);
    }
    return RedisUri.endpoint(Settings.parse(text), environment::get).password();
  }

  @Test
  void endpoint_passwordKey_isUsed() {
    assertThat(password("sluice.redis", "redis://u:@cache:6379", "sluice.redis.password", "k"))
        .isEqualTo("k");
  }

  @Test
  void endpoint_noPasswordGiven_takesTheEnvironmentVariable() {
    environment.put("SLUICE_REDIS_PASSWORD", "e");

    assertThat(password("sluice.redis", "redis://cache:6379")).isEqualTo("e");
    assertThat(password("sluice.redis", "redis://cache:6379", "sluice.redis.password", "k"))
        .isEqualTo("k");
    assertThat(password("sluice.redis", "redis://:u@cache:6379")).isEqualTo("u");
  }

  @Test
  void endpoint_passwordInUriAndKey_isAnErrorShowingNeither() {
    assertThatThrownBy(() -> password("sluice.redis", "redis://:u1@cache:6379",
        "sluice.redis.password", "k1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sluice.redis.password is set, but sluice.redis has a password")
        .hasMessageContaining("redis://:****@cache:6379")
        .hasMessageNotContaining("u1").hasMessageNotContaining("k1");
  }

  @Test
  void endpoint_nothingGiven_hasNoPassword() {
    assertThat(password("sluice.redis", "redis://cache:6379")).isNull();
  }
}
