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

  @Test
  void endpoint_clusterWithThePasswordKey_keepsItsNodes() {
    Map<String, String> text = Map.of("sluice.redis", "redis-cluster://n1:7000,n2:7001",
        "sluice.redis.password", "k");
    var endpoint = RedisUri.endpoint(Settings.parse(text), environment::get);
    assertThat(endpoint.password()).isEqualTo("k");
    assertThat(endpoint.nodes()).containsExactly("n1:7000", "n2:7001");
    assertThat(endpoint.cluster()).isTrue();
  }

  @Test
  void settings_badClusterUri_keepTheExactReason_masked() {
    assertThatThrownBy(() -> Settings.parse(Map.of("sluice.redis",
        "redis-cluster://app:s3cret@n1:7000/0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("have no database index")
        .hasMessageEndingWith("but was \"redis-cluster://app:****@n1:7000/0\"")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> Settings.parse(Map.of("sluice.redis", "redis://h:99999")))
        .hasMessageStartingWith("sluice.redis must be a URI `redis://[user:password@]host:port");
  }
}
