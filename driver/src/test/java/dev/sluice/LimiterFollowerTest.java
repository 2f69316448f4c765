package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.Limiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who follows limiting (answers, in the product) hears "started" and "stopped" from the
 * limiter's recovery hold alone, once per change, on a fake ticker: when the flag opens, or at
 * the first refusal with no breaker flag; never in shadow mode; and a stop that lands while a
 * start is being told is told again after it, so the follower's last word is the one that holds.
 */
class LimiterFollowerTest {
  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual manual = BreakerFlag.manual();
  private final List<String> heard = new ArrayList<>();

  private Limiter limiter(BreakerFlag flag, Mode mode) {
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 1.0)
        .with(Keys.MODE, mode).with(Keys.RECOVERY_SETTLE, Duration.ZERO);
    Limiter limiter = new Limiter("users-db", Enforcer.limitSettings(settings),
        Bucket.of(1, 1, ticker), flag, 1, false, ticker, Priority.OF_CODE);
    limiter.follow(() -> heard.add("started"), () -> heard.add("stopped"), () -> "");
    return limiter;
  }

  private static boolean refused(Limiter limiter) {
    try {
      Doors.admit(limiter);
      return false;
    } catch (RateLimitExceededException e) {
      return true;
    }
  }

  @Test
  void theFlagOpening_isToldOnce_andItsClosingOnce_whateverTheCallsAndRefusals() {
    Limiter limiter = limiter(manual, Mode.ENFORCE);
    assertThat(limiter.isLimiting()).isFalse();
    assertThat(heard).as("nothing while the flag stays closed").isEmpty();

    manual.trip();
    assertThat(refused(limiter)).as("the burst's permit").isFalse();
    assertThat(refused(limiter)).isTrue();
    assertThat(refused(limiter)).isTrue();
    assertThat(heard).containsExactly("started");

    manual.reset();
    assertThat(limiter.isLimiting()).isFalse();
    assertThat(limiter.isLimiting()).isFalse();
    manual.trip();
    assertThat(refused(limiter)).isTrue();
    assertThat(heard).containsExactly("started", "stopped", "started");
  }

  @Test
  void withNoBreakerFlag_theFirstRefusalStartsIt_notTheFirstCall() {
    Limiter limiter = limiter(BreakerFlag.alwaysOpen(), Mode.ENFORCE);
    assertThat(refused(limiter)).as("the burst's permit").isFalse();
    assertThat(heard).as("limiting, but nothing refused yet").isEmpty();

    assertThat(refused(limiter)).isTrue();
    assertThat(refused(limiter)).isTrue();
    assertThat(heard).containsExactly("started");
  }

  @Test
  void inShadowMode_nothingIsStarted() {
    Limiter limiter = limiter(manual, Mode.SHADOW);
    manual.trip();
    for (int i = 0; i < 3; i++) {
      assertThat(refused(limiter)).as("shadow mode refuses nothing").isFalse();
    }
    assertThat(limiter.counts().shadowRejected()).isEqualTo(2);
    manual.reset();
    assertThat(limiter.isLimiting()).isFalse();
    assertThat(heard).as("a stop is told whatever the mode; no start was").containsExactly(
        "stopped");
  }

  /**
   * The flag closes while the start is being told: the follower's start lands after the stop
   * (here the start's own work closes the flag and sees it closed first). The hold tells the stop
   * again after it; without that the follower would go on recording while nothing limits.
   */
  @Test
  void aStopThatLandsWhileTheStartIsTold_isToldAgainAfterIt() {
    List<Limiter> built = new ArrayList<>();
    Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, 1.0)
        .with(Keys.RECOVERY_SETTLE, Duration.ZERO);
    Limiter limiter = new Limiter("users-db", Enforcer.limitSettings(settings),
        Bucket.of(1, 1, ticker), manual, 1, false, ticker, Priority.OF_CODE);
    built.add(limiter);
    limiter.follow(() -> {
      manual.reset();
      assertThat(built.get(0).isLimiting()).as("the stop, seen first").isFalse();
      heard.add("started");
    }, () -> heard.add("stopped"), () -> "");

    manual.trip();
    limiter.isLimiting();
    assertThat(heard).containsExactly("stopped", "started", "stopped");
  }

  @Test
  void closingTheBudget_tellsTheStop() {
    Limiter limiter = limiter(manual, Mode.ENFORCE);
    manual.trip();
    assertThat(limiter.isLimiting()).isTrue();
    limiter.stop();
    assertThat(heard).containsExactly("started", "stopped");
    assertThat(refused(limiter)).as("a closed budget refuses nothing").isFalse();
    assertThat(heard).containsExactly("started", "stopped");
  }
}
