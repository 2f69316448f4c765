package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private final FakeTicker ticker = new FakeTicker();

  @Test
  void of_newBucket_startsFullWithExactlyBurstPermits() {
    Bucket bucket = Bucket.of(10, 5, ticker);
    for (int i = 0; i < 5; i++) {
      assertThat(bucket.tryAcquire()).as("permit %d", i).isTrue();
    }
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_afterOneInterval_grantsExactlyOneMore() {
    Bucket bucket = Bucket.of(10, 1, ticker);
    assertThat(bucket.tryAcquire()).isTrue();
    ticker.advance(Duration.ofMillis(99));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_longIdle_refillsOnlyToBurst() {
    Bucket bucket = Bucket.of(1000, 3, ticker);
    ticker.advance(Duration.ofHours(5));
    int taken = drain(bucket);
    assertThat(taken).isEqualTo(3);
  }

  @Test
  void tryAcquire_rejected_takesNothing() {
    Bucket bucket = Bucket.of(10, 2, ticker);
    drain(bucket);
    for (int i = 0; i < 1000; i++) {
      assertThat(bucket.tryAcquire()).isFalse();
    }
    ticker.advance(Duration.ofMillis(100));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquireMany_notAllAvailable_takesNone() {
    Bucket bucket = Bucket.of(10, 4, ticker);
    assertThat(bucket.tryAcquire(3)).isTrue();
    assertThat(bucket.tryAcquire(2)).isFalse();
    assertThat(bucket.tryAcquire(1)).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_tickerStandsStill_grantsNothingNew() {
    Bucket bucket = Bucket.of(1e6, 10, ticker);
    assertThat(drain(bucket)).isEqualTo(10);
    for (int i = 0; i < 10_000; i++) {
      assertThat(bucket.tryAcquire()).isFalse();
    }
  }

  @Test
  void tryAcquire_tickerStepsBack_grantsNothingExtra() {
    Bucket bucket = Bucket.of(10, 2, ticker);
    drain(bucket);
    ticker.advance(Duration.ofSeconds(-30));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofSeconds(30));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(100));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_tickerNearLongOverflow_keepsCounting() {
    ticker.set(Long.MAX_VALUE - 50_000_000L);
    Bucket bucket = Bucket.of(10, 1, ticker);
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(100));
    assertThat(bucket.tryAcquire()).isTrue();
    ticker.advance(Duration.ofMillis(100));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  /**
   * The bucket reads the clock once, before the state, and may decide on that reading after
   * another caller, reading the clock later, has already taken the last permit. The stale reading
   * must find the permit gone, not grant it a second time.
   */
  @Test
  void tryAcquire_clockReadBeforeALaterAdmission_doesNotGrantThatPermitTwice() {
    long start = 1_000_000_000L;
    long[] reading = {start};
    Bucket[] holder = new Bucket[1];
    boolean[] raced = {false};
    Ticker racing = () -> {
      long stale = reading[0];
      if (holder[0] != null && !raced[0]) {
        raced[0] = true; // between our clock read and our state read, another caller, later,
        reading[0] = start + 1_000_000_000L; // takes the permit refilled in the meantime
        assertThat(holder[0].tryAcquire()).as("the later caller").isTrue();
      }
      return stale;
    };
    Bucket bucket = Bucket.of(1, 1, racing);
    assertThat(bucket.tryAcquire()).as("the first permit, at the start").isTrue();
    holder[0] = bucket;

    assertThat(bucket.tryAcquire()).as("a stale reading after the later admission").isFalse();
    assertThat(raced[0]).isTrue();
  }

  @Test
  void tryAcquire_readsTheClockOncePerCall() {
    int[] reads = {0};
    Bucket bucket = Bucket.of(1000, 2, () -> {
      reads[0]++;
      return ticker.read();
    });
    int before = reads[0];
    bucket.tryAcquire();
    bucket.tryAcquire();
    bucket.tryAcquire(); // rejected
    assertThat(reads[0] - before).isEqualTo(3);
  }

  @Test
  void forceAcquire_emptyBucket_goesIntoDebtOneIntervalEach() {
    Bucket bucket = Bucket.of(10, 1, ticker);
    assertThat(bucket.tryAcquire()).isTrue();
    bucket.forceAcquire(1);
    bucket.forceAcquire(1);
    // two forced permits: the next admission waits two more intervals than it would have
    ticker.advance(Duration.ofMillis(299));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(bucket.tryAcquire()).isTrue();
  }

  @Test
  void nanosUntilAvailable_emptyBucket_saysWhenThePermitComes() {
    Bucket bucket = Bucket.of(10, 1, ticker);
    assertThat(bucket.nanosUntilAvailable(1)).isZero();
    bucket.tryAcquire();
    assertThat(bucket.nanosUntilAvailable(1)).isEqualTo(Duration.ofMillis(100).toNanos());
    ticker.advance(Duration.ofMillis(40));
    assertThat(bucket.nanosUntilAvailable(1)).isEqualTo(Duration.ofMillis(60).toNanos());
  }

  @Test
  void setRate_emptyBucket_staysEmptyNoFreshBurst() {
    Bucket bucket = Bucket.of(10, 5, ticker);
    drain(bucket);
    bucket.setRate(1000);
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
    assertThat(bucket.permitsPerSecond()).isEqualTo(1000);
  }

  @Test
  void setRate_halfUsedBucket_keepsPermitsUsed() {
    Bucket bucket = Bucket.of(10, 4, ticker);
    assertThat(bucket.tryAcquire(2)).isTrue();
    bucket.setRate(100);
    assertThat(drain(bucket)).isEqualTo(2);
  }

  @Test
  void setRate_fullBucket_staysFullAtTheSameBurst() {
    Bucket bucket = Bucket.of(10, 4, ticker);
    bucket.setRate(5);
    bucket.setRate(50);
    assertThat(drain(bucket)).isEqualTo(4);
    ticker.advance(Duration.ofMillis(20));
    assertThat(drain(bucket)).isEqualTo(1);
  }

  @Test
  void setRate_repeatedly_neverHandsOutMoreThanTheBurst() {
    Bucket bucket = Bucket.of(10, 3, ticker);
    drain(bucket);
    for (int i = 0; i < 100; i++) {
      bucket.setRate(i % 2 == 0 ? 1e6 : 0.5);
      assertThat(bucket.tryAcquire()).as("after change %d", i).isFalse();
    }
  }

  @Test
  void of_extremeRates_workWithoutOverflow() {
    Bucket slow = Bucket.of(0.001, 1, ticker);
    assertThat(slow.tryAcquire()).isTrue();
    ticker.advance(Duration.ofSeconds(999));
    assertThat(slow.tryAcquire()).isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(slow.tryAcquire()).isTrue();

    Bucket fast = Bucket.of(1e9, 1000, ticker);
    assertThat(drain(fast)).isEqualTo(1000);
    ticker.advanceNanos(1000);
    assertThat(drain(fast)).isEqualTo(1000);
  }

  @Test
  void of_badArguments_throwNamingTheValue() {
    assertThatThrownBy(() -> TokenBucket.of(0, 1)).hasMessageContaining("but was 0.0");
    assertThatThrownBy(() -> TokenBucket.of(Double.NaN, 1)).hasMessageContaining("NaN");
    assertThatThrownBy(() -> TokenBucket.of(2e9, 1)).hasMessageContaining("2.0E9");
    assertThatThrownBy(() -> TokenBucket.of(10, 0)).hasMessageContaining("burst must be at least 1");
    assertThatThrownBy(() -> TokenBucket.of(0.001, Integer.MAX_VALUE))
        .hasMessageContaining("spans too long");
    Bucket bucket = Bucket.of(10, 2, ticker);
    assertThatThrownBy(() -> bucket.tryAcquire(3)).hasMessageContaining("but was 3");
    assertThatThrownBy(() -> bucket.tryAcquire(0)).hasMessageContaining("but was 0");
  }

  /**
   * Issue 10, item 4: at 0.001/s each forced permit pushes the state 2e12 half-nanoseconds ahead,
   * so about 4.6 million of them used to wrap the state past {@code Long.MAX_VALUE} and the next
   * call was admitted. The debt is capped instead.
   */
  @Test
  void forceAcquire_millionsAtTheSlowestRate_neverWrapsIntoAdmitting() {
    Bucket bucket = Bucket.of(0.001, 1000, ticker);
    assertThat(drain(bucket)).isEqualTo(1000);
    for (int i = 0; i < 5_000; i++) {
      bucket.forceAcquire(1000); // 5 million forced permits
    }
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofDays(365));
    assertThat(bucket.tryAcquire()).isFalse();
    assertThat(Duration.ofNanos(bucket.nanosUntilAvailable(1)))
        .as("about 18 years, less the year gone by").isBetween(Duration.ofDays(365 * 17 - 1),
            Duration.ofDays(365 * 18 + 5));
  }

  /**
   * Issue 10, item 4: a debt of millions of permits at a fast rate, converted to a slow one,
   * overflowed the cast to {@code long} and saturated to {@code Long.MIN_VALUE}: a full bucket.
   */
  @Test
  void setRate_hugeDebtThenSlowRate_staysInDebt() {
    Bucket bucket = Bucket.of(1e9, 1000, ticker);
    for (int i = 0; i < 5_000; i++) {
      bucket.forceAcquire(1000); // 5 million permits of debt: 5 ms at 10^9/s
    }
    bucket.setRate(0.001);
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofDays(365));
    assertThat(bucket.tryAcquire()).isFalse();
    bucket.setRate(1e9); // the debt converts back, whole
    assertThat(bucket.tryAcquire()).isFalse();
  }

  /**
   * Issue 20, item 8: the debt must not wrap whatever the number of forced permits: one at a
   * time at 0.001/s (2e12 half-nanoseconds each), past the points where an unbounded sum would
   * cross 2^62, 2^63 and 2^64, and far beyond; the next call is refused each time.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(longs = {2_306_000L, 4_612_000L, 4_700_000L,
      9_224_000L, 30_000_000L})
  void forceAcquire_oneAtATimePast2To62And63AndBeyond_theNextCallIsRefused(long forced) {
    Bucket bucket = Bucket.of(0.001, 1, ticker);
    for (long i = 0; i < forced; i++) {
      bucket.forceAcquire(1);
    }
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofDays(365));
    assertThat(bucket.tryAcquire()).isFalse();
    assertThat(Duration.ofNanos(bucket.nanosUntilAvailable(1)))
        .isBetween(Duration.ofDays(365 * 17 - 1), Duration.ofDays(365 * 18 + 5));
  }

  @Test
  void forceAcquire_atTheCap_neverMovesTheDebtBack() {
    Bucket bucket = Bucket.of(0.001, 1000, ticker);
    for (int i = 0; i < 600; i++) {
      bucket.forceAcquire(1000); // past the cap
    }
    long atCap = bucket.nanosUntilAvailable(1);
    bucket.forceAcquire(1);
    assertThat(bucket.nanosUntilAvailable(1)).isEqualTo(atCap);
  }

  /** The interval is whole nanoseconds, rounded up: 9.99e8/s is a 2 ns interval. */
  @Test
  void of_rateJustBelowOnePerNanosecond_admitsHalfOfIt() {
    Bucket bucket = Bucket.of(9.99e8, 1000, ticker);
    drain(bucket);
    ticker.advanceNanos(1000);
    assertThat(drain(bucket)).isEqualTo(500);
  }

  @Test
  void setRateAndBurst_fullBucket_shrinksToTheNewBurst() {
    Bucket bucket = Bucket.of(500, 50, ticker);
    bucket.setRate(4, 1);
    assertThat(bucket.burst()).isEqualTo(1);
    assertThat(drain(bucket)).isEqualTo(1);
  }

  @Test
  void setRateAndBurst_burstGrows_handsOutNoFreshPermits() {
    Bucket bucket = Bucket.of(10, 5, ticker);
    assertThat(bucket.tryAcquire(3)).isTrue(); // 2 left
    bucket.setRate(100, 10);
    assertThat(drain(bucket)).isEqualTo(2);
    ticker.advance(Duration.ofSeconds(1)); // refills to the new burst in time, not at once
    assertThat(drain(bucket)).isEqualTo(10);
  }

  @Test
  void setRateAndBurst_inDebt_keepsTheDebt() {
    Bucket bucket = Bucket.of(10, 5, ticker);
    drain(bucket);
    bucket.forceAcquire(3); // 3 permits owed: 300 ms at 10/s
    bucket.setRate(100, 1); // 30 ms at 100/s, then the one permit of the new burst
    ticker.advance(Duration.ofMillis(39));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(bucket.tryAcquire()).isTrue();
  }

  @Test
  void setRateAndBurst_zero_admitsNothingAndLeavesEmpty() {
    Bucket bucket = Bucket.of(10, 5, ticker);
    bucket.setRate(0, 5);
    assertThat(bucket.permitsPerSecond()).isZero();
    assertThat(bucket.burst()).isZero();
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofDays(30));
    assertThat(bucket.tryAcquire()).isFalse();
    bucket.forceAcquire(1); // an admitted transaction is still charged
    bucket.setRate(10, 5);
    assertThat(bucket.tryAcquire()).as("no fresh burst on leaving").isFalse();
    ticker.advance(Duration.ofMillis(100));
    assertThat(bucket.tryAcquire()).isFalse(); // the forced permit (1000 s) is still owed
  }

  @Test
  void setRateAndBurst_outOfRange_changesNothing() {
    Bucket bucket = Bucket.of(10, 5, ticker);
    assertThatThrownBy(() -> bucket.setRate(0.0005, 1)).hasMessageContaining("5.0E-4");
    assertThatThrownBy(() -> bucket.setRate(0.001, 1_000_000))
        .hasMessageContaining("at most " + Bucket.maxBurst(0.001));
    assertThat(bucket.permitsPerSecond()).isEqualTo(10);
    assertThat(drain(bucket)).isEqualTo(5);
  }

  @Test
  void maxBurst_isAbout18YearsOfTheRate() {
    assertThat(Bucket.maxBurst(0.001)).isEqualTo(576_460);
    assertThat(Bucket.maxBurst(1)).isEqualTo(576_460_752);
    assertThat(Bucket.maxBurst(10)).isEqualTo(Integer.MAX_VALUE);
  }

  private static int drain(Bucket bucket) {
    int taken = 0;
    while (bucket.tryAcquire()) {
      taken++;
    }
    return taken;
  }
}
