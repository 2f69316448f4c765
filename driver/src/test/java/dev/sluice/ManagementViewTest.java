package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@link RateLimitedDataSource#management()}: the MXBean's view and operations, without JMX. */
class ManagementViewTest {

  @Test
  void management_jmxOff_stillTripsAndChangesTheBudget() throws Exception {
    Properties props = new Properties();
    props.setProperty("sluice.jmx", "false");
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mgmt-view").budget(100).instances(4)
        .breakerFlag(flag).properties(props).build()) {
      RateLimitedDataSourceMXBean management = ds.management();

      management.tripFlag();
      management.setBudget(200);

      assertThat(flag.isOpen()).isTrue();
      assertThat(ds.stats().limiting()).isTrue();
      assertThat(ds.stats().budget()).isEqualTo(200);
      assertThat(management.getPermitsPerSecond()).isEqualTo(50);
      assertThat(management.getName()).isEqualTo("mgmt-view");
    }
  }

  @Test
  void management_badBudget_namesTheKey() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mgmt-bad").budget(100).build()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ds.management().setBudget(-5));

      assertThat(e).hasMessageStartingWith("sluice.budget must be a positive number");
    }
  }
}
