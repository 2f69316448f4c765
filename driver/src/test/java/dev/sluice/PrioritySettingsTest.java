package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.limit.Reserve;
import dev.sluice.testing.LogTap;
import dev.sluice.testing.StubDataSource;
import java.lang.management.ManagementFactory;
import java.sql.SQLException;
import java.util.Properties;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code sluice.reserve} and {@code sluice.mode}: bad input named, and the mode over JMX. */
class PrioritySettingsTest {
  private static final String RESERVE = "sluice.reserve must be a number from 0 up to but not"
      + " including 1, but was ";
  private static final String MODE = "sluice.mode must be `enforce` or `shadow`, but was ";

  private static Properties settings(String key, String value) {
    Properties p = new Properties();
    p.setProperty("sluice.budget", "100");
    p.setProperty(key, value);
    return p;
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "sluice.reserve|-0.1", "sluice.reserve|1", "sluice.reserve|1.5", "sluice.reserve|NaN",
      "sluice.reserve|a fifth", "sluice.reserve|20%", "sluice.reserve|0.2d",
      "sluice.mode|enforcing", "sluice.mode|dry-run", "sluice.mode|off",
  })
  void properties_badValue_namesTheKeyAndTheValue(String key, String value) {
    String message = (key.equals("sluice.reserve") ? RESERVE : MODE) + "\"" + value + "\"";
    assertThatThrownBy(() -> RateLimitedDataSource.builder(new StubDataSource())
        .properties(settings(key, value)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void driverUrl_badValue_namesTheKeyAndTheValue() {
    SluiceDriver driver = new SluiceDriver();
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:ps;sluice.budget=5;"
        + "sluice.reserve=1", null))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(RESERVE + "\"1\"");
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:ps;sluice.budget=5;"
        + "sluice.mode=quiet", null))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(MODE + "\"quiet\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "0.0", "0.5", "0.99"})
  void reserve_goodValue_isAccepted(String value) throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .properties(settings("sluice.reserve", value)).build()) {
      assertThat(ds.limiter().bucket().burst(Priority.CRITICAL)).isEqualTo(10);
      assertThat(ds.limiter().bucket().burst(Priority.NORMAL))
          .isEqualTo(Reserve.classBurst(10, Double.parseDouble(value), 1));
    }
  }

  @Test
  void shadow_fromProperties_refusesNothingAndCounts() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .name("shadow-props").scope(Scope.CONNECTION)
        .properties(settings("sluice.mode", "shadow")).build()) {
      for (int i = 0; i < 50; i++) {
        ds.getConnection().close();
      }
      assertThat(ds.stats().shadow()).isTrue();
      assertThat(ds.stats().rejected()).isZero();
      assertThat(ds.stats().admitted() + ds.stats().shadowRejected()).isEqualTo(50);
      assertThat(ds.stats().shadowRejected(Priority.NORMAL)).isGreaterThanOrEqualTo(40);
      assertThat(ds.stats().toString()).contains("mode=shadow", "shadowRejected=");
    }
  }

  @Test
  void mode_overJmx_switchesAtRuntimeAndLogsAtWarn() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName on = new ObjectName("dev.sluice:type=RateLimitedDataSource,name=shadow-jmx");
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(new StubDataSource())
        .name("shadow-jmx").scope(Scope.CONNECTION).properties(settings("sluice.mode", "shadow"))
        .build(); LogTap log = LogTap.open()) {
      assertThat(server.getAttribute(on, "Mode")).isEqualTo("shadow");
      for (int i = 0; i < 30; i++) {
        ds.getConnection().close();
      }
      assertThat((Long) server.getAttribute(on, "ShadowRejected")).isPositive();
      assertThat((String) server.getAttribute(on, "CallsByPriority")).startsWith("critical 0/0/0,");

      server.setAttribute(on, new Attribute("Mode", "ENFORCE"));

      assertThat(server.getAttribute(on, "Mode")).isEqualTo("enforce");
      assertThat(log.lines("WARN", "shadow-jmx - mode changed by JMX from shadow to enforce"))
          .hasSize(1);
      int refused = 0;
      for (int i = 0; i < 50; i++) {
        try {
          ds.getConnection().close();
        } catch (RateLimitExceededException e) {
          refused++;
        }
      }
      assertThat(refused).as("burst 10 at 100/s: most of 50 at once are refused").isGreaterThan(30);
      assertThatThrownBy(() -> server.setAttribute(on, new Attribute("Mode", "loud")))
          .isInstanceOf(RuntimeMBeanException.class)
          .hasRootCauseMessage(MODE + "\"loud\"");
      assertThat(server.getAttribute(on, "Mode")).isEqualTo("enforce");
    }
  }
}
