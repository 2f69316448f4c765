package dev.sluice.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** A mistyped or bad {@code sluice.*} key stops the application at start, naming the key. */
class ConfigurationErrorTest {

  private static Throwable startWith(String property) {
    Exception e = assertThrows(Exception.class, () -> new SpringApplicationBuilder(
        SpringBootExample.class).web(WebApplicationType.NONE)
        // arguments win over application.properties, as an operator's override would
        .run("--" + property, "--spring.datasource.url=jdbc:h2:mem:bad-config").close());
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root;
  }

  @Test
  void start_unknownKey_failsNamingTheKeyAndTheNearestOne() {
    Throwable root = startWith("sluice.budgett=5");

    assertThat(root).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sluice.budgett is not a Sluice setting; did you mean"
            + " sluice.budget?");
  }

  @Test
  void start_badValue_failsNamingTheKeyAndTheValue() {
    Throwable root = startWith("sluice.budget=-5");

    assertThat(root).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.budget must be a positive number, but was \"-5\"");
  }
}
