package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.testing.Await;
import dev.sluice.testing.StubDataSource;
import dev.sluice.testing.TestRedis;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Recovery holds for every kind of flag: {@code BreakerFlag.of(...)} (on a fake ticker), and the
 * Redis flag in decorator and in driver mode against a real Redis (the manual flag:
 * {@link LimiterRecoveryTest}).
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class RecoveryFlagsTest {
  private static final Duration SETTLE = Duration.ofMillis(500);
  /** Room for a loaded two-core machine between the settle's end and a poll that sees it. */
  private static final Duration SLACK = Duration.ofMillis(1_500);

  private static TestRedis redis;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @Test
  void ofSupplier_flagClosesAfterOpen_holdsTheCapUntilTheSettle() {
    FakeTicker ticker = new FakeTicker();
    AtomicBoolean breakerOpen = new AtomicBoolean();
    Settings settings = Settings.empty().with(Keys.NAME, "recovery-of").with(Keys.BUDGET, 10.0)
        .with(Keys.JMX, false).with(Keys.RECOVERY_SETTLE, Duration.ofSeconds(5));
    try (Enforcer enforcer = Enforcer.open(settings, BreakerFlag.of(breakerOpen::get), false, ticker)) {
      breakerOpen.set(true);
      assertThat(enforcer.stats().limiting()).isTrue();
      assertThat(enforcer.limiter().isLimiting()).isTrue(); // a call sees the flag open
      breakerOpen.set(false);
      assertThat(enforcer.stats().recovering()).as("what the next call will find").isTrue();
      assertThat(enforcer.limiter().isLimiting()).isTrue(); // that call starts the recovery
      ticker.advance(Duration.ofSeconds(5));
      assertThat(enforcer.stats().recovering()).isFalse();
      assertThat(enforcer.limiter().isLimiting()).isFalse();
    }
  }

  @Test
  void redisFlag_keyDeleted_recoversThenReleases() throws Exception {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    Properties p = new Properties();
    p.setProperty("sluice.name", name);
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.recovery.settle", SETTLE.toMillis() + "ms");
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .properties(p).scope(Scope.CONNECTION).build()) {
      // a first read slower than the timeout (a cold Redis, a loaded machine) opens the flag
      Await.until("not limiting", Duration.ofSeconds(5), () -> !ds.stats().limiting());
      ds.getConnection().close(); // the flag is closed: uncounted
      assertThat(ds.stats().admitted()).isZero();
      outageAndRecovery(name, ds::stats, () -> ds.getConnection().close());
    }
  }

  @Test
  void driverMode_redisFlagKeyDeleted_recoversThenReleases() throws Exception {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    String url = "jdbc:sluice:h2:mem:" + name + ";sluice.name=" + name + ";sluice.budget=100;"
        + "sluice.redis=" + redis.uri() + ";sluice.recovery.settle=" + SETTLE.toMillis() + "ms";
    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
      outageAndRecovery(name, () -> SluiceDriver.stats(name).orElseThrow(),
          () -> c.createStatement().execute("select 1"));
    }
  }

  private interface Call {
    void run() throws Exception;
  }

  /** Opens the key, closes it, and follows the limiter through its recovery. */
  private static void outageAndRecovery(String name, Supplier<Stats> stats, Call call)
      throws Exception {
    String key = "sluice:" + name + ":breaker";
    try (Jedis cli = redis.client()) {
      cli.set(key, "open");
      cli.publish(key, "open");
      Await.until("limiting", Duration.ofSeconds(5), () -> stats.get().limiting());
      call.run();
      cli.del(key);
      cli.publish(key, "closed");
    }
    // The first stats read that sees the flag closed starts the recovery, so it began after
    // that read began: a loaded machine may pause this thread for longer than the settle
    // anywhere below, and the bounds are taken from that moment, not from a fixed allowance.
    long[] readNanos = new long[1];
    Stats[] closed = new Stats[1];
    Await.until("the limiter reads the flag closed", Duration.ofSeconds(5), () -> {
      readNanos[0] = System.nanoTime();
      closed[0] = stats.get();
      return !closed[0].limiting() || closed[0].recovering();
    });
    long recoveryBegan = readNanos[0];
    assertThat(closed[0].limiting()).isTrue();
    assertThat(closed[0].recovering()).isTrue();
    Await.until("the flag reads closed", Duration.ofSeconds(5),
        () -> stats.get().flagState() == FlagState.CLOSED);
    long admittedBefore = stats.get().admitted();
    call.run(); // counted: the cap holds
    if (System.nanoTime() - recoveryBegan < SETTLE.toNanos()) { // else the settle may be over
      assertThat(stats.get().admitted()).isEqualTo(admittedBefore + 1);
    }
    Await.until("limiting stops after the settle", SETTLE.plus(SLACK),
        () -> !stats.get().limiting());
    assertThat(System.nanoTime() - recoveryBegan).isGreaterThanOrEqualTo(SETTLE.toNanos());
    assertThat(stats.get().recovering()).isFalse();
    long admittedAfter = stats.get().admitted();
    call.run(); // the flag closed and recovery over: uncounted
    assertThat(stats.get().admitted()).isEqualTo(admittedAfter);
  }
}
