package dev.sluice.internal.config;

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

  @Test
  void parse_cluster_takesEveryNodeAndTheLogin() {
    RedisEndpoint e = RedisEndpoint.parse("redis-cluster://app:s3cret@n1:7000,n2,[::1]:7002");
    assertThat(e.cluster()).isTrue();
    assertThat(e.viaSentinel()).isFalse();
    assertThat(e.nodes()).containsExactly("n1:7000", "n2:6379", "[::1]:7002");
    assertThat(e.user()).isEqualTo("app");
    assertThat(e.password()).isEqualTo("s3cret");
    assertThat(e.database()).isZero();
    assertThat(e.toString()).isEqualTo("redis-cluster://app:****@n1:7000,n2:6379,[::1]:7002");
    assertThat(RedisEndpoint.parse("redis-cluster://n1:7000/").nodes()).containsExactly("n1:7000");
  }

  @Test
  void parse_clusterWithoutHosts_saysSoWithoutThePassword() {
    for (String uri : new String[] {"redis-cluster://", "redis-cluster://app:s3cret@",
        "redis-cluster://app:s3cret@/"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RedisEndpoint.parse(uri));
      assertThat(e.getMessage())
          .startsWith("sluice.redis must be a URI `redis-cluster://[user:password@]host:port"
              + "[,host:port...]` and name at least one cluster node, but was \"redis-cluster://")
          .doesNotContain("s3cret");
    }
  }

  @Test
  void parse_clusterWithADatabase_saysClustersHaveNone() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RedisEndpoint.parse("redis-cluster://:s3cret@n1:7000,n2:7001/2"));
    assertThat(e.getMessage()).isEqualTo("sluice.redis must be a URI"
        + " `redis-cluster://[user:password@]host:port[,host:port...]` and have no database index"
        + " (a Redis Cluster has only database 0), but was"
        + " \"redis-cluster://:****@n1:7000,n2:7001/2\"");
  }

  @Test
  void parse_clusterWithBadPorts_namesTheRange() {
    for (String port : new String[] {"0", "65536", "99999999", "x1", "", "-1"}) {
      String uri = "redis-cluster://u:s3cret@n1:7000,n2:" + port;
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RedisEndpoint.parse(uri));
      assertThat(e.getMessage()).as(port)
          .contains("give each cluster node a port from 1 to 65535, but was"
              + " \"redis-cluster://u:****@n1:7000,n2:" + port + "\"")
          .doesNotContain("s3cret");
    }
  }

  @Test
  void parse_clusterWithAnEmptyNode_failsNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RedisEndpoint.parse("redis-cluster://n1:7000,,n2:7001"));
    assertThat(e.getMessage()).contains("name each cluster node as host:port");
    assertThrows(IllegalArgumentException.class,
        () -> RedisEndpoint.parse("redis-cluster://n1:7000,:7001"));
  }
}
