package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.testing.LogTap;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 11: the limiter's own lines say what is true. Shadow mode limits nothing, so
 * it never says "limiting the database" or "the database is held to"; the first summary after a
 * switch of mode does not add the other mode's calls to its count; a count of one is "1 call".
 * On a fake clock: a bucket of 1 permit, a summary every second.
 */
class LimiterLogWordingTest {
  private static final Connection AUTO = LimiterRecoveryTest.AUTO_COMMITTING;
  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();

  private Limiter limiter(String name, Mode mode) {
    Settings settings = Settings.empty().with(Keys.NAME, name).with(Keys.BUDGET, 1.0)
        .with(Keys.MODE, mode).with(Keys.SUMMARY_INTERVAL, Duration.ofSeconds(1))
        .with(Keys.RECOVERY_SETTLE, Duration.ZERO);
    return new Limiter(name,
        Enforcer.limitSettings(settings), Bucket.of(1, 1, ticker), flag, 1, false, ticker,
        Priority.OF_CODE);
  }

  @Test
  void shadowMode_neverSaysTheDatabaseIsLimited() throws Exception {
    try (LogTap log = LogTap.open()) {
      Limiter limiter = limiter("words-shadow", Mode.SHADOW);
      flag.trip();
      limiter.beforeStatement(ConnectionState.initial(true), AUTO); // the permit
      limiter.beforeStatement(ConnectionState.initial(true), AUTO); // would be refused
      ticker.advance(Duration.ofMillis(1500));
      limiter.beforeStatement(ConnectionState.initial(true), AUTO); // the permit, refilled
      limiter.beforeStatement(ConnectionState.initial(true), AUTO); // would be refused: summary

      List<String> lines = log.lines("WARN", "words-shadow");
      assertThat(lines).isNotEmpty().noneMatch(line -> line.contains("limiting the database"))
          .noneMatch(line -> line.contains("held to"));
      assertThat(lines).anyMatch(line -> line.contains("flag is open: shadow mode: nothing is"
          + " refused; counting the calls that a limit of 1 permits/s"));
      assertThat(lines).anyMatch(line -> line.contains(
          "shadow mode: would have rejected 2 calls in the last")
          && line.contains("nothing was refused; the limit tried is 1 permits/s"));
    }
  }

  @Test
  void firstSummaryAfterShadowToEnforce_countsEachModeApart_andOneIsOneCall() throws Exception {
    try (LogTap log = LogTap.open()) {
      Limiter limiter = limiter("words-switch", Mode.SHADOW);
      flag.trip();
      limiter.beforeStatement(ConnectionState.initial(true), AUTO);
      for (int i = 0; i < 12; i++) {
        limiter.beforeStatement(ConnectionState.initial(true), AUTO); // shadow-rejected
      }
      limiter.counts().setShadow(false, "a test");
      ticker.advance(Duration.ofMillis(1500));
      limiter.beforeStatement(ConnectionState.initial(true), AUTO); // the permit, refilled
      assertThatThrownBy(() -> limiter.beforeStatement(ConnectionState.initial(true), AUTO))
          .isInstanceOf(RateLimitExceededException.class); // the one refusal: summary

      assertThat(log.lines("WARN", "words-switch - rejected")).singleElement()
          .satisfies(line -> assertThat(line).contains("rejected 1 call in the last",
              "and would have rejected 12 calls in shadow mode before the switch to enforce",
              "the database is held to 1 permits/s"));
      flag.reset();
      limiter.isLimiting();
      assertThat(log.lines("WARN", "words-switch - the cache breaker flag is closed"))
          .singleElement().satisfies(line -> assertThat(line).contains(
              "stopped limiting; 0 calls rejected since the last summary"));
    }
  }
}
