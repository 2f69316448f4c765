package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.sluice.Priority;
import dev.sluice.RateLimitedDataSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC under a flood: a budget of 1 query/s (burst 1) answers the excess 503 with
 * {@code Retry-After} and a problem detail, and 200 again once the bucket has refilled.
 */
@SpringBootTest(classes = WebMvcTest.App.class, properties = {"sluice.budget=1", "sluice.burst=1",
    "sluice.name=users-db", "spring.datasource.url=jdbc:h2:mem:mvc",
    "management.endpoints.web.exposure.include=sluice", "sluice.web.priority-header=X-Priority"})
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
class WebMvcTest {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(Users.class)
  static class App {}

  @RestController
  static class Users {
    private final JdbcTemplate jdbc;

    Users(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @GetMapping("/users/count")
    Integer count() {
      return jdbc.queryForObject("SELECT 1", Integer.class);
    }
  }

  @Autowired
  MockMvc mvc;

  RateLimitedDataSource sluice;

  @Autowired
  void sluice(javax.sql.DataSource dataSource) throws java.sql.SQLException {
    this.sluice = dataSource.unwrap(RateLimitedDataSource.class);
  }

  @Test
  void flood_503WithRetryAfterAndProblemDetail_then200() throws Exception {
    MockHttpServletResponse refused = null;
    for (int i = 0; i < 50 && refused == null; i++) {
      MockHttpServletResponse response = mvc.perform(get("/users/count")).andReturn().getResponse();
      if (response.getStatus() == 503) {
        refused = response;
      } else {
        assertThat(response.getStatus()).isEqualTo(200);
      }
    }

    assertThat(refused).as("a 503 within 50 calls at 1/s").isNotNull();
    assertThat(refused.getHeader("Retry-After")).isEqualTo("1");
    assertThat(refused.getContentType()).isEqualTo("application/problem+json");
    assertThat(refused.getContentAsString()).contains("\"status\":503", "\"budget\":\"users-db\"",
        "\"instance\":\"/users/count\"");
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() ->
        mvc.perform(get("/users/count")).andReturn().getResponse().getStatus() == 200);
  }

  @Test
  void actuatorEndpoint_overHttp_readsAndRefusesATripOfANonManualFlag() throws Exception {
    String budgets = mvc.perform(get("/actuator/sluice")).andReturn().getResponse()
        .getContentAsString();
    MockHttpServletResponse trip = mvc.perform(post("/actuator/sluice/users-db")
        .contentType(MediaType.APPLICATION_JSON).content("{\"flag\": \"open\"}"))
        .andReturn().getResponse();

    assertThat(budgets).contains("\"users-db\":{\"limiting\":true", "\"budget\":1.0");
    assertThat(budgets).as("the figures by reason, as objects in the reasons' order")
        .contains("\"notEligible\":{\"transaction\":0,\"locking\":0,",
            "\"sharedSent\":0,\"sharedHeard\":0,\"sharedDropped\":{\"unsigned\":0,"
                + "\"unknown-key\":0,");
    assertThat(trip.getStatus()).isEqualTo(400);
  }

  /**
   * Issue 21, item 8: with Boot's defaults a refused change was answered
   * {@code {"status":400,"error":"Bad Request"}} and no more. Item 11: the instance count read
   * {@code 1.0}, and a change over Actuator was logged "by JMX".
   */
  @Test
  void actuatorEndpoint_badChange_400WithTheReasonInTheBody(CapturedOutput output)
      throws Exception {
    MockHttpServletResponse badMode = send("{\"mode\": \"loud\"}");
    MockHttpServletResponse badBudget = send("{\"budget\": \"lots\"}");
    MockHttpServletResponse trip = send("{\"flag\": \"open\"}");

    assertThat(badMode.getStatus()).isEqualTo(400);
    assertThat(badMode.getContentAsString()).contains("\"status\":400",
        "\"message\":\"sluice.mode must be `enforce` or `shadow`, but was \\\"loud\\\"\"");
    assertThat(badBudget.getStatus()).isEqualTo(400);
    assertThat(badBudget.getContentAsString())
        .contains("budget must be a positive number, but was \\\"lots\\\"");
    assertThat(trip.getStatus()).isEqualTo(400);
    assertThat(trip.getContentAsString())
        .contains("cannot trip the breaker flag over Actuator: there is none");

    String changed = change("{\"budget\": 2}");
    change("{\"budget\": 1}");
    assertThat(changed).contains("\"instances\":1,").doesNotContain("\"instances\":1.0");
    assertThat(output.getOut() + output.getErr()).contains("by Actuator")
        .doesNotContain("by JMX").doesNotContain("over JMX");
  }

  private MockHttpServletResponse send(String json) throws Exception {
    return mvc.perform(MockMvcRequestBuilders.post("/actuator/sluice/users-db")
        .contentType(MediaType.APPLICATION_JSON).content(json)).andReturn().getResponse();
  }

  @Test
  void priorityHeader_decidesTheRequestsCalls_badValue400() throws Exception {
    long before = decided(Priority.SHEDDABLE);

    int status = mvc.perform(get("/users/count").header("X-Priority", "sheddable")).andReturn()
        .getResponse().getStatus();
    MockHttpServletResponse bad = mvc.perform(get("/users/count").header("X-Priority", "urgent"))
        .andReturn().getResponse();

    assertThat(status).isIn(200, 503);
    assertThat(decided(Priority.SHEDDABLE)).isEqualTo(before + 1);
    assertThat(bad.getStatus()).isEqualTo(400);
    assertThat(bad.getErrorMessage()).contains("X-Priority", "\"urgent\"");
  }

  @Test
  void actuatorEndpoint_overHttp_switchesModeAndEndsRecovery() throws Exception {
    String shadow = change("{\"mode\": \"shadow\", \"recovery\": \"end\"}");
    String enforce = change("{\"mode\": \"enforce\"}");

    assertThat(shadow).contains("\"mode\":\"shadow\"", "\"shadowRejected\":",
        "\"recovering\":false");
    assertThat(enforce).contains("\"mode\":\"enforce\"");
  }

  private String change(String json) throws Exception {
    MockHttpServletResponse response = mvc.perform(post("/actuator/sluice/users-db")
        .contentType(MediaType.APPLICATION_JSON).content(json)).andReturn().getResponse();
    assertThat(response.getStatus()).isEqualTo(200);
    return response.getContentAsString();
  }

  private long decided(Priority priority) {
    return sluice.stats().admitted(priority) + sluice.stats().rejected(priority);
  }
}
