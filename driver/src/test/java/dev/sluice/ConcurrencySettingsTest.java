package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StubDataSource;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code sluice.concurrency} and its bounds: what is accepted, and bad input named at build. */
class ConcurrencySettingsTest {

  private static Properties settings(String... pairs) {
    Properties p = new Properties();
    p.setProperty("sluice.budget", "100");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static RateLimitedDataSource build(Properties p) {
    return RateLimitedDataSource.builder(new StubDataSource()).properties(p).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-3", "many", "2.5", "AUTO ", "1e3"})
  void concurrency_badValue_namesTheKeyAndTheValue(String value) {
    assertThatThrownBy(() -> build(settings("sluice.concurrency", value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sluice.concurrency must be a positive integer or `auto`")
        .hasMessageContaining("\"" + value + "\"");
  }

  @Test
  void bounds_minAboveMax_namesBothKeysAndTheValue() {
    assertThatThrownBy(() -> build(settings("sluice.concurrency", "auto",
        "sluice.concurrency.min", "50", "sluice.concurrency.max", "20")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.concurrency.min must be at most sluice.concurrency.max (20), but was"
            + " \"50\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"sluice.concurrency.min", "sluice.concurrency.max"})
  void bounds_withoutAuto_areRefusedNamingTheKey(String key) {
    assertThatThrownBy(() -> build(settings("sluice.concurrency", "10", key, "5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(key + " is set, but sluice.concurrency is \"10\": it only applies to"
            + " sluice.concurrency=auto; set that or remove it");
    assertThatThrownBy(() -> build(settings(key, "5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(key + " is set, but sluice.concurrency is not");
  }

  @ParameterizedTest
  @ValueSource(strings = {"sluice.concurrency.min", "sluice.concurrency.max"})
  void bounds_notPositive_namesTheKeyAndTheValue(String key) {
    assertThatThrownBy(() -> build(settings("sluice.concurrency", "auto", key, "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(key + " must be a positive integer, but was \"0\"");
  }

  @Test
  void stats_fixedCap_isTheShareAndAutoStartsAtMax() throws SQLException {
    try (RateLimitedDataSource fixed = build(settings("sluice.concurrency", "12",
        "sluice.instances", "4"))) {
      assertThat(fixed.stats().concurrencyLimit()).isEqualTo(3);
      assertThat(fixed.stats().inFlight()).isZero();
    }
    try (RateLimitedDataSource auto = build(settings("sluice.concurrency", "auto",
        "sluice.concurrency.max", "40"))) {
      assertThat(auto.stats().concurrencyLimit()).isEqualTo(40);
    }
    try (RateLimitedDataSource none = build(settings())) {
      assertThat(none.stats().concurrencyLimit()).isZero();
    }
  }

  @Test
  void driverUrl_badValue_namesTheKeyAndTheValue() {
    SluiceDriver driver = new SluiceDriver();
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:cc;sluice.budget=5;"
        + "sluice.concurrency=none", null))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("sluice.concurrency must be a positive integer or `auto`, but was"
            + " \"none\"");
  }
}
