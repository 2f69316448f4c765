package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The demand windows of a recovery, on explicit ticker readings. */
class RecoveryTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long SETTLE = 5 * SECOND;
  private static final long ORIGIN = 7 * SECOND;

  private static Recovery recovery() {
    Recovery recovery = new Recovery(Duration.ofNanos(SETTLE), 0.8);
    recovery.begin(ORIGIN);
    return recovery;
  }

  @Test
  void settled_noDemand_exactlyOneSettleAfterTheStart() {
    Recovery recovery = recovery();
    assertThat(recovery.settled(ORIGIN + SETTLE - 1)).isFalse();
    assertThat(recovery.settled(ORIGIN + SETTLE)).isTrue();
  }

  @Test
  void count_aboveTheThresholdInOneSecond_settleRunsFromTheLastLoudCall() {
    Recovery recovery = recovery();
    for (int i = 0; i < 9; i++) { // 9 > 0.8 x 10: the ninth is loud
      recovery.count(ORIGIN + i * 100_000_000L, 10);
    }
    long ninth = ORIGIN + 800_000_000L;
    assertThat(recovery.settled(ninth + SETTLE - 1)).isFalse();
    assertThat(recovery.settled(ninth + SETTLE)).isTrue();
  }

  @Test
  void count_nextSecond_startsAFreshCount() {
    Recovery recovery = recovery();
    for (int s = 0; s < 2; s++) {
      for (int i = 0; i < 8; i++) { // 8 a second, each second: at the threshold, never loud
        recovery.count(ORIGIN + s * SECOND + i * 100_000_000L, 10);
      }
    }
    assertThat(recovery.settled(ORIGIN + SETTLE)).isTrue();
  }

  @Test
  void count_readingFromBeforeTheStart_neverMovesTheQuietMoment() {
    Recovery recovery = recovery();
    for (int i = 0; i < 20; i++) {
      recovery.count(ORIGIN - SECOND, 10); // a call delayed from an earlier recovery
    }
    assertThat(recovery.settled(ORIGIN + SETTLE)).isTrue();
  }

  @Test
  void disabled_whenTheSettleIsZero() {
    assertThat(new Recovery(Duration.ZERO, 0.8).enabled()).isFalse();
    assertThat(recovery().enabled()).isTrue();
  }

  /**
   * Eight threads count 16,000 calls into one second whose limit is exactly 16,000 (threshold 1):
   * none is loud if none was counted twice, and the next one is loud only if none was lost.
   */
  @Test
  void count_eightThreadsInOneSecond_countEveryCallExactlyOnce() throws Exception {
    Recovery recovery = new Recovery(Duration.ofNanos(SETTLE), 1.0);
    recovery.begin(ORIGIN);
    int threads = 8;
    int each = 2_000;
    double share = threads * each;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        for (int i = 0; i < each; i++) {
          recovery.count(ORIGIN + 100_000_000L, share);
        }
      });
      worker.start();
      workers.add(worker);
    }
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    assertThat(recovery.settled(ORIGIN + SETTLE)).as("no call counted twice").isTrue();
    recovery.count(ORIGIN + 200_000_000L, share);
    assertThat(recovery.settled(ORIGIN + SETTLE)).as("no call lost").isFalse();
    assertThat(recovery.settled(ORIGIN + 200_000_000L + SETTLE)).isTrue();
  }

  /**
   * Issue 20, item 7: share 1/s, threshold 0.8, settle 3 s: one call every 2 s (0.5/s, below
   * the threshold) kept the recovery going forever, as one second's whole count (1) was compared
   * with 0.8.
   */
  @Test
  void count_oneCallEveryTwoSecondsAtAShareOfOne_settles() {
    Recovery recovery = new Recovery(Duration.ofSeconds(3), 0.8);
    recovery.begin(ORIGIN);
    long settledAt = -1;
    for (long t = ORIGIN + SECOND / 3; t < ORIGIN + 60 * SECOND; t += 2 * SECOND) {
      recovery.count(t, 1);
      if (settledAt < 0 && recovery.settled(t)) {
        settledAt = t;
      }
    }
    assertThat(settledAt).as("settled within 60 s").isPositive();
    assertThat(settledAt - ORIGIN).as("the first call after one settle").isLessThanOrEqualTo(5 * SECOND);
  }

  /** The other side: at the same small share, a rate above the threshold stays loud. */
  @Test
  void count_aboveTheThresholdAtAShareOfOne_staysLoud() {
    Recovery recovery = new Recovery(Duration.ofSeconds(3), 0.8);
    recovery.begin(ORIGIN);
    for (long t = ORIGIN; t < ORIGIN + 60 * SECOND; t += SECOND * 9 / 10) { // 1.11/s
      recovery.count(t, 1);
      assertThat(recovery.quiet(t)).as("at %d ms", (t - ORIGIN) / 1_000_000).isFalse();
    }
  }

  /** {@code n} calls spread over the second that starts at {@code start}. */
  private static void second(Recovery recovery, long start, int n, double share) {
    for (int i = 0; i < n; i++) {
      recovery.count(start + i * SECOND / n, share);
    }
  }

  /** Issue 36, item 1: demand back at its everyday level within the share settles the hold. */
  @Test
  void steady_demandStopsFallingWithinTheShare_settlesOneSettleAfterTheLastFall() {
    Recovery recovery = recovery();
    int[] demand = {20, 14, 10, 9, 9, 10, 9, 9, 9, 9, 9};
    for (int s = 0; s < demand.length; s++) {
      second(recovery, ORIGIN + s * SECOND, demand[s], 10);
      boolean expected = s + 1 >= 3 + 5; // the window of 10 fell last: counted when it ended, at 3 s
      assertThat(recovery.settled(ORIGIN + (s + 1) * SECOND - 1)).as("second %d", s)
          .isEqualTo(s + 1 > 8 && expected);
    }
    assertThat(recovery.quiet(ORIGIN + 11 * SECOND)).as("9 > 0.8 x 10: never quiet").isFalse();
    assertThat(recovery.level()).isEqualTo(10.0);
    assertThat(recovery.steadyAbove(ORIGIN + 11 * SECOND)).isFalse();
  }

  @Test
  void steady_demandStopsFallingAboveTheShare_neverSettles_andSaysSo() {
    Recovery recovery = recovery();
    second(recovery, ORIGIN, 30, 10);
    for (int s = 1; s < 20; s++) {
      second(recovery, ORIGIN + s * SECOND, 12, 10);
    }
    long now = ORIGIN + 20 * SECOND;
    assertThat(recovery.settled(now)).isFalse();
    assertThat(recovery.steadyAbove(now)).isTrue();
    assertThat(recovery.level()).isEqualTo(12.0);
  }

  @Test
  void steady_anEmptySecond_isAFall() {
    Recovery recovery = recovery();
    second(recovery, ORIGIN, 12, 10);
    second(recovery, ORIGIN + 3 * SECOND, 12, 10); // seconds 1 and 2 had no call
    assertThat(recovery.level()).isZero();
  }

  /** At 0.001/s and threshold 0.5 the windows are 2^11 s: one call in each is quiet. */
  @Test
  void count_slowestShare_oneCallPerWindowIsQuiet_twoAreLoud() {
    assertThat(Recovery.levelOf(0.8)).isEqualTo(1);
    assertThat(Recovery.levelOf(0.5)).isEqualTo(1);
    assertThat(Recovery.levelOf(0.3)).isEqualTo(2);
    assertThat(Recovery.levelOf(0.0005)).isEqualTo(11);
    assertThat(Recovery.levelOf(0)).isEqualTo(Recovery.MAX_LEVEL);
    Recovery recovery = new Recovery(Duration.ofSeconds(3), 0.5);
    recovery.begin(ORIGIN);
    recovery.count(ORIGIN + SECOND, 0.001);
    assertThat(recovery.settled(ORIGIN + 3 * SECOND)).isTrue();
    recovery.count(ORIGIN + 2 * SECOND, 0.001);
    assertThat(recovery.settled(ORIGIN + 2 * SECOND + 3 * SECOND - 1)).isFalse();
  }
}
