package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.FakeTicker;
import dev.sluice.Priority;
import dev.sluice.Scope;
import dev.sluice.internal.config.ConcurrencyCap;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, item 3, as the limiter drives the cap: {@code sluice.concurrency=auto},
 * {@code max=64}, a pool of 32 (never more in flight), a database whose latency grows with what
 * is in flight past 4. The cap comes down from what is in flight, and the log says once, with the
 * figures, that the maximum is above what ran. On a fake clock.
 */
class ConcurrencyMaxAbovePoolTest {
  private static final String SQL = "select * from t where id = ?";
  private final FakeTicker ticker = new FakeTicker();

  @Test
  void maxAboveThePool_theCapComesDownAndTheLogSaysSoOnce() {
    LimitSettings settings = new LimitSettings(100, 0, Scope.STATEMENT, false, false,
        Duration.ofSeconds(10), false, Duration.ZERO, 0.8, ConcurrencyCap.AUTO, 0.0, 1, 64);
    Concurrency cap = Concurrency.of("pool-of-32", settings, 1, ticker);

    String log = stderrOf(() -> {
      traffic(cap, 2, Duration.ofSeconds(5)); // light: the baselines are learned
      traffic(cap, 32, Duration.ofSeconds(5)); // the pool, full
    });

    assertThat(cap.limit()).as("the cap followed what was in flight").isLessThan(16);
    String line = "sluice.concurrency.max is 64, but at most ";
    assertThat(log).contains("pool-of-32 - " + line);
    assertThat(log.indexOf(line)).as("once").isEqualTo(log.lastIndexOf(line));
    assertThat(log).containsPattern("at most 3[0-2] statements ran at once")
        .contains("latency was 4.0x its uncrowded value");
  }

  /**
   * Each millisecond up to {@code callers} statements start (as many as the cap admits), all in
   * flight together, each 1 ms alone and {@code max(1, inFlight / 4)} ms crowded; then they end.
   */
  private void traffic(Concurrency cap, int callers, Duration duration) {
    long[] starts = new long[callers];
    for (long ms = 0; ms < duration.toMillis(); ms++) {
      int admitted = 0;
      while (admitted < callers && cap.tryAcquire(Priority.NORMAL)) {
        starts[admitted++] = cap.startNanos();
      }
      long latency = (long) (1_000_000 * Math.max(1, admitted / 4.0));
      ticker.advanceNanos(latency);
      for (int i = 0; i < admitted; i++) {
        cap.release(true, true, starts[i], SQL, null);
      }
      ticker.advanceNanos(Math.max(0, 1_000_000 - latency));
    }
  }

  private static String stderrOf(Runnable action) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
