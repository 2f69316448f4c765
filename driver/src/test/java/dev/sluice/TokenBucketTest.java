package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.limit.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private final FakeTicker ticker = new FakeTicker();

  @Test
  void of_newBucket_startsFullWithExactlyBurstPermits() {
    TokenBucket bucket = TokenBucket.of(10, 5, ticker);
    for (int i = 0; i < 5; i++) {
      assertThat(bucket.tryAcquire()).as("permit %d", i).isTrue();
    }
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_afterOneInterval_grantsExactlyOneMore() {
    TokenBucket bucket = TokenBucket.of(10, 1, ticker);
    assertThat(bucket.tryAcquire()).isTrue();
    ticker.advance(Duration.ofMillis(99));
    assertThat(bucket.tryAcquire()).isFalse();
    ticker.advance(Duration.ofMillis(1));
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_longIdle_refillsOnlyToBurst() {
    TokenBucket bucket = TokenBucket.of(1000, 3, ticker);
    ticker.advance(Duration.ofHours(5));
    int taken = drain(bucket);
    assertThat(taken).isEqualTo(3);
  }

  @Test
  void tryAcquire_rejected_takesNothing() {
    TokenBucket bucket = TokenBucket.of(10, 2, ticker);
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
    TokenBucket bucket = TokenBucket.of(10, 4, ticker);
    assertThat(bucket.tryAcquire(3)).isTrue();
    assertThat(bucket.tryAcquire(2)).isFalse();
    assertThat(bucket.tryAcquire(1)).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_tickerStandsStill_grantsNothingNew() {
    TokenBucket bucket = TokenBucket.of(1e6, 10, ticker);
    assertThat(drain(bucket)).isEqualTo(10);
    for (int i = 0; i < 10_000; i++) {
      assertThat(bucket.tryAcquire()).isFalse();
    }
  }

  @Test
  void tryAcquire_tickerStepsBack_grantsNothingExtra() {
    TokenBucket bucket = TokenBucket.of(10, 2, ticker);
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
    TokenBucket bucket = TokenBucket.of(10, 1, ticker);
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
    TokenBucket[] holder = new TokenBucket[1];
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
    TokenBucket bucket = TokenBucket.of(1, 1, racing);
    assertThat(bucket.tryAcquire()).as("the first permit, at the start").isTrue();
    holder[0] = bucket;

    assertThat(bucket.tryAcquire()).as("a stale reading after the later admission").isFalse();
    assertThat(raced[0]).isTrue();
  }

  @Test
  void tryAcquire_readsTheClockOncePerCall() {
    int[] reads = {0};
    TokenBucket bucket = TokenBucket.of(1000, 2, () -> {
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
    TokenBucket bucket = TokenBucket.of(10, 1, ticker);
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
    TokenBucket bucket = TokenBucket.of(10, 1, ticker);
    assertThat(bucket.nanosUntilAvailable(1)).isZero();
    bucket.tryAcquire();
    assertThat(bucket.nanosUntilAvailable(1)).isEqualTo(Duration.ofMillis(100).toNanos());
    ticker.advance(Duration.ofMillis(40));
    assertThat(bucket.nanosUntilAvailable(1)).isEqualTo(Duration.ofMillis(60).toNanos());
  }

  @Test
  void setRate_emptyBucket_staysEmptyNoFreshBurst() {
    TokenBucket bucket = TokenBucket.of(10, 5, ticker);
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
    TokenBucket bucket = TokenBucket.of(10, 4, ticker);
    assertThat(bucket.tryAcquire(2)).isTrue();
    bucket.setRate(100);
    assertThat(drain(bucket)).isEqualTo(2);
  }

  @Test
  void setRate_fullBucket_staysFullAtTheSameBurst() {
    TokenBucket bucket = TokenBucket.of(10, 4, ticker);
    bucket.setRate(5);
    bucket.setRate(50);
    assertThat(drain(bucket)).isEqualTo(4);
    ticker.advance(Duration.ofMillis(20));
    assertThat(drain(bucket)).isEqualTo(1);
  }

  @Test
  void setRate_repeatedly_neverHandsOutMoreThanTheBurst() {
    TokenBucket bucket = TokenBucket.of(10, 3, ticker);
    drain(bucket);
    for (int i = 0; i < 100; i++) {
      bucket.setRate(i % 2 == 0 ? 1e6 : 0.5);
      assertThat(bucket.tryAcquire()).as("after change %d", i).isFalse();
    }
  }

  @Test
  void of_extremeRates_workWithoutOverflow() {
    TokenBucket slow = TokenBucket.of(0.001, 1, ticker);
    assertThat(slow.tryAcquire()).isTrue();
    ticker.advance(Duration.ofSeconds(999));
    assertThat(slow.tryAcquire()).isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(slow.tryAcquire()).isTrue();

    TokenBucket fast = TokenBucket.of(1e9, 1000, ticker);
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
    TokenBucket bucket = TokenBucket.of(10, 2, ticker);
    assertThatThrownBy(() -> bucket.tryAcquire(3)).hasMessageContaining("but was 3");
    assertThatThrownBy(() -> bucket.tryAcquire(0)).hasMessageContaining("but was 0");
  }

  private static int drain(TokenBucket bucket) {
    int taken = 0;
    while (bucket.tryAcquire()) {
      taken++;
    }
    return taken;
  }
}
