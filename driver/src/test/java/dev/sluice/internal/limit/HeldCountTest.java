package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 4, on a fake clock: a newcomer that reads itself alone, and the last instance
 * when the others stop, never take the whole budget on one read of the registry.
 */
class HeldCountTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(7 * SECOND);

  private HeldCount count(int assumed) {
    return new HeldCount("t", assumed, Duration.ofSeconds(5), now::get);
  }

  private void advance(double seconds) {
    now.addAndGet((long) (seconds * SECOND));
  }

  @Test
  void divisor_newcomerReadsItselfAlone_dividesByTheAssumedUntilConfirmed() {
    HeldCount count = count(2);
    assertThat(count.divisor(1)).isEqualTo(2);
    advance(4.999);
    assertThat(count.divisor(1)).isEqualTo(2);
    advance(0.001);
    assertThat(count.divisor(1)).as("alone for one expiry: alone indeed").isEqualTo(1);
  }

  @Test
  void divisor_secondInstanceJoinsWithinTheWindow_neverAboveHalf() {
    HeldCount first = count(2);
    assertThat(first.divisor(1)).isEqualTo(2);
    advance(1);
    assertThat(first.divisor(2)).isEqualTo(2);
    advance(10);
    assertThat(first.divisor(2)).isEqualTo(2);
  }

  @Test
  void divisor_theOthersStop_theLastGrowsOnlyOnceConfirmed() {
    HeldCount count = count(2);
    assertThat(count.divisor(3)).isEqualTo(3);
    advance(1);
    assertThat(count.divisor(1)).as("budget / assumed, not the whole").isEqualTo(2);
    advance(3);
    assertThat(count.divisor(2)).isEqualTo(2);
    advance(2); // five seconds below 3, never back to it
    assertThat(count.divisor(1)).isEqualTo(1);
  }

  @Test
  void divisor_assumedAboveTheFleet_neverShrinksAShareOnAFall() {
    HeldCount count = count(10);
    assertThat(count.divisor(2)).isEqualTo(10); // joined: the assumed count until confirmed
    advance(5);
    assertThat(count.divisor(2)).isEqualTo(2);
    advance(1);
    assertThat(count.divisor(1)).as("held at the count in force, not raised to 10")
        .isEqualTo(2);
    advance(5);
    assertThat(count.divisor(1)).isEqualTo(1);
  }

  @Test
  void divisor_aFallAboveTheAssumed_appliesAtOnce_andARiseToo() {
    HeldCount count = count(2);
    assertThat(count.divisor(4)).isEqualTo(4);
    advance(1);
    assertThat(count.divisor(3)).as("the larger of 3 and the assumed 2").isEqualTo(3);
    assertThat(count.divisor(5)).as("a rise applies at once").isEqualTo(5);
    assertThat(count.divisor(1)).as("a new fall: held at the assumed").isEqualTo(2);
  }
}
