package dev.sluice.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.sluice.BreakerFlag;
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
}
