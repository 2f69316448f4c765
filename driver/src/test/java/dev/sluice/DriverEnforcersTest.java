package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.testing.Await;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DriverEnforcersTest {
  private static final Duration GRACE = Duration.ofSeconds(30);
  private static final AtomicInteger NAMES = new AtomicInteger();

  private final AtomicLong nanos = new AtomicLong();
  /** Builds that wait for their name's latch, as a build waits on a slow Redis. */
  private final Map<String, CountDownLatch> slowBuilds = new ConcurrentHashMap<>();
  private final Map<String, RuntimeException> failingBuilds = new ConcurrentHashMap<>();
  private final AtomicInteger builds = new AtomicInteger();
  private final DriverEnforcers budgets = new DriverEnforcers(nanos::get, GRACE, false, this::open);
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();

  @AfterEach
  void stopThreads() {
    slowBuilds.values().forEach(CountDownLatch::countDown);
    threads.shutdownNow();
  }

  private Enforcer open(Settings settings) {
    builds.incrementAndGet();
    String name = settings.get(Keys.NAME);
    CountDownLatch latch = slowBuilds.get(name);
    try {
      if (latch != null && !latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released " + name);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    RuntimeException failure = failingBuilds.get(name);
    if (failure != null) {
      throw failure;
    }
    return Enforcer.open(settings, null, true);
  }

  /** Issue 10 item 9: a build that waits on Redis held the JVM-wide lock. */
  @Test
  void acquire_whileOneNameBuildsSlowly_otherNamesAndStatsDoNotWait() throws Exception {
    slowBuilds.put("slow", new CountDownLatch(1));
    Future<DriverEnforcers.Entry> slow = threads.submit(() ->
        budgets.acquire(settings("slow", "100")));
    awaitBuilds(1);

    Future<DriverEnforcers.Entry> other = threads.submit(() -> budgets.acquire(settings("fast",
        "100")));
    Future<Stats> stats = threads.submit(() -> budgets.stats("slow"));

    assertThat(other.get(5, TimeUnit.SECONDS).limiter().name()).isEqualTo("fast");
    assertThat(stats.get(5, TimeUnit.SECONDS)).isNull(); // not built yet: no figures to give
    assertThat(slow.isDone()).isFalse();
    slowBuilds.get("slow").countDown();
    assertThat(slow.get(5, TimeUnit.SECONDS).limiter().name()).isEqualTo("slow");
  }

  @Test
  void acquire_manyConnectsForOneNameAtOnce_buildOneBudgetAndShareIt() throws Exception {
    slowBuilds.put("orders", new CountDownLatch(1));
    List<Future<DriverEnforcers.Entry>> connects = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      connects.add(threads.submit(() -> budgets.acquire(settings("orders", "100"))));
    }
    awaitBuilds(1);
    awaitWaiters(15); // the others reached the placeholder; none may start a build of its own

    slowBuilds.get("orders").countDown();
    Limiter first = connects.get(0).get(5, TimeUnit.SECONDS).limiter();
    for (Future<DriverEnforcers.Entry> connect : connects) {
      assertThat(connect.get(5, TimeUnit.SECONDS).limiter()).isSameAs(first);
    }
    assertThat(builds).hasValue(1);
  }

  @Test
  void acquire_buildFails_everyWaiterGetsTheErrorAndTheNextBuildsAgain() throws Exception {
    slowBuilds.put("orders", new CountDownLatch(1));
    failingBuilds.put("orders", new IllegalArgumentException("sluice.redis is down"));
    Future<DriverEnforcers.Entry> builder = threads.submit(() ->
        budgets.acquire(settings("orders", "100")));
    awaitBuilds(1);
    Future<DriverEnforcers.Entry> waiter = threads.submit(() ->
        budgets.acquire(settings("orders", "100")));
    awaitWaiters(1);

    slowBuilds.remove("orders").countDown();
    assertThatThrownBy(() -> builder.get(5, TimeUnit.SECONDS)).hasRootCauseMessage(
        "sluice.redis is down");
    assertThatThrownBy(() -> waiter.get(5, TimeUnit.SECONDS)).hasRootCauseMessage(
        "sluice.redis is down");
    failingBuilds.clear();

    assertThat(budgets.acquire(settings("orders", "100")).limiter()).isNotNull();
  }

  /** Issue 10 item 14: a closed pool's budget blocked other settings for 30-40 s. */
  @Test
  void acquire_otherSettingsOnceConnectionsClosed_replacesTheBudgetAtOnce() throws Exception {
    String name = "replaced" + NAMES.incrementAndGet();
    StubConnection c = new StubConnection();
    DriverEnforcers.Entry old = budgets.acquire(jmx(name, "100"));
    budgets.connected(old, c.proxy);
    c.closed.set(true); // the pool was closed; the sweeper has not run yet

    DriverEnforcers.Entry replacement = budgets.acquire(jmx(name, "200"));

    assertThat(replacement.limiter()).isNotSameAs(old.limiter());
    assertThat(budgets.limiter(name).bucket().permitsPerSecond()).isEqualTo(200.0);
    assertThat(mbeans.isRegistered(EnforcerJmx.objectName(name))).isTrue();
    assertThat(mbeans.isRegistered(EnforcerJmx.objectName(name + "#2")))
        .as("the old budget's MXBean is gone before the new one registers").isFalse();
  }

  @Test
  void acquire_otherSettingsWhileAConnectionIsOpen_saysItIsOpen() throws Exception {
    budgets.connected(budgets.acquire(settings("orders", "100")), new StubConnection().proxy);

    assertThatThrownBy(() -> budgets.acquire(settings("orders", "200")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 open connection(s)")
        .hasMessageContaining("sluice.budget (\"100\" and \"200\")")
        .hasMessageContaining("close the other pool first");
  }

  @Test
  void sweep_thenConnectAgain_registersTheMXBeanUnderThePlainName() throws Exception {
    String name = "swept" + NAMES.incrementAndGet();
    budgets.abandoned(budgets.acquire(jmx(name, "100")));
    budgets.sweep();
    sweepAfter(GRACE);

    budgets.acquire(jmx(name, "100"));

    assertThat(mbeans.isRegistered(EnforcerJmx.objectName(name))).isTrue();
    assertThat(mbeans.isRegistered(EnforcerJmx.objectName(name + "#2"))).isFalse();
  }

  private void awaitBuilds(int count) {
    Await.until(count + " build(s) started", Duration.ofSeconds(5), () -> builds.get() >= count);
    assertThat(builds).hasValue(count);
  }

  /** Waits until {@code count} connects wait for another's build, parked in its future. */
  private static void awaitWaiters(int count) {
    Await.until(count + " connect(s) waiting for the build", Duration.ofSeconds(5),
        () -> Thread.getAllStackTraces().entrySet().stream()
            .filter(e -> e.getKey().getState() == Thread.State.WAITING)
            .filter(e -> Arrays.stream(e.getValue()).anyMatch(frame ->
                frame.getClassName().equals(DriverEnforcers.class.getName())
                    && frame.getMethodName().equals("join")))
            .count() >= count);
  }

  @Test
  void acquire_sameNameTwice_sharesOneLimiter() throws Exception {
    DriverEnforcers.Entry first = budgets.acquire(settings("orders", "100"));
    DriverEnforcers.Entry second = budgets.acquire(settings("orders", "100"));

    assertThat(second.limiter()).isSameAs(first.limiter());
  }

  @Test
  void acquire_sameNameOtherSettings_isAnErrorNamingBothValues() throws Exception {
    budgets.acquire(settings("orders", "100"));

    assertThatThrownBy(() -> budgets.acquire(settings("orders", "200")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.name \"orders\" already names a limiter")
        .hasMessageContaining("sluice.budget (\"100\" and \"200\")");
  }

  @Test
  void sweep_openConnection_keepsTheBudget() throws Exception {
    StubConnection c = new StubConnection();
    budgets.connected(budgets.acquire(settings("orders", "100")), c.proxy);

    sweepAfter(GRACE.multipliedBy(3));

    assertThat(budgets.stats("orders")).isNotNull();
  }

  @Test
  void sweep_lastConnectionClosedForTheGracePeriod_closesAndForgetsTheBudget() throws Exception {
    StubConnection c = new StubConnection();
    budgets.connected(budgets.acquire(settings("orders", "100")), c.proxy);
    c.closed.set(true);

    budgets.sweep(); // seen idle now
    sweepAfter(GRACE.minusSeconds(1));
    assertThat(budgets.stats("orders")).isNotNull();
    sweepAfter(Duration.ofSeconds(1));

    assertThat(budgets.stats("orders")).isNull();
    assertThat(budgets.acquire(settings("orders", "200")).limiter().bucket().permitsPerSecond())
        .isEqualTo(200.0); // rebuilt, with the new settings allowed
  }

  @Test
  void sweep_connectionReopenedWithinGrace_keepsTheSameLimiter() throws Exception {
    StubConnection first = new StubConnection();
    DriverEnforcers.Entry entry = budgets.acquire(settings("orders", "100"));
    budgets.connected(entry, first.proxy);
    first.closed.set(true);
    budgets.sweep();
    sweepAfter(GRACE.minusSeconds(5));

    budgets.connected(budgets.acquire(settings("orders", "100")), new StubConnection().proxy);
    sweepAfter(GRACE.multipliedBy(2));

    assertThat(budgets.limiter("orders")).isSameAs(entry.limiter());
  }

  @Test
  void sweep_connectionBeingOpened_keepsTheBudget() throws Exception {
    budgets.acquire(settings("orders", "100")); // connect in progress

    budgets.sweep();
    sweepAfter(GRACE.multipliedBy(2));

    assertThat(budgets.stats("orders")).isNotNull();
  }

  @Test
  void sweep_abandonedConnect_letsTheBudgetGo() throws Exception {
    budgets.abandoned(budgets.acquire(settings("orders", "100")));

    budgets.sweep();
    sweepAfter(GRACE);

    assertThat(budgets.stats("orders")).isNull();
  }

  @Test
  void sweeper_runsWhileABudgetExistsAndStopsWithTheLast() throws Exception {
    DriverEnforcers background = new DriverEnforcers(nanos::get, Duration.ZERO, true);
    background.abandoned(background.acquire(settings("orders", "100")));
    assertThat(background.isSweeping()).isTrue();

    background.sweep(); // a zero grace: gone at once

    assertThat(background.stats("orders")).isNull();
    assertThat(background.isSweeping()).isFalse();
  }

  private void sweepAfter(Duration elapsed) {
    nanos.addAndGet(elapsed.toNanos());
    budgets.sweep();
  }

  private static Settings settings(String name, String budget) {
    return Settings.parse(Map.of("sluice.name", name, "sluice.budget", budget,
        "sluice.jmx", "false"));
  }

  private static Settings jmx(String name, String budget) {
    return Settings.parse(Map.of("sluice.name", name, "sluice.budget", budget));
  }

  /** A connection that answers isClosed() from a flag. */
  private static final class StubConnection {
    final AtomicBoolean closed = new AtomicBoolean();
    final Connection proxy = (Connection) Proxy.newProxyInstance(
        Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        (p, method, args) -> {
          if (method.getName().equals("isClosed")) {
            return closed.get();
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }
}
