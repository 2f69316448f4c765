package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.config.ConcurrencyCap;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 20, item 4: lower-priority transactions spent the reserve of a higher class. {@code
 * CRITICAL} calls at 10/s against a flood of ten-statement {@code SHEDDABLE} transactions got
 * 70-77 % admitted where {@code sluice.reserve} promises at least 97 %: a transaction's later
 * statements were forced into the bucket's one debt, past every priority's depth. Now they are
 * charged within their own priority's depth, and what does not fit is owed by that priority.
 *
 * <p>On a fake clock, stepped one millisecond at a time: a budget of 100/s, burst 10 (reserve 0.2:
 * {@code CRITICAL} sees 10 permits, {@code SHEDDABLE} 6), twenty read-only connections each
 * opening a transaction as soon as one is admitted and running ten statements in it, one a
 * millisecond; {@code CRITICAL} arrivals at random (Poisson) at 10/s, within reserve x share
 * (20/s). Seeded, so the run is the same every time.
 */
class TransactionsSpendNoReserveTest {
  private static final int CLIENTS = 20;
  private static final int STATEMENTS = 10;
  private static final int SECONDS = 120;
  private static final Connection MANUAL = driver(false);
  private static final Connection AUTO = driver(true);

  @ParameterizedTest(name = "concurrency cap {0}")
  @ValueSource(ints = {0, 8})
  void sheddableTransactionFlood_criticalWithinTheReserve_isAdmitted(int cap) throws Exception {
    FakeTicker ticker = new FakeTicker();
    Settings settings = Settings.empty().with(Keys.NAME, "flood").with(Keys.BUDGET, 100.0);
    if (cap > 0) {
      settings = settings.with(Keys.CONCURRENCY, ConcurrencyCap.of(cap));
    }
    Limiter limiter = new Limiter("flood",
        Enforcer.limitSettings(settings), Bucket.of(100, 10, 0.2, ticker),
        BreakerFlag.alwaysOpen(), 1, false, ticker, Priority.OF_CODE);
    int[] state = new int[CLIENTS];
    int[] left = new int[CLIENTS];
    for (int c = 0; c < CLIENTS; c++) {
      state[c] = ConnectionState.readOnly(ConnectionState.initial(true), true);
    }
    Random random = new Random(20);
    int arrived = 0;
    int admitted = 0;
    long ran = 0;
    for (int ms = 0; ms < SECONDS * 1000; ms++) {
      ticker.advanceNanos(1_000_000L);
      for (int c = 0; c < CLIENTS; c++) {
        if (left[c] == 0) {
          try {
            state[c] = limiter.beforeAutoCommit(state[c], false, MANUAL);
            left[c] = STATEMENTS;
          } catch (RateLimitExceededException refused) {
            continue;
          }
        }
        state[c] = limiter.beforeStatement(state[c], MANUAL) & ~ConnectionState.HELD;
        ran++;
        if (--left[c] == 0) {
          state[c] = limiter.places().afterAutoCommit(state[c],
              limiter.beforeAutoCommit(state[c], true, MANUAL), true, true);
        }
      }
      if (random.nextDouble() < 10 / 1000.0) {
        arrived++;
        try {
          int held = Priority.CRITICAL.call(
              () -> limiter.beforeStatement(ConnectionState.initial(true), AUTO));
          admitted++;
          ran++;
          if ((held & ConnectionState.HELD) != 0) {
            limiter.places().afterStatement(ConnectionState.HELD, 0, "select 1", null);
          }
        } catch (RateLimitExceededException refused) {
          // counted by what was not admitted
        }
      }
    }

    assertThat(arrived).isBetween(1_000, 1_400);
    assertThat(admitted).as("CRITICAL admitted of %d", arrived)
        .isGreaterThanOrEqualTo((int) Math.ceil(0.97 * arrived));
    // and the database saw no more than the share: the burst, and the statements of the
    // transactions still open (owed, never refused) beyond it
    assertThat(ran).isLessThanOrEqualTo(100L * SECONDS + 10 + (long) CLIENTS * STATEMENTS);
    assertThat(ran).as("the flood used the share").isGreaterThan(95L * SECONDS);
  }

  private static Connection driver(boolean autoCommit) {
    return (Connection) Proxy.newProxyInstance(TransactionsSpendNoReserveTest.class
        .getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          if (method.getName().equals("getAutoCommit")) {
            return autoCommit;
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }
}
