package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StubDataSource;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code sluice.recovery.*}: what is accepted, and bad input named with its value at build time. */
class RecoverySettingsTest {
  private static final String SETTLE = "sluice.recovery.settle must be 0 or a positive duration"
      + " such as `250ms`, `30s`, `1m` or `PT30S`, but was ";
  private static final String THRESHOLD = "sluice.recovery.threshold must be a number greater"
      + " than 0 and at most 1, but was ";

  private static Properties settings(String key, String value) {
    Properties p = new Properties();
    p.setProperty("sluice.budget", "100");
    p.setProperty(key, value);
    return p;
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "sluice.recovery.settle|-1s", "sluice.recovery.settle|-PT1S",
      "sluice.recovery.settle|soon", "sluice.recovery.settle|30", "sluice.recovery.settle|1.5s",
      "sluice.recovery.settle|99999999999h",
      "sluice.recovery.threshold|0", "sluice.recovery.threshold|-0.5",
      "sluice.recovery.threshold|1.01", "sluice.recovery.threshold|NaN",
      "sluice.recovery.threshold|most", "sluice.recovery.threshold|0.8d",
  })
  void properties_badValue_namesTheKeyAndTheValue(String key, String value) {
    String message = (key.endsWith("settle") ? SETTLE : THRESHOLD) + "\"" + value + "\"";
    assertThatThrownBy(() -> RateLimitedDataSource.builder(new StubDataSource())
        .properties(settings(key, value)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void driverUrl_badValue_namesTheKeyAndTheValue() {
    SluiceDriver driver = new SluiceDriver();
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:rs;sluice.budget=5;"
        + "sluice.recovery.threshold=2", null))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(THRESHOLD + "\"2\"");
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:rs;sluice.budget=5;"
        + "sluice.recovery.settle=-5s", null))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(SETTLE + "\"-5s\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "0s", "0ms", "PT0S"})
  void settle_zero_stopsLimitingAsTheFlagCloses(String zero) throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .scope(Scope.CONNECTION).breakerFlag(flag)
        .properties(settings("sluice.recovery.settle", zero)).build()) {
      flag.trip();
      ds.getConnection().close();
      flag.reset();
      assertThat(ds.stats().limiting()).isFalse();
      assertThat(ds.stats().recovering()).isFalse();
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "sluice.recovery.settle|250ms", "sluice.recovery.settle|PT1M",
      "sluice.recovery.threshold|1", "sluice.recovery.threshold|0.05",
  })
  void goodValue_recoveryHoldsTheCapAfterTheClose(String key, String value) throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .scope(Scope.CONNECTION).breakerFlag(flag).properties(settings(key, value)).build()) {
      flag.trip();
      ds.getConnection().close();
      flag.reset();
      assertThat(ds.stats().recovering()).isTrue();
      assertThat(ds.stats().limiting()).isTrue();
    }
  }
}
