package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Settings;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DriverBudgetsTest {
  private static final Duration GRACE = Duration.ofSeconds(30);

  private final AtomicLong nanos = new AtomicLong();
  private final DriverBudgets budgets = new DriverBudgets(nanos::get, GRACE, false);

  @Test
  void acquire_sameNameTwice_sharesOneLimiter() {
    DriverBudgets.Entry first = budgets.acquire(settings("orders", "100"));
    DriverBudgets.Entry second = budgets.acquire(settings("orders", "100"));

    assertThat(second.limiter()).isSameAs(first.limiter());
  }

  @Test
  void acquire_sameNameOtherSettings_isAnErrorNamingBothValues() {
    budgets.acquire(settings("orders", "100"));

    assertThatThrownBy(() -> budgets.acquire(settings("orders", "200")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.name \"orders\" already names a budget")
        .hasMessageContaining("sluice.budget (\"100\" and \"200\")");
  }

  @Test
  void sweep_openConnection_keepsTheBudget() {
    StubConnection c = new StubConnection();
    budgets.connected(budgets.acquire(settings("orders", "100")), c.proxy);

    sweepAfter(GRACE.multipliedBy(3));

    assertThat(budgets.stats("orders")).isNotNull();
  }

  @Test
  void sweep_lastConnectionClosedForTheGracePeriod_closesAndForgetsTheBudget() {
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
  void sweep_connectionReopenedWithinGrace_keepsTheSameLimiter() {
    StubConnection first = new StubConnection();
    DriverBudgets.Entry entry = budgets.acquire(settings("orders", "100"));
    budgets.connected(entry, first.proxy);
    first.closed.set(true);
    budgets.sweep();
    sweepAfter(GRACE.minusSeconds(5));

    budgets.connected(budgets.acquire(settings("orders", "100")), new StubConnection().proxy);
    sweepAfter(GRACE.multipliedBy(2));

    assertThat(budgets.limiter("orders")).isSameAs(entry.limiter());
  }

  @Test
  void sweep_connectionBeingOpened_keepsTheBudget() {
    budgets.acquire(settings("orders", "100")); // connect in progress

    budgets.sweep();
    sweepAfter(GRACE.multipliedBy(2));

    assertThat(budgets.stats("orders")).isNotNull();
  }

  @Test
  void sweep_abandonedConnect_letsTheBudgetGo() {
    budgets.abandoned(budgets.acquire(settings("orders", "100")));

    budgets.sweep();
    sweepAfter(GRACE);

    assertThat(budgets.stats("orders")).isNull();
  }

  @Test
  void sweeper_runsWhileABudgetExistsAndStopsWithTheLast() {
    DriverBudgets background = new DriverBudgets(nanos::get, Duration.ZERO, true);
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
