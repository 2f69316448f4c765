package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Priorities and shadow mode at the doors, on a fake ticker. The bucket holds 10 permits at
 * reserve 0.2: {@code CRITICAL} reaches 10, {@code NORMAL} 8, {@code SHEDDABLE} 6.
 */
class LimiterPriorityTest {
  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private final AtomicInteger readOnlyAsked = new AtomicInteger();

  private Limiter limiter(Mode mode) {
    Settings settings = Settings.empty().with(Keys.NAME, "prio").with(Keys.BUDGET, 10.0)
        .with(Keys.MODE, mode).with(Keys.RECOVERY_SETTLE, Duration.ofSeconds(30));
    return new Limiter("prio",
        Enforcer.limitSettings(settings), Bucket.of(10, 10, 0.2, ticker), flag, 1, false,
        ticker, Priority.OF_CODE);
  }

  /** An auto-committing driver connection; counts how often it is asked whether read-only. */
  private Connection driver(boolean readOnly) {
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getAutoCommit": return true;
            case "isReadOnly": readOnlyAsked.incrementAndGet(); return readOnly;
            default: throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  private int statements(Limiter limiter, int state, Connection connection) {
    int admitted = 0;
    try {
      while (admitted < 100) {
        limiter.beforeStatement(state, connection);
        admitted++;
      }
    } catch (SQLException refused) {
      assertThat((Object) refused).isInstanceOf(RateLimitExceededException.class);
    }
    return admitted;
  }

  @Test
  void beforeStatement_readOnlyConnection_isSheddableAndLeavesTheReserve() {
    Limiter limiter = limiter(Mode.ENFORCE);
    flag.trip();
    int readOnly = ConnectionState.readOnly(ConnectionState.initial(true), true);
    assertThat(statements(limiter, readOnly, driver(true))).isEqualTo(6);
    assertThat(statements(limiter, ConnectionState.initial(true), driver(false))).isEqualTo(2);
    assertThat(limiter.counts().admitted(Priority.SHEDDABLE)).isEqualTo(6);
    assertThat(limiter.counts().rejected(Priority.SHEDDABLE)).isEqualTo(1);
    assertThat(limiter.counts().admitted(Priority.NORMAL)).isEqualTo(2);
    assertThat(readOnlyAsked).as("the setter was tracked: no driver call").hasValue(0);
  }

  @Test
  void beforeStatement_codeSaysCritical_winsOverReadOnly() throws Exception {
    Limiter limiter = limiter(Mode.ENFORCE);
    flag.trip();
    int readOnly = ConnectionState.readOnly(ConnectionState.initial(true), true);
    statements(limiter, readOnly, driver(true)); // SHEDDABLE's 6
    int critical = Priority.CRITICAL.call(() -> statements(limiter, readOnly, driver(true)));
    assertThat(critical).isEqualTo(4);
    assertThat(limiter.counts().admitted(Priority.CRITICAL)).isEqualTo(4);
  }

  @Test
  void beforeStatement_neverAsksTheDriver_onlySetReadOnlyMakesASheddableConnection()
      throws Exception {
    Limiter limiter = limiter(Mode.ENFORCE);
    Connection readOnlyAtTheDriver = driver(true); // isReadOnly() may be a query (H2, MySQL)
    int state = ConnectionState.initial(true);
    flag.trip();
    state = limiter.beforeStatement(state, readOnlyAtTheDriver);
    state = limiter.beforeStatement(state, readOnlyAtTheDriver);
    assertThat(readOnlyAsked).as("a door never asks the driver").hasValue(0);
    assertThat(limiter.counts().admitted(Priority.NORMAL)).isEqualTo(2);
    int setReadOnly = ConnectionState.readOnly(state, true); // what the wrapper keeps of setReadOnly(true)
    limiter.beforeStatement(setReadOnly, readOnlyAtTheDriver);
    assertThat(limiter.counts().admitted(Priority.SHEDDABLE)).isEqualTo(1);
    assertThat(readOnlyAsked).hasValue(0);
  }

  @Test
  void beforeAutoCommit_transactionTakesThePriorityAtItsDoor() throws Exception {
    Limiter limiter = limiter(Mode.ENFORCE);
    flag.trip();
    Priority.SHEDDABLE.run(() -> statements(limiter, ConnectionState.initial(true), driver(false)));
    Connection c = driver(false);
    assertThatThrownBy(() -> Priority.SHEDDABLE.call(
        () -> limiter.beforeAutoCommit(ConnectionState.initial(true), false, c)))
        .isInstanceOf(RateLimitExceededException.class);
    int tx = Priority.CRITICAL.call(
        () -> limiter.beforeAutoCommit(ConnectionState.initial(true), false, c));
    // inside, a sheddable block changes nothing: admitted at its door, never refused
    int after = Priority.SHEDDABLE.call(() -> {
      int s = limiter.beforeStatement(tx, c);
      for (int i = 0; i < 20; i++) {
        s = limiter.beforeStatement(s, c);
      }
      return s;
    });
    assertThat(after & ConnectionState.IN_TRANSACTION).isNotZero();
    assertThat(limiter.counts().admitted(Priority.CRITICAL)).isEqualTo(1);
    assertThat(limiter.counts().forced()).isEqualTo(20);
  }

  @Test
  void shadowMode_overTheLimit_passesUnchargedAndCountsByPriority() throws Exception {
    Limiter limiter = limiter(Mode.SHADOW);
    flag.trip();
    int readOnly = ConnectionState.readOnly(ConnectionState.initial(true), true);
    assertThat(statements(limiter, readOnly, driver(true))).as("nothing refused").isEqualTo(100);
    assertThat(limiter.counts().admitted(Priority.SHEDDABLE)).isEqualTo(6);
    assertThat(limiter.counts().shadowRejected(Priority.SHEDDABLE)).isEqualTo(94);
    assertThat(limiter.counts().rejected()).isZero();
    // uncharged: the reserve above SHEDDABLE is still whole
    assertThat(Priority.CRITICAL.call(() -> statements(limiter, readOnly, driver(true))))
        .isEqualTo(100);
    assertThat(limiter.counts().admitted(Priority.CRITICAL)).isEqualTo(4);
    assertThat(limiter.counts().shadowRejected()).isEqualTo(94 + 96);
  }

  @Test
  void shadowMode_transactionEnforceWouldRefuse_itsStatementsAreNotChargedEither()
      throws Exception {
    Limiter limiter = limiter(Mode.SHADOW);
    flag.trip();
    Connection c = driver(false);
    statements(limiter, ConnectionState.initial(true), c); // NORMAL's 8 taken, the rest shadow-passed
    int tx = limiter.beforeAutoCommit(ConnectionState.initial(true), false, c); // would be refused
    for (int i = 0; i < 20; i++) {
      tx = limiter.beforeStatement(tx, c);
    }
    assertThat(limiter.counts().forced()).as("statements that would never have run").isZero();
    tx = limiter.places().afterEnd(tx);
    assertThat(tx & ConnectionState.UNCHARGED).isZero();
    int critical = Priority.CRITICAL.call(
        () -> limiter.beforeAutoCommit(ConnectionState.initial(true), false, c)); // admitted
    limiter.beforeStatement(limiter.beforeStatement(critical, c), c);
    assertThat(limiter.counts().forced()).as("an admitted transaction is charged as ever").isEqualTo(1);
  }

  @Test
  void setShadow_atRuntime_switchesBothWays() {
    Limiter limiter = limiter(Mode.ENFORCE);
    flag.trip();
    int state = ConnectionState.initial(true);
    assertThat(statements(limiter, state, driver(false))).isEqualTo(8);
    limiter.counts().setShadow(true, "a test");
    assertThat(statements(limiter, state, driver(false))).isEqualTo(100);
    assertThat(limiter.counts().shadowRejected(Priority.NORMAL)).isEqualTo(100);
    limiter.counts().setShadow(false, "a test");
    assertThat(statements(limiter, state, driver(false))).isZero();
    assertThat(limiter.counts().rejected(Priority.NORMAL)).isEqualTo(2);
  }

  @Test
  void recovering_priorityAndShadowStillApply() throws Exception {
    Limiter limiter = limiter(Mode.ENFORCE);
    flag.trip();
    assertThat(limiter.isLimiting()).isTrue();
    flag.reset();
    assertThat(limiter.isLimiting()).as("recovering").isTrue();
    int readOnly = ConnectionState.readOnly(ConnectionState.initial(true), true);
    assertThat(statements(limiter, readOnly, driver(true))).isEqualTo(6);
    assertThat(Priority.CRITICAL.call(() -> statements(limiter, readOnly, driver(true))))
        .isEqualTo(4);
  }

  @Test
  void beforeCheckout_connectionScope_takesThePriorityOfTheCode() throws Exception {
    Settings settings = Settings.empty().with(Keys.NAME, "prio").with(Keys.BUDGET, 10.0)
        .with(Keys.SCOPE, Scope.CONNECTION);
    Limiter limiter = new Limiter("prio",
        Enforcer.limitSettings(settings), Bucket.of(10, 10, 0.2, ticker), flag, 1,
        false, ticker, Priority.OF_CODE);
    flag.trip();
    for (int i = 0; i < 8; i++) {
      limiter.beforeCheckout();
    }
    assertThatThrownBy(limiter::beforeCheckout).isInstanceOf(RateLimitExceededException.class);
    Priority.CRITICAL.call(() -> {
      limiter.beforeCheckout();
      limiter.beforeCheckout();
      return null;
    });
    assertThat(limiter.counts().admitted(Priority.CRITICAL)).isEqualTo(2);
    assertThat(limiter.counts().rejected(Priority.NORMAL)).isEqualTo(1);
  }
}
