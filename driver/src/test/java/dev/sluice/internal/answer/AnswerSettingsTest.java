package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The record's own checks. The keys' texts are parsed by the key table and checked every way in
 * {@code StaleSettingsTest}; this record is what they are built into.
 */
class AnswerSettingsTest {

  @Test
  void off_isOff_50ms_1000Rows_32MB() {
    AnswerSettings s = AnswerSettings.OFF;
    assertThat(s.on()).isFalse();
    assertThat(s.joinWait()).isEqualTo(Duration.ofMillis(50));
    assertThat(s.maxRows()).isEqualTo(1000);
    assertThat(s.memoryBytes()).isEqualTo(32L << 20);
    assertThat(new AnswerSettings(Duration.ofSeconds(5), Duration.ZERO, 1, 1).on()).isTrue();
  }

  @Test
  void badValues_nameTheKeyAndTheValue() {
    Duration five = Duration.ofSeconds(5);
    assertThatThrownBy(() -> new AnswerSettings(Duration.ofSeconds(-1), five, 1, 1))
        .hasMessage("sluice.stale.max-age must be a duration of 0 or more such as `0`, `5s` or"
            + " `PT5S`, but was PT-1S");
    assertThatThrownBy(() -> new AnswerSettings(five, null, 1, 1))
        .hasMessageStartingWith("sluice.stale.wait must ").hasMessageEndingWith("but was null");
    assertThatThrownBy(() -> new AnswerSettings(five, five, 0, 1))
        .hasMessageStartingWith("sluice.stale.max-rows must ").hasMessageEndingWith("but was 0");
    assertThatThrownBy(() -> new AnswerSettings(five, five, 1, 0))
        .hasMessageStartingWith("sluice.stale.memory must ").hasMessageEndingWith("but was 0");
  }
}
