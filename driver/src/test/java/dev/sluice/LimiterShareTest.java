package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The share and its burst (issue 10, items 1 and 3), on a fake ticker: a change is all or
 * nothing, never admits more than the share, and never refills the bucket.
 */
class LimiterShareTest {
  private final FakeTicker ticker = new FakeTicker();

  /** A limiter that always limits, built as {@link Enforcer} builds one. */
  private Limiter limiter(double budget, double instances, Integer burst) {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, budget);
    if (burst != null) {
      settings = settings.with(Keys.BURST, burst);
    }
    Share share = Share.of(budget, instances, burst == null ? 0 : burst);
    return new Limiter("users-db", Enforcer.limitSettings(settings),
        Bucket.of(share.permitsPerSecond, share.burst, ticker), BreakerFlag.alwaysOpen(),
        instances, false, ticker, Priority.OF_CODE);
  }

  private static int drain(Limiter limiter) {
    int admitted = 0;
    try {
      for (;;) {
        Doors.admit(limiter);
        admitted++;
      }
    } catch (RateLimitExceededException refused) {
      return admitted;
    }
  }

  /**
   * Issue 10, item 1: with budget 1, a live count of 1,200 makes the share 1/1200 per second,
   * below the slowest rate a bucket holds. {@code setInstances} stored the count, then the bucket
   * threw inside the registry's heartbeat, which died; the instance kept the old, larger share.
   */
  @Test
  void setInstances_shareBelowTheBucketsMinimum_admitsNothingNewAndStoresTheCount() {
    Limiter limiter = limiter(1, 10, null);

    limiter.share().setInstances(1200);

    assertThat(limiter.share().instances()).isEqualTo(1200);
    assertThat(limiter.bucket().permitsPerSecond()).isZero();
    ticker.advance(Duration.ofHours(1));
    assertThat(drain(limiter)).isZero();
  }

  @Test
  void setInstances_backAboveTheMinimum_admitsAgainWithoutAFreshBurst() {
    Limiter limiter = limiter(10, 1, null); // burst 1
    limiter.share().setInstances(20_000);
    ticker.advance(Duration.ofHours(1));

    limiter.share().setInstances(2); // 5/s, burst 1: empty at first, as it was left
    assertThat(limiter.bucket().permitsPerSecond()).isEqualTo(5);
    assertThat(drain(limiter)).isZero();
    ticker.advance(Duration.ofMillis(200));
    assertThat(drain(limiter)).isEqualTo(1);
  }

  @Test
  void setInstances_admittedTransactionWhileNothingIsAdmitted_isStillCharged() {
    Limiter limiter = limiter(1, 1, null);
    limiter.share().setInstances(2000);
    limiter.bucket().forceAcquire(1); // a statement of an admitted transaction
    limiter.share().setInstances(1); // 1/s: the forced permit still weighs
    ticker.advance(Duration.ofSeconds(1));
    assertThat(drain(limiter)).isZero();
  }

  /**
   * Issue 10, item 3: the default burst was sized from {@code sluice.instances.assumed} and never
   * changed; with 100 live instances against an assumed 10, each kept ten times its burst.
   */
  @Test
  void setInstances_moreLiveThanAssumed_theDefaultBurstFollowsTheShare() {
    Limiter limiter = limiter(1000, 10, null); // 100/s, burst 10
    limiter.share().setInstances(100); // 10/s: burst 1

    assertThat(limiter.bucket().burst()).isEqualTo(1);
    assertThat(drain(limiter)).isEqualTo(1);
    ticker.advance(Duration.ofSeconds(10));
    assertThat(drain(limiter)).isEqualTo(1);
  }

  @Test
  void setInstances_fewerInstances_theBurstGrowsButNothingIsHandedOutAtOnce() {
    Limiter limiter = limiter(1000, 100, null); // 10/s, burst 1
    assertThat(drain(limiter)).isEqualTo(1);
    limiter.share().setInstances(10); // 100/s, burst 10
    assertThat(drain(limiter)).isZero();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(drain(limiter)).isEqualTo(10);
  }

  @Test
  void setInstances_explicitBurst_staysAsSet() {
    Limiter limiter = limiter(1000, 10, 30);
    limiter.share().setInstances(100);
    assertThat(limiter.bucket().burst()).isEqualTo(30);
    assertThat(drain(limiter)).isEqualTo(30);
  }

  @Test
  void setInstances_explicitBurstTooLongForTheNewShare_heldToWhatTheBucketSpans() {
    Limiter limiter = limiter(10, 1, 1_000_000);
    limiter.share().setInstances(10_000); // 0.001/s
    assertThat(limiter.bucket().burst()).isEqualTo(Bucket.maxBurst(0.001));
  }

  /** Issue 10, item 3: after a JMX budget change from 500 to 4, 13 calls passed at once. */
  @Test
  void setBudget_from500To4_theBurstFollowsAndOneCallPasses() {
    Limiter limiter = limiter(500, 1, null); // burst 50, full

    limiter.share().setBudget(4, "JMX");

    assertThat(limiter.bucket().burst()).isEqualTo(1);
    assertThat(drain(limiter)).isEqualTo(1);
  }

  @Test
  void setBudget_shareOutOfRange_refusedNamingKeyRangeAndValue_changingNothing() {
    Limiter limiter = limiter(1, 1, null);
    limiter.share().setInstances(1200);

    assertThatThrownBy(() -> limiter.share().setBudget(1.1, "JMX"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.budget must be from 1.2 to 1200000000000 permits/s with the 1200"
            + " instances sharing it now (each instance's share, budget / 1200, must be from"
            + " 0.001 to 1000000000 permits/s), but was \"1.1\"");
    assertThat(limiter.share().budget()).isEqualTo(1);
    assertThat(limiter.bucket().permitsPerSecond()).isZero();

    limiter.share().setBudget(2.4, "JMX"); // a share of 0.002/s: admits again
    assertThat(limiter.bucket().permitsPerSecond()).isEqualTo(0.002);
  }

  /**
   * Issue 10, item 4, through the door rules: at 0.001/s, one transaction of about 4.6 million
   * statements wrapped the bucket's debt, and the next transaction's door was admitted.
   */
  @org.junit.jupiter.params.ParameterizedTest // issue 20, item 8: 4.7 million, and far beyond
  @org.junit.jupiter.params.provider.ValueSource(ints = {4_620_000, 4_700_000, 10_000_000})
  void transactionOfMillionsOfStatementsAtTheSlowestRate_theNextDoorIsRefused(int statements)
      throws Exception {
    Limiter limiter = limiter(0.001, 1, null);
    Connection driver = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> true); // auto-commit on
    int state = limiter.beforeAutoCommit(ConnectionState.initial(true), false, driver); // the door
    for (int i = 0; i < statements; i++) {
      state = limiter.beforeStatement(state, driver);
    }
    int ended = limiter.places().afterEnd(state);
    ticker.advance(Duration.ofDays(365));

    assertThatThrownBy(() -> limiter.beforeStatement(ended, driver)) // the next one's door
        .isInstanceOf(RateLimitExceededException.class);
    assertThat(limiter.counts().forced()).isEqualTo(statements - 1); // the first statement was prepaid
  }

  /**
   * Issue 20, item 6: under demand division the concurrency cap followed the instance count
   * (caps 2/2/2 of 6 with shares 233/52/14 of 300): it is divided as the budget is.
   */
  @Test
  void setShare_demandDivision_theConcurrencyCapIsDividedAsTheBudgetIs() {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 300.0)
        .with(Keys.CONCURRENCY, dev.sluice.internal.config.ConcurrencyCap.of(6));
    int[] caps = new int[3];
    double[] shares = {234, 52, 14};
    for (int i = 0; i < 3; i++) {
      Limiter limiter = new Limiter("users-db",
          Enforcer.limitSettings(settings), Bucket.of(100, 10, ticker),
          BreakerFlag.alwaysOpen(), 3, false, ticker, Priority.OF_CODE);
      assertThat(limiter.concurrency().limit()).isEqualTo(2); // the equal division first
      limiter.share().setShare(3, shares[i] / 300);
      caps[i] = limiter.concurrency().limit();
      limiter.share().setShare(3, 0.5); // a part that is not exact in binary keeps its whole places
      assertThat(limiter.concurrency().limit()).isEqualTo(3);
      limiter.share().setShare(3, Double.NaN); // back to equal division: budget / count
      assertThat(limiter.concurrency().limit()).isEqualTo(2);
    }
    assertThat(caps).containsExactly(4, 1, 1); // 4.68, 1.04, 0.28 (at least one place)
  }
}
