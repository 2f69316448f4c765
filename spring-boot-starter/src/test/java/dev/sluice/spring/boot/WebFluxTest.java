package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.autoconfigure.web.reactive.AutoConfigureWebTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** WebFlux under a flood, as {@link WebMvcTest}: 503 with {@code Retry-After}, then 200. */
@SpringBootTest(classes = WebFluxTest.App.class, properties = {"sluice.budget=1",
    "sluice.burst=1", "sluice.name=users-db", "spring.datasource.url=jdbc:h2:mem:flux",
    "spring.main.web-application-type=reactive"})
// the first call starts the pool: slow on a loaded machine
@AutoConfigureWebTestClient(timeout = "60s")
class WebFluxTest {

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
    Mono<Integer> count() {
      return Mono.fromCallable(() -> jdbc.queryForObject("SELECT 1", Integer.class));
    }
  }

  @Autowired
  WebTestClient client;

  @Test
  void flood_503WithRetryAfterAndProblemDetail_then200() {
    EntityExchangeResult<String> refused = null;
    for (int i = 0; i < 50 && refused == null; i++) {
      EntityExchangeResult<String> result = call();
      if (result.getStatus().value() == 503) {
        refused = result;
      } else {
        assertThat(result.getStatus().value()).isEqualTo(200);
      }
    }

    assertThat(refused).as("a 503 within 50 calls at 1/s").isNotNull();
    assertThat(refused.getResponseHeaders().getFirst("Retry-After")).isEqualTo("1");
    assertThat(refused.getResponseHeaders().getContentType())
        .hasToString("application/problem+json");
    assertThat(refused.getResponseBody()).contains("\"status\":503", "\"budget\":\"users-db\"",
        "\"instance\":\"/users/count\"");
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> call().getStatus().value() == 200);
  }

  private EntityExchangeResult<String> call() {
    return client.get().uri("/users/count").exchange().expectBody(String.class).returnResult();
  }
}
