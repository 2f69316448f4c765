package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link Setting}: the key table as tools see it. */
class SettingTest {

  private static Setting named(String name) {
    return Setting.all().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void all_isTheKeyTableInItsOrder() {
    List<String> names = Setting.all().stream().map(Setting::name).collect(Collectors.toList());

    assertThat(names).isEqualTo(Keys.ALL.stream().map(Key::name).collect(Collectors.toList()));
  }

  @Test
  void setting_typesAreOnlyPublicOnes_enumsAsWords() {
    assertThat(named("sluice.budget").type()).isEqualTo(Double.class);
    assertThat(named("sluice.summary-interval").type()).isEqualTo(Duration.class);
    assertThat(named("sluice.instances").type()).as("internal Instances").isEqualTo(String.class);
    assertThat(named("sluice.flag").type()).as("internal FlagSource").isEqualTo(String.class);
    assertThat(named("sluice.flag").values()).containsExactly("always", "redis", "manual");
    assertThat(named("sluice.scope").values()).containsExactly("statement", "connection");
    assertThat(named("sluice.budget").values()).isEmpty();
  }

  @Test
  void setting_defaultWithoutMarkdown() {
    assertThat(named("sluice.summary-interval").defaultText()).isEqualTo("10s");
    assertThat(named("sluice.budget").defaultText()).isEqualTo("required");
    assertThat(named("sluice.budget").description()).isNotBlank();
  }
}
