package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.answer.AnswerSettings;
import dev.sluice.internal.config.Settings;
import dev.sluice.testing.StubDataSource;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The {@code sluice.stale.*} keys: each bad value refused naming the key and the value, through
 * the builder's properties, a {@code jdbc:sluice:} URL and the driver's {@code Properties}; the
 * good ones reach {@link AnswerSettings}.
 */
class StaleSettingsTest {
  private static final String DURATION_AGE =
      "be 0 or a positive duration such as `0`, `500ms`, `5s` or `PT5S`";
  private static final String DURATION_WAIT =
      "be 0 or a positive duration such as `0`, `50ms` or `PT0.05S`";
  private static final String ROWS = "be a positive integer";
  private static final String SIZE =
      "be a size above 0 such as `32MB`, `512KB` or a number of bytes";

  private static String constraint(String key) {
    return Map.of("sluice.stale.max-age", DURATION_AGE, "sluice.stale.wait", DURATION_WAIT,
        "sluice.stale.max-rows", ROWS, "sluice.stale.memory", SIZE).get(key);
  }

  private static Properties props(String key, String value) {
    Properties p = new Properties();
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.jmx", "false");
    p.setProperty(key, value);
    return p;
  }

  @ParameterizedTest
  @CsvSource({
      "sluice.stale.max-age, -1s", "sluice.stale.max-age, soon", "sluice.stale.max-age, 5",
      "sluice.stale.max-age, PT-5S",
      "sluice.stale.wait, -5ms", "sluice.stale.wait, x",
      "sluice.stale.max-rows, 0", "sluice.stale.max-rows, -3", "sluice.stale.max-rows, many",
      "sluice.stale.max-rows, 1.5",
      "sluice.stale.memory, 0", "sluice.stale.memory, 0MB", "sluice.stale.memory, lots",
      "sluice.stale.memory, -1MB", "sluice.stale.memory, 1.5MB",
      "sluice.stale.memory, 99999999999GB"})
  void badValue_isRefusedNamingKeyAndValue_everyWay(String key, String value) {
    String message = key + " must " + constraint(key) + ", but was \"" + value + "\"";
    assertThatThrownBy(() -> RateLimitedDataSource.builder(new StubDataSource())
        .properties(props(key, value)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    SluiceDriver driver = new SluiceDriver();
    assertThatThrownBy(() -> driver.connect(
        "jdbc:sluice:h2:mem:stale;sluice.budget=100;sluice.jmx=false;" + key + "=" + value, null))
        .isInstanceOf(SQLNonTransientConnectionException.class).hasMessage(message);
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:stale", props(key, value)))
        .isInstanceOf(SQLNonTransientConnectionException.class).hasMessage(message);
  }

  @Test
  void maxAge_inConnectionScope_isRefusedWithWhy() {
    Properties p = props("sluice.stale.max-age", "5s");
    p.setProperty("sluice.scope", "connection");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(new StubDataSource()).properties(p)
        .build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sluice.stale.max-age (\"5s\") needs sluice.scope=statement")
        .hasMessageContaining("no refused read to answer");
    p.setProperty("sluice.stale.max-age", "0");
    try (RateLimitedDataSource off = RateLimitedDataSource.builder(new StubDataSource())
        .properties(p).build()) {
      assertThat(off.enforcer().answers()).as("0 is off, in any scope").isNull();
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void goodValues_reachTheAnswerSettings() {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "PT5S");
    p.setProperty("sluice.stale.wait", "0");
    p.setProperty("sluice.stale.max-rows", "20");
    p.setProperty("sluice.stale.memory", "512kb");
    assertThat(Enforcer.answerSettings(Settings.parse(p)))
        .isEqualTo(new AnswerSettings(Duration.ofSeconds(5), Duration.ZERO, 20, 512L << 10));
    assertThat(Enforcer.answerSettings(Settings.empty())).isEqualTo(AnswerSettings.OFF);
    p.setProperty("sluice.stale.memory", "1048576");
    assertThat(Enforcer.answerSettings(Settings.parse(p)).memoryBytes()).isEqualTo(1L << 20);
    p.setProperty("sluice.stale.memory", "2GB");
    assertThat(Enforcer.answerSettings(Settings.parse(p)).memoryBytes()).isEqualTo(2L << 30);
  }

  @Test
  void answersOn_theBudgetHasAnswers_andItsStatsCountThem() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .properties(props("sluice.stale.max-age", "5s")).build()) {
      assertThat(ds.enforcer().answers()).isNotNull();
      assertThat(ds.stats().answered()).isZero();
      assertThat(ds.stats().joined()).isZero();
      assertThat(ds.stats().toString()).contains("answered=0, joined=0");
    }
  }
}
