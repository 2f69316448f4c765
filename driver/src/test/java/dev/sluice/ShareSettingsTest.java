package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, item 2: a budget or burst out of the bucket's range names the key, the range and the
 * value the user typed. It used to say {@code permitsPerSecond must be a number from 0.001 to
 * 1.0E9, but was 5.0E-4}: neither key nor value the user knew.
 */
class ShareSettingsTest {

  private static RateLimitedDataSource build(String... keysAndValues) {
    Properties p = new Properties();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
    }
    return RateLimitedDataSource.builder(ObservabilityFixtures.stubDataSource()).properties(p)
        .build();
  }

  @Test
  void budget_tooLargeForOneInstance_namesKeyRangeAndTypedValue() {
    assertThatThrownBy(() -> build("sluice.budget", "1e18"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.budget must be from 0.001 to 1000000000 permits/s, but was \"1e18\"");
  }

  @Test
  void budget_tooSmall_namesKeyRangeAndTypedValue() {
    assertThatThrownBy(() -> build("sluice.budget", "1e-4"))
        .hasMessage("sluice.budget must be from 0.001 to 1000000000 permits/s, but was \"1e-4\"");
  }

  @Test
  void budget_tooSmallOverTenInstances_namesTheCountAndTheShare() {
    assertThatThrownBy(() -> build("sluice.budget", "0.005", "sluice.instances", "10"))
        .hasMessage("sluice.budget must be from 0.01 to 10000000000 permits/s with"
            + " sluice.instances=10 (each instance's share, budget / 10, must be from 0.001 to"
            + " 1000000000 permits/s), but was \"0.005\"");
  }

  @Test
  void budget_tooSmallForTheAssumedCount_namesTheAssumedCount() {
    assertThatThrownBy(() -> build("sluice.budget", "0.005", "sluice.instances", "redis",
        "sluice.redis", "redis://127.0.0.1:1"))
        .hasMessageStartingWith("sluice.budget must be from 0.01 to 10000000000 permits/s with"
            + " sluice.instances.assumed=10 (the count until the registry answers)")
        .hasMessageEndingWith("but was \"0.005\"");
  }

  @Test
  void burst_hugeAtATinyShare_namesKeyLimitAndTypedValue() {
    assertThatThrownBy(() -> build("sluice.budget", "0.001", "sluice.burst", "1000000"))
        .hasMessage("sluice.burst must be at most 576460 at this instance's share of 0.001"
            + " permits/s (a burst may span at most about 18 years of the share), but was"
            + " \"1000000\"");
  }

  @Test
  void budget_inRange_builds() throws Exception {
    try (RateLimitedDataSource ds = build("sluice.budget", "0.01", "sluice.instances", "10",
        "sluice.burst", "576460")) {
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(0.001);
    }
  }
}
