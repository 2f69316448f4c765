package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.FlagState;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import dev.sluice.Stats;
import dev.sluice.testing.Await;
import dev.sluice.testing.StubDataSource;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Issue 36, item 2, on a real Redis: with both cores busy, flag reads (200 ms timeout) took 0.5 to
 * 1.1 s; each was taken for an outage ("unreachable ... the flag answers open", then "serves
 * again" milliseconds later), the flag flipped open, and a recovery hold followed: one instance
 * whose breaker never opened, with the cache up, limited for 122 s after one 551 ms read.
 *
 * <p>Redis is paused with {@code DEBUG SLEEP}: for less than {@code sluice.redis.unreachable-after}
 * the flag keeps its last value (closed); for longer it answers open, and when Redis answers again
 * with the key closed, limiting stops without a recovery hold.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class SlowFlagReadIsNoOutageTest {
  private static final Duration REFRESH = Duration.ofMillis(100);
  private static final Duration TIMEOUT = Duration.ofMillis(200);
  private static final Duration UNREACHABLE_AFTER = Duration.ofSeconds(2);
  private static final Duration SETTLE = Duration.ofMillis(500);
  /** Room for a loaded two-core machine. */
  private static final Duration SLACK = Duration.ofMillis(1_000);

  /** Jedis names no {@code DEBUG} command of its own. */
  private static final ProtocolCommand DEBUG =
      () -> "DEBUG".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private static TestRedis redis;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  private static RateLimitedDataSource dataSource() {
    Properties p = new Properties();
    p.setProperty("sluice.name", "t-" + UUID.randomUUID().toString().substring(0, 8));
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.redis.refresh", REFRESH.toMillis() + "ms");
    p.setProperty("sluice.redis.timeout", TIMEOUT.toMillis() + "ms");
    p.setProperty("sluice.redis.settle", SETTLE.toMillis() + "ms");
    p.setProperty("sluice.redis.unreachable-after", UNREACHABLE_AFTER.toMillis() + "ms");
    p.setProperty("sluice.recovery.settle", "60s"); // a hold, if one began, would outlast the test
    return RateLimitedDataSource.builder(new StubDataSource()).properties(p)
        .scope(Scope.CONNECTION).build();
  }

  /** Runs {@code DEBUG SLEEP} on a thread of its own: Redis answers nobody meanwhile. */
  private static Thread pause(Duration pause) {
    try (Jedis probe = redis.client()) {
      probe.sendCommand(DEBUG, "SLEEP", "0");
    } catch (JedisDataException e) {
      assumeTrue(false, "this Redis refuses DEBUG (enable-debug-command): " + e.getMessage());
    }
    Thread sleeper = new Thread(() -> {
      try (Jedis cli = redis.client()) {
        cli.getConnection().setSoTimeout((int) pause.toMillis() + 10_000);
        cli.sendCommand(DEBUG, "SLEEP", Double.toString(pause.toMillis() / 1e3));
      }
    }, "test-debug-sleep");
    sleeper.start();
    return sleeper;
  }

  @Test
  void redisPausedShorterThanTheBound_flagKeepsItsValue() throws Exception {
    try (RateLimitedDataSource ds = dataSource()) {
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.CLOSED);
      AtomicLong oldestReadMillis = new AtomicLong();
      Thread sleeper = pause(Duration.ofMillis(800));
      Await.during("the flag closed through an 800 ms pause and after", Duration.ofMillis(1_500),
          () -> {
            Stats stats = ds.stats();
            oldestReadMillis.accumulateAndGet(stats.sinceFlagRead().toMillis(), Math::max);
            return !stats.limiting() && stats.flagState() == FlagState.CLOSED;
          });
      sleeper.join(10_000);
      // the reads were late: the old rule (no read within refresh + timeout) would have flipped
      assertThat(oldestReadMillis.get()).isGreaterThan(REFRESH.plus(TIMEOUT).toMillis());
      assertThat(ds.stats().rejected()).isZero();
      System.out.printf("[figures] Redis paused 800 ms: the flag's copy aged up to %d ms, stayed"
          + " closed (unreachable-after %d ms)%n", oldestReadMillis.get(),
          UNREACHABLE_AFTER.toMillis());
    }
  }

  @Test
  void redisPausedLongerThanTheBound_opens_thenStopsWithNoRecoveryHold() throws Exception {
    try (RateLimitedDataSource ds = dataSource()) {
      assertThat(ds.stats().limiting()).isFalse();
      long paused = System.nanoTime();
      Thread sleeper = pause(Duration.ofMillis(4_000));
      Await.until("limiting once Redis is silent for longer than the bound",
          UNREACHABLE_AFTER.plus(REFRESH).plus(TIMEOUT).plus(SLACK), () -> ds.stats().limiting());
      long openedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - paused);
      // the silence counts from the last read that succeeded, up to one refresh before the pause
      assertThat(openedMillis).isGreaterThanOrEqualTo(UNREACHABLE_AFTER.minus(REFRESH).toMillis());
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.UNREACHABLE);
      sleeper.join(10_000);
      long answered = System.nanoTime();
      Await.until("not limiting once Redis answers, the key closed, after the settle",
          SETTLE.plus(REFRESH).plus(TIMEOUT).plus(SLACK), () -> {
            Stats stats = ds.stats();
            assertThat(stats.recovering()).as("a recovery hold after a presumed open").isFalse();
            return !stats.limiting();
          });
      long closedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered);
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.CLOSED);
      System.out.printf("[figures] Redis paused 4 s: limiting after %d ms (unreachable-after %d"
          + " ms); stopped %d ms after Redis answered (settle %d ms), no recovery hold%n",
          openedMillis, UNREACHABLE_AFTER.toMillis(), closedMillis, SETTLE.toMillis());
    }
  }
}
