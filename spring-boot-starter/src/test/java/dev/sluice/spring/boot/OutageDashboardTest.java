package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.yaml.snakeyaml.Yaml;

/**
 * The outage dashboard and the alert rules of {@code observability/} against what a real
 * application exports (issue 40, item 3). A Spring Boot application with the starter, Actuator,
 * the Prometheus registry and a Resilience4j breaker on its cache goes through a short outage —
 * the breaker opens, one read is admitted, the same read again is answered, another is refused,
 * also at {@code CRITICAL} — and {@code /actuator/prometheus} is scraped over HTTP. Then every
 * expression of the dashboard and of the rules is parsed as PromQL ({@link PromQl}: the grammar
 * subset they use, written here because no PromQL parser for Java resolves from Maven Central)
 * and must name only series that scrape holds, with only labels those series carry (or the
 * target labels Prometheus adds, {@code instance} and {@code job}).
 */
@SpringBootTest(classes = OutageDashboardTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "spring.application.name=orders",
        "management.metrics.tags.application=${spring.application.name}",
        "management.endpoints.web.exposure.include=health,prometheus,sluice",
        "spring.datasource.url=jdbc:h2:mem:outage-dashboard;DB_CLOSE_DELAY=-1",
        "sluice.name=users-db",
        "sluice.budget=0.001", // one permit, then none for 1,000 s: no test here waits on time
        "sluice.burst=1",
        "sluice.reserve=0", // every priority sees the one permit
        "sluice.instances=1",
        "sluice.stale.max-age=10m",
        "sluice.circuit-breaker=cache",
        "resilience4j.circuitbreaker.instances.cache.sliding-window-size=10"})
@AutoConfigureObservability(tracing = false) // Boot's tests turn metrics export off otherwise
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutageDashboardTest {
  /** Where the files under test are, from the module's directory. */
  static final Path OBSERVABILITY = Path.of("..", "observability");
  /** Labels Prometheus gives every series of a target when it scrapes it. */
  static final Set<String> TARGET_LABELS = Set.of("instance", "job");

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @LocalServerPort
  int port;

  @Autowired
  JdbcTemplate jdbc;

  @Autowired
  CircuitBreakerRegistry breakers;

  /** Series name to the label names it carries, from the scrape during the outage. */
  Map<String, Set<String>> scraped;
  String exposition;

  @BeforeAll
  void outageThenScrape() throws Exception {
    jdbc.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(20))");
    jdbc.update("INSERT INTO users VALUES (1, 'Ada'), (2, 'Grace')"); // breaker closed: uncharged

    breakers.circuitBreaker("cache").transitionToOpenState();
    String read = "SELECT name FROM users WHERE id = ?";
    assertThat(jdbc.queryForObject(read, String.class, 1)).isEqualTo("Ada"); // the one permit
    for (int id = 1; id <= 2; id++) {
      int user = id;
      assertThatThrownBy(() -> jdbc.queryForObject(read, String.class, user))
          .hasRootCauseInstanceOf(RateLimitExceededException.class);
    }
    assertThatThrownBy(() -> Priority.CRITICAL.run(() -> jdbc.update(
        "UPDATE users SET name = 'Ada L' WHERE id = 1")))
        .hasRootCauseInstanceOf(RateLimitExceededException.class);

    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://localhost:" + port + "/actuator/prometheus")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    exposition = response.body();
    scraped = series(exposition);
    Path copy = Path.of("target", "test-logs", "outage-dashboard-scrape.txt");
    Files.createDirectories(copy.getParent());
    Files.writeString(copy, exposition);
  }

  @Test
  void scrape_showsTheOutage() {
    assertThat(value("sluice_flag_state", "state=\"open\"")).isEqualTo(1);
    assertThat(value("sluice_limiting", "")).isEqualTo(1);
    assertThat(value("sluice_calls_admitted_total", "")).isEqualTo(1);
    assertThat(value("sluice_calls_rejected_total", "")).isEqualTo(3);
    assertThat(value("sluice_priority_calls_rejected_total", "priority=\"critical\""))
        .isEqualTo(1);
    assertThat(value("resilience4j_circuitbreaker_state", "state=\"open\"")).isEqualTo(1);
  }

  /** The value of the first sample of {@code name} whose labels contain {@code label}. */
  private double value(String name, String label) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$")
        .matcher(exposition);
    while (m.find()) {
      if (m.group(1).contains(label) && m.group(1).contains("name=\"")) {
        return Double.parseDouble(m.group(2));
      }
    }
    throw new AssertionError("no sample of " + name + " with " + label + " in the scrape");
  }

  /** Series names and their label names in a text exposition. */
  static Map<String, Set<String>> series(String exposition) {
    Map<String, Set<String>> found = new TreeMap<>();
    Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");
    for (String line : exposition.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
      Set<String> labels = found.computeIfAbsent(name, n -> new TreeSet<>());
      if (brace >= 0 && brace < space) {
        Matcher m = label.matcher(line.substring(brace + 1, line.lastIndexOf('}')));
        while (m.find()) {
          labels.add(m.group(1));
        }
      }
    }
    return found;
  }
}
