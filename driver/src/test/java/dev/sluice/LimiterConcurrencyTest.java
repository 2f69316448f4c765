package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.ConcurrencyCap;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.jdbc.Connections;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.Concurrency;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice.concurrency} with a fixed cap: the gate wired into the door rules and the JDBC
 * wrappers. Statement-level rules on a fake ticker; the release on every way out through the
 * wrappers, also under contention.
 */
class LimiterConcurrencyTest {
  private static final Connection DRIVER = driverConnection(() -> null);
  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();

  private Limiter limiter(Scope scope, int cap, int burst, double instances) {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 1000.0)
        .with(Keys.SCOPE, scope).with(Keys.CONCURRENCY, ConcurrencyCap.of(cap));
    return new Limiter("users-db",
        Enforcer.limitSettings(settings), Bucket.of(1000 / instances, burst, ticker),
        flag, instances, false, ticker, Priority.OF_CODE);
  }

  @Test
  void shadowMode_capReached_passesHoldingNothingUnchargedAndCountsIt() throws SQLException {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 1000.0)
        .with(Keys.CONCURRENCY, ConcurrencyCap.of(1)).with(Keys.MODE, Mode.SHADOW);
    Limiter limiter = new Limiter("users-db",
        Enforcer.limitSettings(settings), Bucket.of(1000, 100, ticker), flag,
        1, false, ticker, Priority.OF_CODE);
    flag.trip();
    int autoCommit = ConnectionState.initial(true);
    assertThat(limiter.beforeStatement(autoCommit, DRIVER) & ConnectionState.HELD).isNotZero();

    int passed = limiter.beforeStatement(autoCommit, DRIVER); // enforce would refuse it

    assertThat(passed & ConnectionState.HELD).isZero();
    assertThat(new Stats(limiter).inFlight()).isEqualTo(1);
    assertThat(limiter.counts().rejected()).isZero();
    assertThat(new Stats(limiter).shadowRejected()).isEqualTo(1);
    assertThat(limiter.counts().admitted()).isEqualTo(1); // and it took no permit
  }

  @Test
  void capReached_refusalCountsUnderTheCallsPriority() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    flag.trip();
    int autoCommit = ConnectionState.initial(true);
    limiter.beforeStatement(autoCommit, DRIVER);

    assertThatThrownBy(() -> Priority.CRITICAL.call(
        () -> limiter.beforeStatement(autoCommit, DRIVER)))
        .isInstanceOf(RateLimitExceededException.class);

    assertThat(new Stats(limiter).rejected(Priority.CRITICAL)).isEqualTo(1);
  }

  @Test
  void beforeStatement_capReached_refusesWithConcurrencyAndAdmitsAgainAfterARelease()
      throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 2, 100, 1);
    flag.trip();
    int autoCommit = ConnectionState.initial(true);
    assertThat(limiter.beforeStatement(autoCommit, DRIVER) & ConnectionState.HELD).isNotZero();
    assertThat(limiter.beforeStatement(autoCommit, DRIVER) & ConnectionState.HELD).isNotZero();

    assertThatThrownBy(() -> limiter.beforeStatement(autoCommit, DRIVER))
        .isInstanceOfSatisfying(RateLimitExceededException.class, e -> {
          assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY);
          assertThat(e.getMessage()).contains("users-db", "concurrency limit exceeded",
              "cap 2 in flight");
        });
    assertThat(limiter.counts().rejected()).isEqualTo(1);
    assertThat(limiter.counts().admitted()).isEqualTo(2); // the refused call spent no permit
    assertThat(new Stats(limiter).inFlight()).isEqualTo(2);

    limiter.places().afterStatement(ConnectionState.HELD, 0, "select 1", null);
    assertThat(limiter.beforeStatement(autoCommit, DRIVER) & ConnectionState.HELD).isNotZero();
    assertThat(new Stats(limiter).concurrencyLimit()).isEqualTo(2);
  }

  @Test
  void beforeStatement_rateRefuses_givesThePlaceBackAndSaysRate() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 5, 1, 1);
    flag.trip();
    int autoCommit = ConnectionState.initial(true);
    limiter.beforeStatement(autoCommit, DRIVER);

    assertThatThrownBy(() -> limiter.beforeStatement(autoCommit, DRIVER))
        .isInstanceOfSatisfying(RateLimitExceededException.class,
            e -> assertThat(e.limit()).isEqualTo(Limit.RATE));
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
  }

  @Test
  void beforeStatement_flagClosed_takesNoPlace() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    for (int i = 0; i < 10; i++) {
      assertThat(limiter.beforeStatement(ConnectionState.initial(true), DRIVER) & ConnectionState.HELD).isZero();
    }
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void beforeStatement_inAnAdmittedTransaction_holdsTheDoorsOnePlaceUntilItEnds()
      throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    flag.trip();
    int tx = limiter.beforeStatement(ConnectionState.initial(false), DRIVER); // the door: the place
    assertThat(tx & ConnectionState.HELD).as("the statement holds nothing of its own").isZero();
    assertThat(tx & ConnectionState.TX_PLACE).isNotZero();
    for (int i = 0; i < 3; i++) {
      tx = limiter.beforeStatement(tx, DRIVER);
      assertThat(tx & ConnectionState.HELD).isZero();
    }
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
    assertThat(limiter.counts().rejected()).isZero();
    // a new door finds the cap reached, though no statement of the transaction runs now
    assertThatThrownBy(() -> limiter.beforeStatement(ConnectionState.initial(true), DRIVER))
        .isInstanceOf(RateLimitExceededException.class);

    int ended = limiter.places().afterEnd(tx);

    assertThat(ended & (ConnectionState.TX_PLACE | ConnectionState.TX_CLASS)).isZero();
    assertThat(limiter.concurrency().inFlight()).isZero();
    assertThat(limiter.places().afterEnd(ended)).isEqualTo(ended); // once
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void beforeAutoCommit_capReached_refusesTheTransactionsDoor_admittedItHoldsAPlace()
      throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    flag.trip();
    limiter.beforeStatement(ConnectionState.initial(true), DRIVER);
    assertThatThrownBy(() -> limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER))
        .isInstanceOfSatisfying(RateLimitExceededException.class,
            e -> assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY));
    limiter.places().afterStatement(ConnectionState.HELD, 0, null, null);
    int before = ConnectionState.initial(true);
    int state = limiter.beforeAutoCommit(before, false, DRIVER);
    assertThat(state & ConnectionState.IN_TRANSACTION).isNotZero();
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1); // from its door to its end

    int back = limiter.places().afterAutoCommit(state, limiter.beforeAutoCommit(state, true, DRIVER), true,
        true);

    assertThat(back & ConnectionState.TX_PLACE).isZero();
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void afterAutoCommit_failedSwitchToManual_givesTheDoorsPlaceBack() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    flag.trip();
    int before = ConnectionState.initial(true);
    int next = limiter.beforeAutoCommit(before, false, DRIVER);
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);

    assertThat(limiter.places().afterAutoCommit(before, next, false, false)).isEqualTo(before);

    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void transactionBegunWhileNotLimiting_isCountedFromItsFirstStatementWhileLimiting()
      throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    int tx = limiter.beforeAutoCommit(ConnectionState.initial(true), false, DRIVER);
    tx = limiter.beforeStatement(tx, DRIVER);
    assertThat(limiter.concurrency().inFlight()).isZero();
    flag.trip();

    tx = limiter.beforeStatement(tx, DRIVER); // never refused: its work is under way

    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
    assertThatThrownBy(() -> limiter.beforeStatement(ConnectionState.initial(true), DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
    tx = limiter.beforeStatement(tx, DRIVER);
    assertThat(limiter.concurrency().inFlight()).as("adopted once").isEqualTo(1);
    limiter.places().afterEnd(tx);
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void capReserve_sheddableFlood_leavesThePlacesAboveItsPartToCritical() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, 10, 1000, 1); // reserve 0.2: parts 10, 8, 6
    flag.trip();
    int readOnly = ConnectionState.readOnly(ConnectionState.initial(true), true);
    for (int i = 0; i < 6; i++) {
      limiter.beforeStatement(readOnly, DRIVER);
    }
    assertThatThrownBy(() -> limiter.beforeStatement(readOnly, DRIVER))
        .isInstanceOfSatisfying(RateLimitExceededException.class, e -> {
          assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY);
          assertThat(e.getMessage()).contains("sheddable calls may hold", "cap 10");
        });
    int autoCommit = ConnectionState.initial(true);
    limiter.beforeStatement(autoCommit, DRIVER);
    limiter.beforeStatement(autoCommit, DRIVER); // NORMAL: up to 8
    assertThatThrownBy(() -> limiter.beforeStatement(autoCommit, DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
    for (int i = 0; i < 2; i++) {
      assertThat(Priority.CRITICAL.call(() -> limiter.beforeStatement(autoCommit, DRIVER))
          & ConnectionState.HELD).isNotZero();
    }
    assertThat(limiter.concurrency().inFlight()).isEqualTo(10);
  }

  @Test
  void capReserve_aTransactionHoldsItsPlaceAtItsDoorsPriority() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, 2, 1000, 1); // reserve 0.2: parts 2, 2, 1
    flag.trip();
    int readOnlyManual = ConnectionState.readOnly(ConnectionState.initial(false), true);
    int tx = limiter.beforeStatement(readOnlyManual, DRIVER);
    assertThatThrownBy(() -> limiter.beforeAutoCommit(
        ConnectionState.readOnly(ConnectionState.initial(true), true), false, DRIVER))
        .isInstanceOf(RateLimitExceededException.class);
    assertThat(Priority.CRITICAL.call(() -> limiter.beforeAutoCommit(ConnectionState.initial(true),
        false, DRIVER)) & ConnectionState.TX_PLACE).isNotZero();
    limiter.places().afterEnd(tx);
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
  }

  /** Through the wrappers: every way a transaction ends gives its place back, once. */
  @Test
  void transactionPlace_givenBackByCommitRollbackSwitchCloseAbortAndEndingText()
      throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 1000, 1);
    flag.trip();
    List<String> ends = List.of("commit", "rollback", "autocommit", "close", "abort", "text");
    for (String end : ends) {
      Connection connection = Connections.wrap(driverConnection(() -> null), limiter);
      connection.setAutoCommit(false);
      Statement statement = connection.createStatement();
      statement.execute("update t set x = 1");
      statement.execute("update t set x = 2");
      assertThat(limiter.concurrency().inFlight()).as("open, before " + end).isEqualTo(1);
      switch (end) {
        case "commit" -> connection.commit();
        case "rollback" -> connection.rollback();
        case "autocommit" -> connection.setAutoCommit(true);
        case "close" -> connection.close();
        case "abort" -> connection.abort(Runnable::run);
        default -> statement.execute("COMMIT");
      }
      connection.close(); // a later close gives nothing back twice
      assertThat(limiter.concurrency().inFlight()).as("after " + end).isZero();
    }
  }

  @Test
  void setAutoCommitFalse_driverThrows_givesTheDoorsPlaceBack() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 1000, 1);
    flag.trip();
    SQLException broken = new SQLException("connection broken", "08006");
    Connection driver = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getAutoCommit": return true;
            case "setAutoCommit": throw broken;
            default: return null;
          }
        });
    Connection connection = Connections.wrap(driver, limiter);

    assertThatThrownBy(() -> connection.setAutoCommit(false)).isSameAs(broken);

    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void setInstances_dividesTheCapLikeTheBudget_eachAtLeastOne() {
    Limiter limiter = limiter(Scope.STATEMENT, 10, 100, 3);
    assertThat(limiter.concurrency().limit()).isEqualTo(3);
    limiter.share().setInstances(2);
    assertThat(limiter.concurrency().limit()).isEqualTo(5);
    limiter.share().setInstances(20);
    assertThat(limiter.concurrency().limit()).isEqualTo(1);
  }

  @Test
  void connectionScope_checkoutsHoldAPlaceUntilClosedOnce() throws SQLException {
    Limiter limiter = limiter(Scope.CONNECTION, 2, 100, 1);
    flag.trip();
    Connection first = Connections.wrap(DRIVER, limiter, limiter.beforeCheckout());
    Connections.wrap(DRIVER, limiter, limiter.beforeCheckout());
    assertThatThrownBy(limiter::beforeCheckout)
        .isInstanceOfSatisfying(RateLimitExceededException.class,
            e -> assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY));

    first.close();
    first.close(); // once
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
    assertThat(limiter.beforeCheckout()).isEqualTo(ConnectionState.HELD);
  }

  /**
   * Issue 35, item 4: cap 2, three connections checked out while the flag was closed and still
   * held, running nothing: two more checkouts were admitted (5 out, {@code inFlight()} 2). They
   * count until closed, as 0.3 meant.
   */
  @Test
  void connectionScope_connectionsCheckedOutWhileClosed_countUntilClosed() throws SQLException {
    Limiter limiter = limiter(Scope.CONNECTION, 2, 100, 1);
    Connection[] before = new Connection[3];
    for (int i = 0; i < before.length; i++) {
      before[i] = Connections.wrap(DRIVER, limiter, limiter.beforeCheckout());
    }
    flag.trip();

    assertThatThrownBy(limiter::beforeCheckout).isInstanceOf(RateLimitExceededException.class);
    assertThat(limiter.concurrency().inFlight()).isEqualTo(3);
    before[0].createStatement().execute("select 1"); // running a statement: counted once still
    assertThat(limiter.concurrency().inFlight()).isEqualTo(3);

    before[0].close();
    before[0].close(); // once
    before[1].close();
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
    Connection admitted = Connections.wrap(DRIVER, limiter, limiter.beforeCheckout());
    assertThat(limiter.concurrency().inFlight()).isEqualTo(2);
    assertThatThrownBy(limiter::beforeCheckout).isInstanceOf(RateLimitExceededException.class);
    before[2].close();
    admitted.close();
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void connectionScope_failedCheckout_givesThePlaceBack() throws SQLException {
    Limiter limiter = limiter(Scope.CONNECTION, 1, 100, 1);
    flag.trip();
    int held = limiter.beforeCheckout();
    limiter.places().afterCheckout(held, new SQLTransientException("pool timeout"));
    assertThat(limiter.concurrency().inFlight()).isZero();
    assertThat(Connections.wrap(null, limiter, limiter.beforeCheckout())).isNull();
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  // --- auto: the controller is fed by the statements the gate admitted ---

  private Limiter auto(int min, int max) {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 1e6)
        .with(Keys.CONCURRENCY, ConcurrencyCap.AUTO).with(Keys.CONCURRENCY_MIN, min)
        .with(Keys.CONCURRENCY_MAX, max).with(Keys.RESERVE, 0.0); // NORMAL sees the whole cap
    return new Limiter("users-db",
        Enforcer.limitSettings(settings), Bucket.of(1e6, 1_000_000, ticker), flag, 1,
        false, ticker, Priority.OF_CODE);
  }

  @Test
  void auto_overloadErrorsOfAdmittedStatements_cutTheCapTowardsMin() throws SQLException {
    Limiter limiter = auto(2, 40);
    flag.trip();
    assertThat(limiter.concurrency().limit()).isEqualTo(40);
    int autoCommit = ConnectionState.initial(true);
    for (int window = 0; window < 20; window++) {
      for (int i = 0; i < 30; i++) { // the gate in use: 30 of 40 in flight
        limiter.beforeStatement(autoCommit, DRIVER);
      }
      long start = limiter.places().startNanos();
      ticker.advanceNanos(150_000_000L);
      for (int i = 0; i < 30; i++) {
        limiter.places().afterStatement(ConnectionState.HELD, start, "select * from t",
            new SQLException("too many connections", "53300"));
      }
      if (limiter.concurrency().limit() <= 30) {
        break;
      }
    }
    assertThat(limiter.concurrency().limit()).isLessThan(40).isGreaterThanOrEqualTo(2);
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void auto_refusedCalls_giveNoSampleAndMoveNothing() throws SQLException {
    Limiter limiter = auto(1, 3);
    flag.trip();
    int autoCommit = ConnectionState.initial(true);
    for (int i = 0; i < 3; i++) {
      limiter.beforeStatement(autoCommit, DRIVER);
    }
    for (int i = 0; i < 1_000; i++) {
      ticker.advanceNanos(1_000_000L);
      assertThatThrownBy(() -> limiter.beforeStatement(autoCommit, DRIVER))
          .isInstanceOf(RateLimitExceededException.class);
    }
    assertThat(limiter.concurrency().limit()).isEqualTo(3); // no sample, no decision
    assertThat(limiter.counts().rejected()).isEqualTo(1_000);
  }

  @Test
  void auto_flagClosed_samplesOneStatementInSampleEveryPerConnectionAndHoldsNothing()
      throws SQLException {
    Limiter limiter = auto(1, 10);
    int state = ConnectionState.initial();
    int sampled = 0;
    for (int i = 1; i <= 10 * ConnectionState.SAMPLE_EVERY; i++) {
      int next = limiter.beforeStatement(state, DRIVER);
      assertThat(next & ConnectionState.HELD).isZero();
      if ((next & ConnectionState.SAMPLED) != 0) {
        sampled++;
        assertThat(i % ConnectionState.SAMPLE_EVERY).isZero();
        limiter.places().afterStatement(ConnectionState.SAMPLED, limiter.places().startNanos(), "select 1", null);
      }
      state = next & ~ConnectionState.SAMPLED;
    }
    assertThat(sampled).isEqualTo(10);
    assertThat(limiter.concurrency().inFlight()).isZero(); // nothing was released either
    assertThat(state & ~ConnectionState.SAMPLE_COUNT).isEqualTo(ConnectionState.initial() | ConnectionState.RAN);
  }

  /**
   * Issue 24, item 3: an application that borrows a connection per statement was never sampled
   * before the outage (each checkout's count started at 0 and reached 64 never). Each checkout now
   * starts at a random phase, so one statement in 64 of the budget is sampled either way.
   */
  @Test
  void auto_flagClosed_connectionPerStatement_samplesOneInSampleEveryOfTheBudget()
      throws SQLException {
    Limiter limiter = auto(1, 10);
    Limiter fixed = limiter(Scope.STATEMENT, 4, 100, 1);
    int checkouts = 100 * ConnectionState.SAMPLE_EVERY;
    int sampled = 0;
    for (int i = 0; i < checkouts; i++) {
      int next = limiter.beforeStatement(limiter.places().checkedOut(0), DRIVER); // one statement, returned
      assertThat(next & ConnectionState.HELD).isZero();
      if ((next & ConnectionState.SAMPLED) != 0) {
        sampled++;
        limiter.places().afterStatement(ConnectionState.SAMPLED, limiter.places().startNanos(), "select 1", null);
      }
      assertThat(fixed.places().checkedOut(0)).as("no phase without auto").isEqualTo(ConnectionState.initial());
    }
    // binomial(6,400, 1/64): mean 100, sd 9.9; 0 before the fix, 6,400 if every one were sampled
    assertThat(sampled).isBetween(50, 160);
    assertThat(limiter.concurrency().inFlight()).isZero();
  }

  @Test
  void auto_limiting_timesEveryAdmittedStatementWhileFewRun_thenOneInTheStride()
      throws SQLException {
    Limiter limiter = auto(1, 1000);
    flag.trip();
    int state = ConnectionState.initial(true);
    int both = ConnectionState.HELD | ConnectionState.SAMPLED;
    for (int i = 0; i < 100; i++) { // 10 a second: every one is timed
      int next = limiter.beforeStatement(state, DRIVER);
      assertThat(next & both).as("statement " + i).isEqualTo(both);
      state = next & ~both;
      long start = limiter.places().startNanos();
      ticker.advanceNanos(100_000_000L);
      limiter.places().afterStatement(next & both, start, "select 1", null);
    }
    for (int i = 0; i < 20_000; i++) { // 20,000 a second on one connection, 50 us each
      int next = limiter.beforeStatement(state, DRIVER);
      state = next & ~both;
      long start = (next & ConnectionState.SAMPLED) != 0 ? limiter.places().startNanos() : 0;
      ticker.advanceNanos(50_000L);
      limiter.places().afterStatement(next & both, start, "select 1", null);
    }
    int stride = limiter.concurrency().sampleStride();
    // 2,000 statements a 100 ms window: 1 in 8 gives 250 samples, within the wanted 64-256
    assertThat(stride).isEqualTo(8);
    int sampled = 0;
    for (int i = 0; i < 10 * stride; i++) {
      int next = limiter.beforeStatement(state, DRIVER);
      assertThat(next & ConnectionState.HELD).isNotZero();
      sampled += (next & ConnectionState.SAMPLED) != 0 ? 1 : 0;
      state = next & ~both;
      limiter.places().afterStatement(next & both, limiter.places().startNanos(), "select 1", null);
    }
    assertThat(sampled).isEqualTo(10);
    assertThat(limiter.concurrency().inFlight()).isZero();
    assertThat(limiter.concurrency().limit()).as("no cut at a steady 50 us").isEqualTo(1000);
  }

  @Test
  void fixedCap_flagClosed_samplesNothing() throws SQLException {
    Limiter limiter = limiter(Scope.STATEMENT, 4, 100, 1);
    int state = ConnectionState.initial(true);
    for (int i = 0; i < 2 * ConnectionState.SAMPLE_EVERY; i++) {
      assertThat(limiter.beforeStatement(state, DRIVER)).isEqualTo(state);
    }
  }

  @Test
  void auto_flagClosed_throughTheWrappers_theStoredStateNeverHoldsTheSampleBit()
      throws SQLException {
    Limiter limiter = auto(1, 10);
    Connection connection = Connections.wrap(driverConnection(() -> {
      ticker.advanceNanos(1_000_000L);
      return null;
    }), limiter);
    PreparedStatement statement = connection.prepareStatement("select 1");
    for (int i = 0; i < 3 * ConnectionState.SAMPLE_EVERY; i++) {
      statement.execute();
    }
    flag.trip();
    statement.execute(); // limiting: held and released
    assertThat(limiter.concurrency().inFlight()).isZero();
    assertThat(limiter.counts().admitted()).isEqualTo(1);
  }

  @Test
  void isOverload_theSignalsTheIssueNames_andNeverARefusalOrASyntaxError() {
    assertThat(Concurrency.isOverload(new SQLException("x", "53300"))).isTrue();
    assertThat(Concurrency.isOverload(new SQLException("x", "57014"))).isTrue();
    assertThat(Concurrency.isOverload(new SQLException("x", "08006"))).isTrue();
    assertThat(Concurrency.isOverload(new java.sql.SQLTransientConnectionException(
        "Connection is not available, request timed out after 30000ms."))).isTrue();
    assertThat(Concurrency.isOverload(new SQLException("x", "42601"))).isFalse();
    assertThat(Concurrency.isOverload(new SQLException("x"))).isFalse();
    assertThat(Concurrency.isOverload(null)).isFalse();
    assertThat(Concurrency.isOverload(new RateLimitExceededException("n", 1, "r", 0, false)))
        .isFalse();
  }

  // --- through the wrappers: every way out gives the place back ---

  @Test
  void execute_throwingSqlExceptionRuntimeExceptionOrError_givesThePlaceBack() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    flag.trip();
    List<Throwable> failures = List.of(new SQLException("boom", "42601"),
        new SQLException("too many connections", "53300"), new IllegalStateException("bug"),
        new OutOfMemoryError("fake"), new SQLException("statement closed"));
    for (Throwable failure : failures) {
      Connection connection = Connections.wrap(driverConnection(() -> {
        throw failure;
      }), limiter);
      PreparedStatement statement = connection.prepareStatement("select 1");
      assertThatThrownBy(statement::executeQuery).isSameAs(failure);
      Statement plain = connection.createStatement();
      assertThatThrownBy(() -> plain.execute("select 2")).isSameAs(failure);
      assertThat(limiter.concurrency().inFlight()).as("after %s", failure).isZero();
    }
    assertThat(limiter.counts().rejected()).isZero(); // a cap of 1 refused nothing: each was released
  }

  @Test
  void execute_refusedByTheCap_neverReachesTheDriverAndHoldsNothing() throws Exception {
    Limiter limiter = limiter(Scope.STATEMENT, 1, 100, 1);
    flag.trip();
    AtomicInteger executed = new AtomicInteger();
    Connection connection = Connections.wrap(driverConnection(() -> {
      executed.incrementAndGet();
      return null;
    }), limiter);
    limiter.beforeStatement(ConnectionState.initial(true), DRIVER); // another's statement runs
    assertThatThrownBy(() -> connection.prepareStatement("select 1").executeUpdate())
        .isInstanceOf(RateLimitExceededException.class);
    assertThat(executed).hasValue(0);
    assertThat(limiter.concurrency().inFlight()).isEqualTo(1);
  }

  /**
   * Many threads, each on its own connection, through a cap of 4: the driver never sees more
   * than 4 at once, every admitted statement is released (whichever way it ends), and what was
   * admitted plus refused is what was tried.
   */
  @Test
  void execute_underContention_neverExceedsTheCapAndReleasesEverything() throws Exception {
    int threads = 16;
    int perThread = 2_000;
    // a burst for every call: the bucket is not what refuses here
    Limiter limiter = limiter(Scope.STATEMENT, 4, threads * perThread, 1);
    flag.trip();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    LongAdder ran = new LongAdder();
    LongAdder refused = new LongAdder();
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> workers = new ArrayList<>();
    List<Throwable> unexpected = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int seed = t;
      Connection connection = Connections.wrap(driverConnection(() -> {
        most.accumulateAndGet(running.incrementAndGet(), Math::max);
        ran.increment();
        Thread.onSpinWait();
        running.decrementAndGet();
        if (ran.sum() % 7 == seed % 7) {
          throw new SQLException("canceled", "57014");
        }
        return null;
      }), limiter);
      workers.add(new Thread(() -> {
        try {
          start.await();
          PreparedStatement statement = connection.prepareStatement("select 1");
          for (int i = 0; i < perThread; i++) {
            try {
              statement.execute();
            } catch (RateLimitExceededException e) {
              refused.increment();
              assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY);
            } catch (SQLException expected) {
              // the driver's own failure: released all the same
            }
          }
        } catch (Throwable e) {
          synchronized (unexpected) {
            unexpected.add(e);
          }
        }
      }));
    }
    workers.forEach(Thread::start);
    for (Thread worker : workers) {
      worker.join();
    }
    assertThat(unexpected).isEmpty();
    assertThat(most.get()).isBetween(1, 4);
    assertThat(limiter.concurrency().inFlight()).isZero();
    assertThat(ran.sum() + refused.sum()).isEqualTo((long) threads * perThread);
    assertThat(limiter.counts().rejected()).isEqualTo(refused.sum());
  }

  /** What the driver's statements do when executed. */
  interface Execution {
    Object run() throws Throwable;
  }

  /** A driver connection in auto-commit whose statements' {@code execute*} run {@code body}. */
  static Connection driverConnection(Execution body) {
    Object statement = Proxy.newProxyInstance(LimiterConcurrencyTest.class.getClassLoader(),
        new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
          if (method.getName().startsWith("execute")) {
            Object result = body.run();
            return method.getReturnType() == boolean.class ? Boolean.FALSE
                : method.getReturnType() == int.class ? 0 : result;
          }
          return defaultFor(method.getReturnType());
        });
    return (Connection) Proxy.newProxyInstance(LimiterConcurrencyTest.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("getAutoCommit")) {
            return true;
          }
          if (name.equals("prepareStatement") || name.equals("createStatement")) {
            return statement;
          }
          return defaultFor(method.getReturnType());
        });
  }

  private static Object defaultFor(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    return null;
  }
}
