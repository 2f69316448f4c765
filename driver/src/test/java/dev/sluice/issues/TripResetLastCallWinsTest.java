package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.FlagState;
import dev.sluice.RedisBreakerFlag;
import dev.sluice.testing.Await;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Issue 10, item 6: {@code trip()}/{@code reset()} keep their word. With Redis frozen
 * ({@code SIGSTOP}), {@code trip(5 min)} returned {@code false} and {@code reset()} returned
 * {@code false}; on resume the trip's {@code SET}, buffered in the frozen server's socket, ran and
 * the {@code DEL} never did, so every instance limited for five minutes although the application
 * saw both calls fail. And either call could block for a pool wait, a connect and two reads, or
 * for a Sentinel lookup per Sentinel. Now the last call is written again until Redis takes it, and
 * a call blocks at most {@code sluice.redis.timeout}.
 */
class TripResetLastCallWinsTest {
  private static final Duration TIMEOUT = Duration.ofMillis(500);
  /**
   * Room for a loaded two-core machine (359 ms were seen for a 200 ms timeout next to two CPU
   * burners); still below a second timeout's worth more, so a call that waits twice fails.
   */
  private static final Duration SLACK = Duration.ofMillis(400);

  private static String uniqueName() {
    return "t-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static RedisBreakerFlag flag(String uri, String name) {
    return RedisBreakerFlag.builder(uri, name).refresh(Duration.ofMillis(100)).timeout(TIMEOUT)
        .settle(Duration.ofMillis(300)).ping(Duration.ofMillis(300)).build();
  }

  private static long millisOf(Runnable call) {
    long start = System.nanoTime();
    call.run();
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  @Test
  void tripThenReset_bothFailWhileRedisFrozen_theResetWinsOnResume() {
    TestRedis own = TestRedis.start();
    assumeTrue(own.canStop(), "needs the embedded Redis to freeze it");
    String name = uniqueName();
    String key = "sluice:" + name + ":breaker";
    try (RedisBreakerFlag app = flag(own.uri(), name);
        RedisBreakerFlag other = flag(own.uri(), name);
        Jedis cli = own.client()) {
      Await.until("both read the absent key", Duration.ofSeconds(3),
          () -> !app.isOpen() && !other.isOpen());
      own.freeze();
      boolean[] answers = new boolean[2];
      long tripMillis = millisOf(() -> answers[0] = app.trip(Duration.ofMinutes(5)));
      long resetMillis = millisOf(() -> answers[1] = app.reset());
      assertThat(answers).containsExactly(false, false);
      assertThat(tripMillis).isLessThan(TIMEOUT.plus(SLACK).toMillis());
      assertThat(resetMillis).isLessThan(TIMEOUT.plus(SLACK).toMillis());
      // unreachable-after: 4 x (refresh + timeout) = 1.2 s by default, then up to one more read
      Await.until("the other instance sees Redis unreachable", Duration.ofSeconds(5),
          () -> other.state() == FlagState.UNREACHABLE);

      own.thaw();
      Await.until("the other instance reads the key again", Duration.ofSeconds(3),
          () -> other.state() != FlagState.UNREACHABLE);
      Await.until("the reset written", Duration.ofSeconds(2), () -> !cli.exists(key));
      Await.during("the key stays deleted", Duration.ofSeconds(1), () -> !cli.exists(key));
      Await.until("the other instance closes", Duration.ofSeconds(2), () -> !other.isOpen());
      Await.until("this instance closes", Duration.ofSeconds(2), () -> !app.isOpen());
      System.out.printf("frozen Redis: trip() returned false after %d ms, reset() after %d ms"
          + " (timeout %d ms)%n", tripMillis, resetMillis, TIMEOUT.toMillis());
    } finally {
      own.thaw();
      own.close();
    }
  }

  @Test
  void trip_failsWhileRedisFrozen_isWrittenOnResumeWithWhatIsLeftOfItsExpiry() throws Exception {
    TestRedis own = TestRedis.start();
    assumeTrue(own.canStop(), "needs the embedded Redis to freeze it");
    String name = uniqueName();
    String key = "sluice:" + name + ":breaker";
    try (RedisBreakerFlag app = flag(own.uri(), name); Jedis cli = own.client()) {
      own.freeze();
      long tripped = System.nanoTime();
      long tripMillis = millisOf(() -> assertThat(app.trip(Duration.ofSeconds(4))).isFalse());
      Thread.sleep(1_500); // Redis stays frozen this long: part of the trip's 4 s go by
      own.thaw();
      // the buffered SET runs with the whole 4 s, which would outlive the trip by the freeze;
      // the trip written again (every 100 ms until taken) gives what is left of it, so the key
      // expires when the trip ends. Waited on as that moment (now + PTTL), which stays put
      // while time passes, unlike the PTTL a fixed sleep used to read (a race on a busy machine)
      long latest = 4_000 + tripMillis + 100;
      Await.until("the key expires by the trip's end, " + latest + " ms after it",
          Duration.ofSeconds(2), () -> {
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tripped);
            long pttl = cli.pttl(key);
            return pttl > 0 && elapsed + pttl <= latest;
          });
      assertThat(cli.get(key)).isEqualTo("open");
    } finally {
      own.thaw();
      own.close();
    }
  }

  @Test
  void tripAndReset_sentinelsSilent_blockAtMostTheTimeout() throws Exception {
    TestRedis redis = TestRedis.start();
    List<TcpProxy> sentinels = new ArrayList<>();
    try {
      StringBuilder hosts = new StringBuilder();
      for (int i = 0; i < 4; i++) {
        TcpProxy proxy = TcpProxy.to(redis.host(), redis.port());
        proxy.mode(TcpProxy.Mode.SILENT); // accepts, never answers: each asked costs a timeout
        sentinels.add(proxy);
        hosts.append(i == 0 ? "" : ",").append("127.0.0.1:").append(proxy.port());
      }
      try (RedisBreakerFlag app = RedisBreakerFlag.builder("redis-sentinel://" + hosts
          + "/mymaster", uniqueName()).timeout(TIMEOUT).build()) {
        long tripMillis = millisOf(() -> assertThat(app.trip(Duration.ofMinutes(1))).isFalse());
        long resetMillis = millisOf(() -> assertThat(app.reset()).isFalse());
        assertThat(app.isOpen()).isTrue();
        // asking four silent Sentinels takes at least 4 x 500 ms
        assertThat(tripMillis).isLessThan(TIMEOUT.plus(SLACK).toMillis());
        assertThat(resetMillis).isLessThan(TIMEOUT.plus(SLACK).toMillis());
        System.out.printf("silent Sentinels: trip() returned after %d ms, reset() after %d ms"
            + " (timeout %d ms)%n", tripMillis, resetMillis, TIMEOUT.toMillis());
      }
    } finally {
      for (TcpProxy proxy : sentinels) {
        proxy.close();
      }
      redis.close();
    }
  }
}
