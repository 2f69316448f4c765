package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.Await;
import dev.sluice.testing.StubDataSource;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;

/**
 * The Redis breaker flag against a real Redis: propagation by polling and by pub/sub, Redis
 * stopped, restarted and silent, and no thread left behind.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class RedisFlagTest {
  static final Duration REFRESH = Duration.ofMillis(100);
  static final Duration TIMEOUT = Duration.ofMillis(200);
  /**
   * The timeout of {@link #fastFlag}, whose tests want a healthy Redis to answer: longer than a
   * loaded machine may keep the embedded Redis from answering (556 ms were seen next to two CPU
   * burners, and {@code trip()} failed with 200 ms).
   */
  static final Duration PATIENT_TIMEOUT = Duration.ofMillis(1_000);
  static final Duration SETTLE = Duration.ofMillis(600);
  /** How long the key may go unread before Redis counts as unreachable: just over refresh + timeout. */
  static final Duration UNREACHABLE_AFTER = Duration.ofMillis(400);
  /** Room for a loaded two-core machine; far below Jedis' 2 s defaults and a doubled interval. */
  static final Duration SLACK = Duration.ofMillis(400);

  private static TestRedis redis;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  static String uniqueName() {
    return "t-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * Waits until the flag has read the absent key. The first read, at build, waits at most the
   * timeout; on a loaded machine it may fail safe (open), and a later read closes the flag after
   * the settle: waited on, not read once.
   */
  static void awaitClosed(RateLimitedDataSource ds) {
    Await.until("the flag reads the absent key: closed", Duration.ofSeconds(5),
        () -> !ds.stats().limiting() && ds.stats().flagState() == FlagState.CLOSED);
  }

  static Properties settings(String redisUri, String name) {
    Properties p = new Properties();
    p.setProperty("sluice.name", name);
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.redis", redisUri);
    p.setProperty("sluice.redis.refresh", REFRESH.toMillis() + "ms");
    p.setProperty("sluice.redis.timeout", TIMEOUT.toMillis() + "ms");
    p.setProperty("sluice.redis.settle", SETTLE.toMillis() + "ms");
    p.setProperty("sluice.redis.ping", "300ms");
    p.setProperty("sluice.redis.unreachable-after", UNREACHABLE_AFTER.toMillis() + "ms");
    p.setProperty("sluice.recovery.settle", "0"); // limiting() follows the flag itself here
    return p;
  }

  static RateLimitedDataSource dataSource(Properties settings) {
    return RateLimitedDataSource.builder(new StubDataSource()).properties(settings)
        .scope(Scope.CONNECTION).build();
  }

  private static String key(String name) {
    return "sluice:" + name + ":breaker";
  }

  @Test
  void flag_keySetWithoutPublish_limitsWithinOneRefresh() throws Exception {
    String name = uniqueName();
    try (RateLimitedDataSource ds = dataSource(settings(redis.uri(), name));
        Jedis cli = redis.client()) {
      awaitClosed(ds);

      cli.set(key(name), "open"); // no PUBLISH: only polling can see it
      long nanos = Await.until("limiting after SET", REFRESH.plus(TIMEOUT).plus(SLACK),
          () -> ds.stats().limiting());
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.OPEN);

      cli.del(key(name));
      Await.until("passing after DEL", REFRESH.plus(TIMEOUT).plus(SLACK),
          () -> !ds.stats().limiting());
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.CLOSED);
      assertThat(ds.stats().sinceFlagRead()).isLessThan(REFRESH.plus(TIMEOUT).plus(SLACK));
      System.out.printf("polling: SET seen after %d ms%n", TimeUnit.NANOSECONDS.toMillis(nanos));
    }
  }

  @Test
  void flag_closed_callsPassUncounted() throws Exception {
    try (RateLimitedDataSource ds = dataSource(settings(redis.uri(), uniqueName()))) {
      for (int i = 0; i < 50; i++) {
        ds.getConnection().close();
      }
      assertThat(ds.stats().admitted()).isZero();
      assertThat(ds.stats().rejected()).isZero();
    }
  }

  @Test
  void flag_setAndPublish_reachesLimitingInMilliseconds() throws Exception {
    String name = uniqueName();
    Properties p = settings(redis.uri(), name);
    p.setProperty("sluice.redis.refresh", "3s"); // polling alone would take ~1.5 s on average
    p.setProperty("sluice.redis.unreachable-after", "4s"); // more than refresh + timeout
    try (RateLimitedDataSource ds = dataSource(p); Jedis cli = redis.client()) {
      Await.until("subscriber connected", Duration.ofSeconds(3),
          () -> cli.pubsubNumSub(key(name)).getOrDefault(key(name), 0L) > 0);
      List<Long> micros = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        long start = System.nanoTime();
        cli.set(key(name), "open");
        cli.publish(key(name), "open");
        Await.until("limiting after SET+PUBLISH", Duration.ofSeconds(1),
            () -> ds.stats().limiting());
        micros.add((System.nanoTime() - start) / 1000);
        cli.del(key(name));
        cli.publish(key(name), "closed");
        Await.until("passing after DEL+PUBLISH", Duration.ofSeconds(1),
            () -> !ds.stats().limiting());
      }
      Collections.sort(micros);
      long median = micros.get(micros.size() / 2);
      System.out.printf("pub/sub propagation SET+PUBLISH -> limiting(): median %.2f ms, max %.2f"
          + " ms over %d runs%n", median / 1000.0, micros.get(micros.size() - 1) / 1000.0,
          micros.size());
      assertThat(median).isLessThan(300_000); // far below the 3 s poll
    }
  }

  @Test
  void tripAndReset_seenByAnotherInstance() {
    String name = uniqueName();
    try (RedisBreakerFlag writer = fastFlag(redis.uri(), name);
        RedisBreakerFlag reader = fastFlag(redis.uri(), name);
        Jedis cli = redis.client()) {
      assertThat(writer.trip(Duration.ofMinutes(1))).isTrue();
      assertThat(writer.isOpen()).isTrue();
      Await.until("the other instance opens", Duration.ofSeconds(1), reader::isOpen);
      assertThat(cli.pttl(key(name))).isBetween(1L, 60_000L);

      assertThat(writer.reset()).isTrue();
      Await.until("the other instance closes", Duration.ofSeconds(1), () -> !reader.isOpen());
      assertThat(cli.exists(key(name))).isFalse();

      writer.trip(Duration.ofMillis(300));
      Await.until("opens", Duration.ofSeconds(1), reader::isOpen);
      Await.until("closes when the key expires", Duration.ofSeconds(2), () -> !reader.isOpen());
    }
  }

  @Test
  void subscriber_connectionKilled_subscribesAgain() {
    String name = uniqueName();
    try (RedisBreakerFlag flag = RedisBreakerFlag.builder(redis.uri(), name)
        .refresh(Duration.ofSeconds(5)).ping(Duration.ofMillis(300)).build();
        Jedis cli = redis.client()) {
      Await.until("subscribed", Duration.ofSeconds(2), () -> subscribers(cli, name) == 1);
      cli.clientKill(ClientKillParams.clientKillParams().type(ClientType.PUBSUB));
      Await.until("subscribed again", Duration.ofSeconds(3), () -> subscribers(cli, name) == 1);
      cli.set(key(name), "open");
      cli.publish(key(name), "open");
      // far sooner than the 5 s poll: the message came through the new subscription
      Await.until("opened by the message", Duration.ofSeconds(1), flag::isOpen);
    }
  }

  private static long subscribers(Jedis cli, String name) {
    return cli.pubsubNumSub(key(name)).getOrDefault(key(name), 0L);
  }

  static RedisBreakerFlag fastFlag(String uri, String name) {
    return RedisBreakerFlag.builder(uri, name).refresh(REFRESH).timeout(PATIENT_TIMEOUT)
        .settle(SETTLE)
        .ping(Duration.ofMillis(300)).build();
  }

  @Test
  void redisStopped_opensWithinUnreachableAfter_thenFollowsTheKeyAfterSettle()
      throws Exception {
    TestRedis own = TestRedis.start();
    assumeTrue(own.canStop(), "needs the embedded Redis to stop it");
    String name = uniqueName();
    try (RateLimitedDataSource ds = dataSource(settings(own.uri(), name))) {
      awaitClosed(ds);

      long stopped = System.nanoTime();
      own.stop();
      Await.until("limiting after Redis stopped", UNREACHABLE_AFTER.plus(REFRESH).plus(SLACK),
          () -> ds.stats().limiting());
      long failSafeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.UNREACHABLE);

      long restarted = System.nanoTime(); // before: the flag may read Redis before restart() returns
      own.restart();
      long[] notYetRead = {restarted}; // the settle began after the last read that saw no Redis
      Await.until("Redis read again", Duration.ofSeconds(3), () -> {
        long before = System.nanoTime();
        boolean read = ds.stats().flagState() == FlagState.CLOSED;
        notYetRead[0] = read ? notYetRead[0] : before;
        return read;
      });
      boolean settling = ds.stats().limiting();
      if (System.nanoTime() - notYetRead[0] < SETTLE.toNanos()) { // else this thread was paused
        assertThat(settling).as("settling: the key says closed, the flag holds open").isTrue();
      }
      Await.until("closed after settle", SETTLE.plus(REFRESH).plus(TIMEOUT).plus(SLACK),
          () -> !ds.stats().limiting());
      long closedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted);
      assertThat(closedAfter).isGreaterThanOrEqualTo(SETTLE.toMillis());
      System.out.printf("fail-safe: Redis stopped -> limiting() after %d ms; restarted ->"
          + " closed after %d ms (settle %d ms)%n", failSafeMillis, closedAfter,
          SETTLE.toMillis());

      try (Jedis cli = own.client()) {
        cli.set(key(name), "open");
      }
      Await.until("an open key opens at once", REFRESH.plus(TIMEOUT).plus(SLACK),
          () -> ds.stats().limiting());
    } finally {
      own.close();
    }
  }

  @Test
  void redisSilent_opensOnTime_andNoRequestThreadBlocks() throws Exception {
    String name = uniqueName();
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port());
        RateLimitedDataSource ds = dataSource(settings(
            "redis://127.0.0.1:" + proxy.port(), name))) {
      awaitClosed(ds);
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong slowestNanos = new AtomicLong();
      AtomicLong calls = new AtomicLong();
      AtomicReference<String> onRedis = new AtomicReference<>();
      Thread requests = new Thread(() -> {
        while (running.get()) {
          long start = System.nanoTime();
          try (Connection c = ds.getConnection()) {
            calls.incrementAndGet();
          } catch (RateLimitExceededException e) {
            calls.incrementAndGet();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
        }
      }, "test-requests");
      requests.start();

      long silent = System.nanoTime();
      proxy.mode(TcpProxy.Mode.SILENT);
      Await.until("limiting while Redis is silent", UNREACHABLE_AFTER.plus(REFRESH).plus(SLACK),
          () -> {
        noteRedisFrames(requests, onRedis);
        return ds.stats().limiting();
      });
      long failSafeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silent);
      assertThat(ds.stats().flagState()).isEqualTo(FlagState.UNREACHABLE);
      Await.during("stays open while silent", Duration.ofMillis(500), () -> {
        noteRedisFrames(requests, onRedis);
        return ds.stats().limiting();
      });
      running.set(false);
      requests.join(5000);

      assertThat(calls.get()).isGreaterThan(100);
      // A request that waited on Redis would be seen in Jedis for the 200 ms timeout: its stack
      // is sampled every millisecond, as its latency says nothing on a machine that pauses it
      assertThat(onRedis.get()).as("a request thread's frame in Jedis").isNull();
      assertThat(ds.stats().rejected()).isPositive();
      System.out.printf("fail-safe: Redis silent -> limiting() after %d ms; slowest of %d"
          + " request calls %.2f ms%n", failSafeMillis, calls.get(), slowestNanos.get() / 1e6);

      proxy.mode(TcpProxy.Mode.PASS);
    }
  }

  @Test
  void close_leavesNoThreadBehind() throws Exception {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    String name = uniqueName();
    Properties p = settings(redis.uri(), name);
    p.setProperty("sluice.instances", "redis");
    p.setProperty("sluice.redis.heartbeat", "200ms");
    p.setProperty("sluice.instances.expiry", "1s");
    RateLimitedDataSource ds = dataSource(p);
    try (RedisBreakerFlag flag = fastFlag(redis.uri(), name)) {
      Await.until("subscriber running", Duration.ofSeconds(2),
          () -> sluiceThreadsBesides(before).size() >= 6);
      assertThat(flag.isOpen()).isFalse();
    }
    ds.close();
    assertThat(sluiceThreadsBesides(before)).isEmpty();
  }

  @Test
  void close_whileRedisSilent_leavesNoThreadBehind() throws Exception {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port())) {
      RedisBreakerFlag flag = fastFlag("redis://127.0.0.1:" + proxy.port(), uniqueName());
      Await.until("subscriber running", Duration.ofSeconds(2),
          () -> sluiceThreadsBesides(before).size() >= 3);
      proxy.mode(TcpProxy.Mode.SILENT);
      // unreachable-after: 4 x (refresh + timeout) = 4.4 s by default
      Await.until("unreachable", Duration.ofSeconds(6),
          () -> flag.state() == FlagState.UNREACHABLE);
      flag.close();
      assertThat(sluiceThreadsBesides(before)).isEmpty();
    }
  }

  static List<String> sluiceThreadsBesides(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !before.contains(t) && t.isAlive() && t.getName().startsWith("sluice-"))
        .map(Thread::getName).sorted().collect(Collectors.toList());
  }

  @Test
  void toStringAndLogs_neverShowThePassword() {
    try (RedisBreakerFlag flag = RedisBreakerFlag.builder(
        "redis://app:s3cret@" + redis.host() + ":" + redis.port(), uniqueName()).timeout(TIMEOUT)
        .build()) {
      assertThat(flag.toString()).doesNotContain("s3cret").contains("****");
      assertThat(flag.state()).isEqualTo(FlagState.UNREACHABLE); // no such user
      assertThat(flag.isOpen()).isTrue();
    }
  }

  /** Notes the first frame of {@code thread} in Jedis, if it is in Jedis now. */
  private static void noteRedisFrames(Thread thread, AtomicReference<String> onRedis) {
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getClassName().startsWith("redis.clients.")) {
        onRedis.compareAndSet(null, frame.toString());
        return;
      }
    }
  }
}
