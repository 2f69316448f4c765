package dev.sluice.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.sluice.BreakerFlag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The example exposes the meters the outage dashboard reads ({@code observability/}): after a
 * refusal, {@code /actuator/prometheus} shows it under the application's tag.
 */
@SpringBootTest(properties = {"sluice.budget=0.001", "sluice.burst=1", "sluice.instances=1",
    "spring.datasource.url=jdbc:h2:mem:prometheus-scrape"})
@AutoConfigureMockMvc
@AutoConfigureObservability(tracing = false) // Boot's tests turn metrics export off otherwise
class PrometheusScrapeTest {

  @Autowired
  MockMvc mvc;

  @Autowired
  BreakerFlag.Manual breaker;

  @Test
  void prometheus_afterARefusal_showsItTaggedWithTheApplication() throws Exception {
    breaker.trip();
    try {
      mvc.perform(get("/users/1")).andExpect(status().isOk());
      mvc.perform(get("/users/2")).andExpect(status().isServiceUnavailable());
    } finally {
      breaker.reset();
    }
    String scrape = mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk())
        .andReturn().getResponse().getContentAsString();
    // labels in name order: application, db_namespace, db_system_name (from the pool's URL), name
    assertThat(scrape).containsPattern("(?m)^sluice_calls_rejected_total\\{application="
        + "\"sluice-spring-boot-example\",[^}]*db_system_name=\"other_sql\",name=\"users-db\"\\}"
        + " 1.0$");
    assertThat(scrape).containsPattern("(?m)^sluice_budget_permits_s\\{application="
        + "\"sluice-spring-boot-example\",[^}]*name=\"users-db\"\\} 0.001$");
  }

  /**
   * Every Sluice series the dashboard and the alert rules name is in the example's scrape, so
   * the example shows what they show (the expressions themselves are checked against a scrape by
   * the starter's {@code OutageDashboardTest}). The Redis-only series (the flag's read age, the
   * registry's live count) are left out: the example's flag is in-process.
   */
  @Test
  void prometheus_exposesEverySluiceSeriesTheDashboardAndRulesRead() throws Exception {
    // no call: the meters are there from the start (and the other test's one permit is kept)
    String scrape = mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk())
        .andReturn().getResponse().getContentAsString();
    Set<String> read = sluiceSeries(Path.of("..", "..", "observability", "sluice-outage.json"));
    read.addAll(sluiceSeries(Path.of("..", "..", "observability", "sluice-alerts.yml")));
    read.removeAll(Set.of("sluice_flag_read_age_seconds", "sluice_instances_live"));
    assertThat(read).hasSizeGreaterThan(10);
    Set<String> missing = new TreeSet<>();
    for (String series : read) {
      if (!Pattern.compile("(?m)^" + series + "\\{application=\"sluice-spring-boot-example\"")
          .matcher(scrape).find()) {
        missing.add(series);
      }
    }
    assertThat(missing).as("series the dashboard reads, missing from the example's scrape")
        .isEmpty();
  }

  private static Set<String> sluiceSeries(Path file) throws IOException {
    Set<String> names = new TreeSet<>();
    Matcher m = Pattern.compile("sluice_[a-z_]+").matcher(Files.readString(file));
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }
}
