package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, item 2: what a transaction owes is paid by the capacity that time brings and nobody
 * uses, and the retry hint is the true time to the next admitted door. Until then each door paid
 * one permit of the debt and time paid nothing: budget 5/s, burst 1, a transaction of 20
 * statements, and a read 4.5 s later was refused "retry in 3800 ms", and refused again after
 * waiting that long. All on a fake clock.
 */
class DebtPaidByTimeTest {
  private static final Connection MANUAL = driver(false);
  private static final Connection AUTO = driver(true);
  private final FakeTicker ticker = new FakeTicker();

  private Limiter limiter(double budget, int burst) {
    Settings settings = Settings.empty().with(Keys.NAME, "debts").with(Keys.BUDGET, budget);
    return new Limiter("debts",
        Enforcer.limitSettings(settings), Bucket.of(budget, burst, 0.2, ticker),
        BreakerFlag.alwaysOpen(), 1, false, ticker, Priority.OF_CODE);
  }

  /** A transaction of {@code statements} at the code's priority, one a millisecond, committed. */
  private void transaction(Limiter limiter, int statements) throws SQLException {
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, MANUAL); // the door
    for (int i = 0; i < statements; i++) {
      state = limiter.beforeStatement(state, MANUAL) & ~ConnectionState.HELD;
      ticker.advanceNanos(1_000_000L);
    }
    limiter.places().afterAutoCommit(state, limiter.beforeAutoCommit(state, true, MANUAL), true,
        true);
  }

  private static void read(Limiter limiter) throws SQLException {
    limiter.beforeStatement(ConnectionState.initial(true), AUTO);
  }

  private static RateLimitExceededException refusal(Limiter limiter) {
    return catchThrowableOfType(() -> read(limiter), RateLimitExceededException.class);
  }

  @Test
  void aCallerWhoWaitsExactlyTheHint_isAdmitted() throws SQLException {
    Limiter limiter = limiter(5, 1);
    transaction(limiter, 20); // 19 statements beyond the door's permit: 3.8 s owed at 5/s
    ticker.advance(Duration.ofSeconds(2));

    RateLimitExceededException first = refusal(limiter);
    assertThat((Object) first).as("2 s after, half of the debt is still owed").isNotNull();
    Duration hint = first.retryAfter();
    assertThat(hint).isEqualTo(Duration.ofMillis(1_980)); // paid at 0.2 + 19 x 0.2 = 4.0 s; now 2.02 s
    ticker.advance(hint.minusMillis(1));
    RateLimitExceededException early = refusal(limiter);
    assertThat((Object) early).as("a millisecond early").isNotNull();
    assertThat(early.retryAfter()).isEqualTo(Duration.ofMillis(1));
    ticker.advance(Duration.ofMillis(1));

    read(limiter); // admitted: exactly when the hint said
    assertThat(refusal(limiter).retryAfter()).as("burst 1: the next permit, 200 ms on")
        .isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void aDebtOlderThanItsLength_isPaid_theNextReadIsAdmitted() throws SQLException {
    Limiter limiter = limiter(5, 1);
    transaction(limiter, 20);
    ticker.advance(Duration.ofMillis(4_500)); // the case: refused "retry in 3800 ms"

    read(limiter);
    assertThat(limiter.counts().rejected()).isZero();
  }

  @Test
  void priorityThatOwes_hintAtEveryRefusal_isTheTimeItIsAdmitted() throws SQLException {
    Limiter limiter = limiter(5, 1);
    transaction(limiter, 60);
    // a client that obeys each hint exactly: every wait ends in an admission, never a second refusal
    for (int round = 0; round < 5; round++) {
      int statements = 5 + 7 * round;
      RateLimitExceededException refused = catchThrowableOfType(
          () -> transaction(limiter, statements), RateLimitExceededException.class);
      assertThat((Object) refused).as("round %d", round).isNotNull();
      ticker.advance(refused.retryAfter());
      transaction(limiter, statements);
    }
  }

  /**
   * The long run: a client that opens a 20-statement transaction whenever its door is admitted,
   * and reads every 150 ms between, for ten minutes. The database sees no more than the share
   * (5/s), the burst and the statements of the last transaction (owed, never refused); and time
   * pays the debts, so the share is used.
   */
  @Test
  void transactionsAndReads_theDatabaseSeesNoMoreThanTheShare() throws SQLException {
    Limiter limiter = limiter(5, 1);
    Random random = new Random(35);
    long ran = 0;
    long start = ticker.read();
    for (int i = 0; i < 4_000; i++) {
      try {
        if (random.nextInt(4) == 0) {
          transaction(limiter, 20);
          ran += 20;
        } else {
          read(limiter);
          ran++;
        }
      } catch (RateLimitExceededException refused) {
        // counted by what ran
      }
      ticker.advanceNanos(150_000_000L);
    }
    double seconds = (ticker.read() - start) / 1e9;
    assertThat(ran).isLessThanOrEqualTo((long) (5 * seconds) + 1 + 20);
    assertThat(ran).as("time paid the debts: the share was used").isGreaterThan(
        (long) (0.8 * 5 * seconds));
  }

  /**
   * A lower priority's debt never spends the reserve above it: {@code SHEDDABLE} owes some 95
   * permits (burst 10, reserve 0.2: it sees 6, {@code CRITICAL} 10); {@code CRITICAL} calls at
   * 20/s (the reserve, 0.2 x 100/s) beside {@code SHEDDABLE} reads that pay from their own depth
   * every 10 ms are all admitted, and {@code SHEDDABLE} waits until its debt is paid.
   */
  @Test
  void sheddableDebt_criticalWithinTheReserve_isAlwaysAdmitted() throws Exception {
    Limiter limiter = limiter(100, 10);
    Priority.SHEDDABLE.call(() -> {
      transaction(limiter, 100);
      return null;
    });
    int critical = 0;
    int sheddable = 0;
    long firstSheddable = -1;
    for (int ms = 0; ms < 3_000; ms++) {
      ticker.advanceNanos(1_000_000L);
      if (ms % 10 == 0) {
        try {
          Priority.SHEDDABLE.call(() -> {
            read(limiter);
            return null;
          });
          sheddable++;
          firstSheddable = firstSheddable < 0 ? ms : firstSheddable;
        } catch (RateLimitExceededException refused) {
          // paying its debt
        }
      }
      if (ms % 50 == 25) {
        Priority.CRITICAL.call(() -> {
          read(limiter);
          return null;
        });
        critical++;
      }
    }
    assertThat(critical).isEqualTo(60);
    assertThat(firstSheddable).as("the debt (95 permits) paid first, ~1 s at 100/s less 20/s")
        .isBetween(900L, 1_300L);
    assertThat(sheddable).isGreaterThan(150);
  }

  private static Connection driver(boolean autoCommit) {
    return (Connection) Proxy.newProxyInstance(DebtPaidByTimeTest.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          if (method.getName().equals("getAutoCommit")) {
            return autoCommit;
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }
}
