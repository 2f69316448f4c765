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
}
