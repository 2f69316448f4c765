package dev.sluice;

import static dev.sluice.internal.limit.ConnectionState.AUTO_COMMIT;
import static dev.sluice.internal.limit.ConnectionState.IN_TRANSACTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The door rules, on a fake ticker: which call takes a permit, which is charged, which fails. */
class LimiterTest {
  /** The driver's connection, asked for its auto-commit only while the state lacks it. */
  private static final Connection DRIVER = connection(true);
  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();

  private Limiter limiter(Scope scope, boolean driverMode, int burst) {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 10.0)
        .with(Keys.SCOPE, scope);
    return new Limiter("users-db",
        Enforcer.limitSettings(settings), Bucket.of(10, burst, ticker), flag, 1,
        driverMode, ticker, Priority.OF_CODE);
  }

  @Test
  void beforeStatement_flagClosed_passesUncountedAndUncharged() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    for (int i = 0; i < 100; i++) {
      limiter.beforeStatement(ConnectionState.initial(true), DRIVER);
    }
    assertThat(limiter.counts().admitted()).isZero();
    assertThat(limiter.counts().rejected()).isZero();
    flag.trip();
    limiter.beforeStatement(ConnectionState.initial(true), DRIVER); // the bucket is still full
    assertThat(limiter.counts().admitted()).isEqualTo(1);
  }

  @Test
  void beforeStatement_autoCommitAndBucketEmpty_rejectsWithTheContractsException() {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    int state = ConnectionState.initial(true);
    assertThat(limiter.isLimiting()).isTrue();
    assertThatThrownBy(() -> {
      limiter.beforeStatement(state, DRIVER);
      limiter.beforeStatement(state, DRIVER);
    }).isInstanceOfSatisfying(RateLimitExceededException.class, e -> {
      assertThat(e.getSQLState()).isNull();
      assertThat(e.getErrorCode()).isZero();
      assertThat((Object) e.getNextException()).isNull();
      assertThat(e.getStackTrace()).isEmpty();
      assertThat(e.budgetName()).isEqualTo("users-db");
      assertThat(e.retryAfter()).isEqualTo(Duration.ofMillis(100));
      assertThat(e.getMessage()).contains("users-db", "10 permits/s", "retry in 100 ms");
    });
    assertThat(limiter.counts().admitted()).isEqualTo(1);
    assertThat(limiter.counts().rejected()).isEqualTo(1);
  }

  @Test
  void beforeAutoCommit_switchToManual_isTheDoorAndPaysForTheFirstStatement() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER);
    assertThat(state & IN_TRANSACTION).isNotZero();
    assertThat(limiter.counts().admitted()).isEqualTo(1);

    state = limiter.beforeStatement(state, DRIVER); // prepaid: free
    assertThat(limiter.counts().forced()).isZero();
    for (int i = 0; i < 5; i++) {
      state = limiter.beforeStatement(state, DRIVER); // charged into debt, never rejected
    }
    assertThat(limiter.counts().forced()).isEqualTo(5);
    assertThat(limiter.counts().rejected()).isZero();

    state = limiter.places().afterEnd(state);
    int afterCommit = state;
    assertThatThrownBy(() -> limiter.beforeStatement(afterCommit, DRIVER)) // the next transaction's door
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeAutoCommit_bucketEmpty_rejectsTheTransactionAtItsStart() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    limiter.beforeStatement(ConnectionState.initial(true), DRIVER);
    assertThatThrownBy(() -> limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeStatement_transactionStartedWhileClosed_isChargedNotRejectedWhenFlagOpens()
      throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER);
    flag.trip();
    limiter.beforeStatement(ConnectionState.initial(true), DRIVER); // someone else empties the bucket
    state = limiter.beforeStatement(state, DRIVER);
    state = limiter.beforeStatement(state, DRIVER);
    assertThat(limiter.counts().rejected()).isZero();
    // both charged: the door, passed while closed, paid for nothing
    assertThat(limiter.counts().forced()).isEqualTo(2);
  }

  @Test
  void beforeStatement_manualCommitWithoutSwitch_firstStatementIsTheDoor() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 2);
    flag.trip();
    int state = ConnectionState.initial(false);
    state = limiter.beforeStatement(state, DRIVER);
    assertThat(limiter.counts().admitted()).isEqualTo(1);
    state = limiter.beforeStatement(state, DRIVER);
    state = limiter.beforeStatement(state, DRIVER);
    assertThat(limiter.counts().forced()).isEqualTo(2);
    assertThat(limiter.counts().admitted()).isEqualTo(1);
  }

  @Test
  void beforeAutoCommit_switchBackToAuto_endsTheTransaction() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER);
    state = limiter.beforeAutoCommit(state, true, DRIVER);
    assertThat(state & (IN_TRANSACTION | AUTO_COMMIT)).isEqualTo(AUTO_COMMIT);
    int auto = state;
    assertThatThrownBy(() -> limiter.beforeStatement(auto, DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeAutoCommit_driverModeUnderAManualCommitPool_switchesAreNeverDoors()
      throws Exception {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 10.0)
        .with(Keys.POOL_AUTO_COMMIT, false);
    Limiter limiter = new Limiter("users-db",
        Enforcer.limitSettings(settings), Bucket.of(10, 1, ticker), flag, 1,
        true, ticker, Priority.OF_CODE);
    flag.trip();
    limiter.beforeStatement(ConnectionState.initial(true), DRIVER); // empty the bucket
    // HikariCP with autoCommit=false sets every new connection up, then resets it after use
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER);
    state = limiter.beforeAutoCommit(state, true, DRIVER);
    state = limiter.beforeAutoCommit(state, false, DRIVER);
    assertThat(limiter.counts().rejected()).isZero();
    int rested = state;
    assertThatThrownBy(() -> limiter.beforeStatement(rested, DRIVER)) // the first statement is the door
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeAutoCommit_driverModeUnderAnAutoCommitPool_everySwitchToManualIsTheDoor()
      throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, true, 1);
    flag.trip();
    // HikariCP with autoCommit=true never switches; the application begins transactions
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER);
    assertThat(limiter.counts().admitted()).isEqualTo(1);
    int auto = limiter.beforeAutoCommit(state, true, DRIVER);
    assertThatThrownBy(() -> limiter.beforeAutoCommit(auto, false, DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeCheckout_connectionScope_isGatedAndStatementsAreNot() throws Exception {
    Limiter limiter = limiter(Scope.CONNECTION, false, 1);
    flag.trip();
    limiter.beforeCheckout();
    assertThatThrownBy(limiter::beforeCheckout).isInstanceOf(RateLimitExceededException.class);
    int state = ConnectionState.initial(true);
    for (int i = 0; i < 10; i++) {
      state = limiter.beforeStatement(state, DRIVER);
    }
    state = limiter.beforeAutoCommit(state, false, DRIVER);
    limiter.beforeStatement(state, DRIVER);
    assertThat(limiter.counts().rejected()).isEqualTo(1);
    assertThat(limiter.counts().forced()).isZero();
  }

  @Test
  void beforeCheckout_statementScope_neverCharges() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    for (int i = 0; i < 10; i++) {
      limiter.beforeCheckout();
    }
    assertThat(limiter.counts().admitted()).isZero();
  }

  @Test
  void setInstances_moreInstances_shrinksTheShareWithoutAFreshBurst() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    Doors.admit(limiter);
    limiter.share().setInstances(2);
    assertThat(limiter.bucket().permitsPerSecond()).isEqualTo(5);
    assertThatThrownBy(() -> Doors.admit(limiter)).isInstanceOf(RateLimitExceededException.class);
    ticker.advance(Duration.ofMillis(200));
    Doors.admit(limiter);
  }

  @Test
  void rejection_withStackTracesOn_recordsTheStack() {
    Settings settings = Settings.empty().with(Keys.NAME, "a").with(Keys.BUDGET, 10.0)
        .with(Keys.STACK_TRACES, true);
    Limiter limiter = new Limiter("a", Enforcer.limitSettings(settings), Bucket.of(10, 1, ticker),
        BreakerFlag.alwaysOpen(), 1, false, ticker, Priority.OF_CODE);
    assertThatThrownBy(() -> {
      Doors.admit(limiter);
      Doors.admit(limiter);
    }).satisfies(e -> assertThat(e.getStackTrace()).isNotEmpty());
  }

  @Test
  void beforeStatement_unreadAutoCommitWhileClosed_neverAsksTheDriver() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    Connection refusing = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          throw new AssertionError("asked " + method.getName());
        });
    int state = limiter.beforeStatement(ConnectionState.initial(), refusing);
    state = limiter.beforeStatement(state, refusing);
    state = limiter.places().afterEnd(state);
    assertThat(state & ConnectionState.UNREAD).isNotZero();
  }

  @Test
  void beforeStatement_unreadAutoCommitOnceLimiting_readsItAndAdmitsAsUnderAutoCommit()
      throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    int state = limiter.beforeStatement(ConnectionState.initial(), connection(true));
    assertThat(state & (ConnectionState.UNREAD | AUTO_COMMIT)).isEqualTo(AUTO_COMMIT);
    int auto = state;
    assertThatThrownBy(() -> limiter.beforeStatement(auto, DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeStatement_manualTransactionBegunWhileClosed_isChargedNeverCutWhenTheFlagOpens()
      throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    Connection manual = connection(false);
    int state = limiter.beforeStatement(ConnectionState.initial(), manual); // the flag is closed
    flag.trip();
    Doors.admit(limiter); // someone else empties the bucket
    state = limiter.beforeStatement(state, manual);
    state = limiter.beforeStatement(state, manual);
    assertThat(limiter.counts().rejected()).isZero();
    assertThat(limiter.counts().forced()).isEqualTo(2);
    int ended = limiter.places().afterEnd(state);
    assertThatThrownBy(() -> limiter.beforeStatement(ended, manual)) // the next one's door
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeStatement_manualConnectionNothingRunYet_firstStatementIsTheDoor() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    Doors.admit(limiter);
    assertThatThrownBy(() -> limiter.beforeStatement(ConnectionState.initial(), connection(false)))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void beforeAutoCommit_unreadWhileLimiting_asksWhetherItIsASwitch() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, false, 1);
    flag.trip();
    Doors.admit(limiter);
    // already manual: no switch, so no door, and nothing refused
    int state = limiter.beforeAutoCommit(ConnectionState.initial(), false, connection(false));
    assertThat(limiter.counts().rejected()).isZero();
    assertThat(state & ConnectionState.UNREAD).isZero();
    // auto-committing: the switch is the door
    assertThatThrownBy(() -> limiter.beforeAutoCommit(ConnectionState.initial(), false, connection(true)))
        .isInstanceOf(RateLimitExceededException.class);
  }

  /** A read-write driver connection that answers {@code getAutoCommit}, {@code isReadOnly}. */
  private static Connection connection(boolean autoCommit) {
    return (Connection) Proxy.newProxyInstance(LimiterTest.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          if (method.getName().equals("getAutoCommit")) {
            return autoCommit;
          }
          if (method.getName().equals("isReadOnly")) {
            return false;
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }
}
