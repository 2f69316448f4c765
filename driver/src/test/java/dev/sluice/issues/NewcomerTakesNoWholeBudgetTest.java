package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import dev.sluice.testing.Await;
import dev.sluice.testing.LogTap;
import dev.sluice.testing.StubDataSource;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 4, on a real Redis with two instances in one JVM: at start the first instance
 * admitted the whole budget for about a second ("1 instances share the budget of 70 … admits
 * 70/s") although {@code sluice.instances.assumed=2}, and the last one did the same when the other
 * stopped. Until the registry's count is confirmed (one {@code sluice.instances.expiry}), an
 * instance's share is the budget divided by the larger of the assumed and the live count.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class NewcomerTakesNoWholeBudgetTest {
  private static final double BUDGET = 70;
  private static final Duration EXPIRY = Duration.ofSeconds(3);
  private static final Duration SLACK = Duration.ofSeconds(3);

  private static TestRedis redis;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  private static RateLimitedDataSource instance(String name) {
    Properties p = new Properties();
    p.setProperty("sluice.name", name);
    p.setProperty("sluice.budget", Double.toString(BUDGET));
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.redis.timeout", "1s"); // patient: about shares, not timeouts
    p.setProperty("sluice.instances", "redis");
    p.setProperty("sluice.instances.assumed", "2");
    p.setProperty("sluice.redis.heartbeat", "100ms");
    p.setProperty("sluice.instances.expiry", EXPIRY.toMillis() + "ms");
    return RateLimitedDataSource.builder(new StubDataSource()).properties(p)
        .scope(Scope.CONNECTION).build();
  }

  @Test
  void firstInstance_alone_takesBudgetOverAssumed_untilConfirmed_andTheLastOneToo()
      throws Exception {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    try (RateLimitedDataSource first = instance(name)) {
      assertThat(first.stats().liveInstances()).isEqualTo(1); // read: it is alone
      Await.during("the newcomer keeps budget / assumed", Duration.ofMillis(1_000),
          () -> first.stats().permitsPerSecond() == BUDGET / 2);

      RateLimitedDataSource second = instance(name);
      Await.until("both at half", SLACK, () -> first.stats().permitsPerSecond() == BUDGET / 2
          && second.stats().permitsPerSecond() == BUDGET / 2
          && first.stats().liveInstances() == 2);
      second.close();
      Await.until("the first reads itself alone", SLACK,
          () -> first.stats().liveInstances() == 1);
      assertThat(first.stats().permitsPerSecond()).as("not the whole budget on one read")
          .isEqualTo(BUDGET / 2);
      Await.until("the whole budget once alone for an expiry", EXPIRY.plus(SLACK),
          () -> first.stats().permitsPerSecond() == BUDGET);
    }
  }

  /** Issue 36, item 6: the line at build said "budget 70 permits/s over redis instance(s)". */
  @Test
  void builtLine_namesTheCountItDividesBy_notTheWordRedis() throws Exception {
    String name = "t-" + UUID.randomUUID().toString().substring(0, 8);
    try (LogTap log = LogTap.open(); RateLimitedDataSource ds = instance(name)) {
      assertThat(log.lines("INFO", "Sluice limiter built")).singleElement().asString()
          .contains("budget 70 permits/s divided by 2 instance(s) for now (the live count in"
              + " Redis, sluice.instances=redis), this instance admits 35/s")
          .doesNotContain("over redis");
    }
  }
}
