package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.config.RedisEndpoint;
import dev.sluice.internal.config.Unreachable;
import dev.sluice.internal.limit.Ticker;
import dev.sluice.testing.Await;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Issue 10, item 7, against a real Redis: a read of the key that started before this instance's
 * {@code trip()} reached Redis must not close the flag afterwards with its stale "closed". The
 * trip's {@code SET} is held on its way by a link that wraps the real one.
 */
class FlagReaderRedisTest {

  @Test
  void poll_readsBetweenTripAndItsWrite_staleClosedNotApplied() throws Exception {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    String key = "sluice:" + name + ":breaker";
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (TestRedis redis = TestRedis.start();
        RedisLink real = RedisLinks.connect(RedisEndpoint.parse(redis.uri()),
            Duration.ofMillis(500), "sluice-" + name);
        RedisLink held = new HeldWrites(real, writing, release);
        FlagReader reader = new FlagReader(name, held, new RedisHealth(name, redis.uri(),
            "the breaker flag's reads", "test"), new FlagReader.Timing(Duration.ofSeconds(10),
            Duration.ofMillis(500), Duration.ofMillis(100), Duration.ofSeconds(1),
            Duration.ofSeconds(60)),
            Unreachable.OPEN, Ticker.system());
        Jedis cli = redis.client()) {
      reader.poll();
      assertThat(reader.isOpen()).isFalse();
      Thread app = new Thread(() -> reader.trip(Duration.ofMinutes(1)), "test-trip");
      app.start();
      assertThat(writing.await(5, TimeUnit.SECONDS)).isTrue();
      reader.poll(); // after the trip, before its SET reached Redis: reads no key
      assertThat(cli.exists(key)).isFalse();
      assertThat(reader.isOpen()).isTrue();
      release.countDown();
      app.join(5_000);
      Await.until("the trip written", Duration.ofSeconds(3), () -> cli.exists(key));
      reader.poll();
      assertThat(reader.isOpen()).isTrue();
    }
  }

  /** The real link, but each write waits at its start until released. */
  private record HeldWrites(RedisLink real, CountDownLatch writing, CountDownLatch release)
      implements RedisLink {
    @Override
    public String get(String key) {
      return real.get(key);
    }

    @Override
    public void setAndPublish(String key, String value, Duration ttl, String channel,
        String message) {
      hold();
      real.setAndPublish(key, value, ttl, channel, message);
    }

    @Override
    public void deleteAndPublish(String key, String channel, String message) {
      hold();
      real.deleteAndPublish(key, channel, message);
    }

    private void hold() {
      writing.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public long vote(String key, String member, Duration ttl) {
      hold();
      return real.vote(key, member, ttl);
    }

    @Override
    public long heartbeat(String key, String member, Duration expiry) {
      return real.heartbeat(key, member, expiry);
    }

    @Override
    public void leave(String key, String member) {
      real.leave(key, member);
    }

    @Override
    public Map<String, String> publish(String key, String member, String value,
        Duration expiry) {
      return real.publish(key, member, value, expiry);
    }

    @Override
    public void forget(String key, String member) {
      real.forget(key, member);
    }

    @Override
    public void send(String channel, String message) {
      real.send(channel, message);
    }

    @Override
    public void subscribe(String channel, Duration silence, Listener listener) {
      real.subscribe(channel, silence, listener);
    }

    @Override
    public void close() {}
  }
}
