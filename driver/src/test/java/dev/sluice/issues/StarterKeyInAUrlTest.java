package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.SluiceDriver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLNonTransientConnectionException;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 13: {@code sluice.enabled=false} in a JDBC URL was accepted and ignored, so
 * Sluice went on limiting while the URL said it was off. A key only the Spring Boot starter reads
 * is now refused in a URL and in connection properties, naming the key and what to do.
 */
class StarterKeyInAUrlTest {
  private final SluiceDriver driver = new SluiceDriver();

  @Test
  void enabledFalseInTheUrl_isRefusedSayingHowToBypassSluice() {
    assertThatThrownBy(() -> driver.connect(
        "jdbc:sluice:h2:mem:starterkey;sluice.budget=5;sluice.enabled=false", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageStartingWith("sluice.enabled is a setting of the Spring Boot starter, which a"
            + " jdbc:sluice: URL does not read")
        .hasMessageContaining("it was \"false\"")
        .hasMessageContaining("take sluice: out of the URL");
  }

  @Test
  void everyStarterKey_inUrlOrProperties_isRefused() {
    for (String setting : new String[] {"sluice.enabled=true", "sluice.circuit-breaker=cache",
        "sluice.circuit-breaker.name=cache", "sluice.circuit-breaker.publish=true",
        "sluice.web.enabled=false", "sluice.web.priority-header=X-Priority"}) {
      String key = setting.substring(0, setting.indexOf('='));
      String value = setting.substring(setting.indexOf('=') + 1);
      assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:starterkey;sluice.budget=5;"
          + setting, null)).as(setting)
          .isInstanceOf(SQLNonTransientConnectionException.class)
          .hasMessageContaining("is a setting of the Spring Boot starter");
      Properties info = new Properties();
      info.setProperty(key, value);
      assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:starterkey;sluice.budget=5",
          info)).as(setting + " as a property")
          .hasMessageContaining("is a setting of the Spring Boot starter");
    }
  }

  @Test
  void propertyInfo_listsNoStarterKey() throws Exception {
    DriverPropertyInfo[] infos = driver.getPropertyInfo("jdbc:sluice:h2:mem:x;sluice.budget=5",
        null);

    assertThat(Arrays.stream(infos).map(i -> i.name)).contains("sluice.budget")
        .doesNotContain("sluice.enabled", "sluice.circuit-breaker", "sluice.web.enabled");
  }
}
