package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The driver is built against Jedis 5.2 but also runs on Spring Boot 3.5's Jedis 6, where the
 * fluent parameter classes ({@code SetParams.px()} and the like) changed their return types: a
 * call compiled against 5.2 is a {@code NoSuchMethodError} on 6. So the classes that talk to Jedis
 * send such commands as words and never touch {@code redis.clients.jedis.params}. (Checked for
 * real by running the Redis tests on Jedis 6: compile, then
 * {@code mvn -pl driver -am test -Djedis.version=6.0.0 -Dtest='Redis*Test,ClusterLinkTest'}.)
 */
class JedisCompatibilityTest {

  @Test
  void jedisClasses_useNoFluentParams_whoseSignaturesChangedInJedis6() throws IOException {
    for (Class<?> type : new Class<?>[] {CommandLink.class, JedisLink.class, ClusterLink.class,
        JedisSubscriber.class}) {
      assertThat(constantPool(type).contains("redis/clients/jedis/params/"))
          .as(type.getSimpleName() + " refers to a class of redis.clients.jedis.params").isFalse();
    }
  }

  private static String constantPool(Class<?> type) throws IOException {
    try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
