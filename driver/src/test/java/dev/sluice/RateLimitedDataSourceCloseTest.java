package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.internal.config.Settings;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * After {@code close()} (issue 10, item 13): {@code getConnection()} took a permit in
 * {@code CONNECTION} scope and then failed with a rate-limit error ("retry in 1000000 ms"), and
 * over a delegate that is not {@code AutoCloseable} it went on handing out connections that obeyed
 * a flag nobody read any more. Now a closed data source refuses every checkout with a clear
 * "closed" error, before the delegate and without a permit; connections handed out before pass
 * uncharged; a driver-made budget closed by its sweeper stops limiting the same way.
 */
class RateLimitedDataSourceCloseTest {
  private final AtomicInteger checkouts = new AtomicInteger();
  /** H2 in memory; not {@code AutoCloseable}, so closing the data source leaves it working. */
  private final DataSource counting = countingCheckouts();

  @Test
  void getConnection_afterClose_failsSayingClosed_beforeThePermitAndTheDelegate()
      throws SQLException {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(counting).name("users-db")
        .budget(0.001).burst(1).scope(Scope.CONNECTION).build();
    ds.close();

    SQLNonTransientConnectionException e =
        assertThrows(SQLNonTransientConnectionException.class, ds::getConnection);
    assertThrows(SQLNonTransientConnectionException.class, () -> ds.getConnection("sa", ""));

    assertThat(e.getMessage()).isEqualTo("RateLimitedDataSource \"users-db\" is closed: it hands"
        + " out no more connections; build a new one");
    assertThat(checkouts).hasValue(0);
    assertThat(ds.stats().admitted()).isZero();
    assertThat(ds.stats().rejected()).isZero();
  }

  @Test
  void getConnection_afterClose_inStatementScope_failsSayingClosed() throws SQLException {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(counting).name("users-db")
        .budget(10).breakerFlag(BreakerFlag.manual()).build();
    ds.close();

    assertThrows(SQLNonTransientConnectionException.class, ds::getConnection);
    assertThat(checkouts).hasValue(0);
  }

  @Test
  void connectionHandedOutBeforeClose_passesUnchargedAfterIt() throws SQLException {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    RateLimitedDataSource ds = RateLimitedDataSource.builder(counting).name("users-db")
        .budget(0.001).burst(1).breakerFlag(flag).build();
    try (Connection connection = ds.getConnection();
        Statement statement = connection.createStatement()) {
      flag.trip();
      statement.execute("select 1"); // the only permit
      assertThrows(RateLimitExceededException.class, () -> statement.execute("select 1"));

      ds.close();
      statement.execute("select 1");
      connection.setAutoCommit(false);
      statement.execute("select 1");
      connection.commit();
    }

    assertThat(ds.stats().limiting()).isFalse();
    assertThat(ds.stats().admitted()).isEqualTo(1);
    assertThat(ds.stats().rejected()).isEqualTo(1);
  }

  @Test
  void driverBudgetClosedBySweeper_stopsLimiting() throws SQLException {
    AtomicLong nanos = new AtomicLong();
    DriverEnforcers budgets = new DriverEnforcers(nanos::get, Duration.ofSeconds(30), false);
    DriverEnforcers.Entry entry = budgets.acquire(Settings.parse(
        Map.of("sluice.name", "orders", "sluice.budget", "100")));
    budgets.abandoned(entry);
    assertThat(entry.limiter().isLimiting()).isTrue(); // sluice.flag=always

    budgets.sweep();
    nanos.addAndGet(Duration.ofSeconds(30).toNanos());
    budgets.sweep();

    assertThat(budgets.stats("orders")).isNull();
    assertThat(entry.limiter().isLimiting()).isFalse();
  }

  /** A data source of H2 connections that counts checkouts; nothing else is called here. */
  private DataSource countingCheckouts() {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
          if (!method.getName().equals("getConnection")) {
            throw new UnsupportedOperationException(method.getName());
          }
          checkouts.incrementAndGet();
          return DriverManager.getConnection("jdbc:h2:mem:");
        });
  }
}
