package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AnswerSettingsTest {

  @Test
  void defaults_areOff_50ms_1000Rows_32MB() {
    AnswerSettings s = AnswerSettings.parse(null, null, null, null);
    assertThat(s.on()).isFalse();
    assertThat(s.joinWait()).isEqualTo(Duration.ofMillis(50));
    assertThat(s.maxRows()).isEqualTo(1000);
    assertThat(s.memoryBytes()).isEqualTo(32L << 20);
  }

  @Test
  void goodValues_parse() {
    AnswerSettings s = AnswerSettings.parse("5s", "PT0.1S", "200", "512KB");
    assertThat(s.maxAge()).isEqualTo(Duration.ofSeconds(5));
    assertThat(s.joinWait()).isEqualTo(Duration.ofMillis(100));
    assertThat(s.maxRows()).isEqualTo(200);
    assertThat(s.memoryBytes()).isEqualTo(512L << 10);
    assertThat(AnswerSettings.parse("0", "0", "1", "1000").memoryBytes()).isEqualTo(1000);
    assertThat(AnswerSettings.parse("250ms", null, null, "32mb").memoryBytes())
        .isEqualTo(32L << 20);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "-1s|5s||||sluice.stale.max-age",
      "soon|soon||||sluice.stale.max-age",
      "-5ms|||-5ms||sluice.stale.wait",
      "0|||x||sluice.stale.wait",
      "0||||0|sluice.stale.max-rows",
      "0||||1.5|sluice.stale.max-rows",
  })
  void badDurationsAndRows_nameTheKeyAndTheValue(String maxAge, String shownAge, String unused,
      String wait, String rows, String key) {
    String badValue = key.equals("sluice.stale.max-age") ? maxAge
        : key.equals("sluice.stale.wait") ? wait : rows;
    assertThatThrownBy(() -> AnswerSettings.parse(
        key.equals("sluice.stale.max-age") ? maxAge : "0", wait, rows, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(key + " must ")
        .hasMessageEndingWith(", but was " + badValue);
  }

  @ParameterizedTest
  @CsvSource({"0", "0MB", "-1", "lots", "32TB", "99999999999999GB"})
  void badSizes_nameTheKeyAndTheValue(String memory) {
    assertThatThrownBy(() -> AnswerSettings.parse("5s", null, null, memory))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.stale.memory must be a size above 0 such as `32MB`, `512KB` or a"
            + " number of bytes, but was " + memory);
  }
}
