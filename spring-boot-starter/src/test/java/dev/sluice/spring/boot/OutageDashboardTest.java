package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.Priority;
import dev.sluice.RateLimitedDataSource;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
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
 * the breaker opens, one read is admitted, the next ones are refused, also at {@code CRITICAL}
 * — and {@code /actuator/prometheus} is scraped over HTTP. Then every
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

  @Autowired
  DataSource dataSource;

  /** Series name to the label names it carries, from the scrape during the outage. */
  Map<String, Set<String>> scraped;
  String exposition;

  @BeforeAll
  void outageThenScrape() throws Exception {
    RateLimitedDataSource sluice = dataSource.unwrap(RateLimitedDataSource.class);
    jdbc.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(20))");
    jdbc.update("INSERT INTO users VALUES (1, 'Ada'), (2, 'Grace')"); // breaker closed: uncharged

    breakers.circuitBreaker("cache").transitionToOpenState();
    // the opening is seen at the first look at the flag: reads prepared after it are kept
    assertThat(sluice.stats().limiting()).isTrue();
    String read = "SELECT name FROM users WHERE id = ?";
    assertThat(jdbc.queryForObject(read, String.class, 1)).isEqualTo("Ada"); // the one permit
    for (int id = 1; id <= 2; id++) {
      int user = id;
      // refused: over this pool the admitted read is not kept, so none is answered (see the
      // closing note of issue 40); the answers' series are there all the same
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

  @Test
  void dashboard_everyExpressionParses_andNamesOnlyScrapedSeriesAndLabels() throws IOException {
    Map<String, String> expressions = dashboardExpressions(dashboard());
    assertThat(expressions).hasSizeGreaterThan(20);
    checkAgainstScrape(expressions);
  }

  @Test
  void alertRules_everyExpressionParses_andNamesOnlyScrapedSeriesAndLabels() throws IOException {
    Map<String, String> expressions = new LinkedHashMap<>();
    for (Map<String, Object> rule : alertRules()) {
      expressions.put("alert " + rule.get("alert"), (String) rule.get("expr"));
    }
    assertThat(expressions.keySet()).containsExactly("alert SluiceFlagUnreachable",
        "alert SluiceCriticalRefused", "alert SluiceAnswersNearMaxAge",
        "alert SluiceInstancesNotAsAssumed", "alert SluiceLiveInstancesDiffer",
        "alert SluiceSharedMessagesRejected");
    checkAgainstScrape(expressions);
  }

  @Test
  @SuppressWarnings("unchecked")
  void alertRules_eachHasSeverityAndSummary() throws IOException {
    for (Map<String, Object> rule : alertRules()) {
      assertThat(((Map<String, Object>) rule.get("labels")).keySet()).as("%s", rule.get("alert"))
          .contains("severity");
      assertThat(((Map<String, Object>) rule.get("annotations")).keySet())
          .as("%s", rule.get("alert")).contains("summary", "description");
    }
  }

  /**
   * The structure Grafana reads, in the current schema (schemaVersion 42, as
   * {@code @grafana/schema} 13.2 declares; that package ships TypeScript types, not a JSON schema,
   * and {@code observability/check/run.sh} type-checks the file against them): the variables,
   * the rows in the order an outage unfolds, panels of current types that fit the 24-column grid
   * without overlapping, every query on the dashboard's data source and filtered by its variables.
   */
  @Test
  void dashboard_structure() throws IOException {
    JsonNode d = dashboard();
    assertThat(d.path("schemaVersion").asInt()).isEqualTo(42);
    assertThat(d.path("uid").asText()).hasSizeBetween(8, 40);
    assertThat(d.path("title").asText()).isNotBlank();
    List<String> variables = new ArrayList<>();
    d.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
    assertThat(variables).containsExactly("datasource", "application", "instance", "budget",
        "breaker", "max_age", "recovery_threshold");

    List<String> rows = new ArrayList<>();
    Set<Integer> ids = new java.util.HashSet<>();
    List<int[]> boxes = new ArrayList<>();
    for (JsonNode panel : d.path("panels")) {
      assertThat(ids.add(panel.path("id").asInt())).as("unique id %s", panel.path("id")).isTrue();
      JsonNode g = panel.path("gridPos");
      int[] box = {g.path("x").asInt(), g.path("y").asInt(), g.path("w").asInt(),
          g.path("h").asInt()};
      assertThat(box[2]).isPositive();
      assertThat(box[3]).isPositive();
      assertThat(box[0] + box[2]).as("%s fits 24 columns", panel.path("title"))
          .isLessThanOrEqualTo(24);
      for (int[] other : boxes) {
        boolean apart = box[0] >= other[0] + other[2] || other[0] >= box[0] + box[2]
            || box[1] >= other[1] + other[3] || other[1] >= box[1] + box[3];
        assertThat(apart).as("%s overlaps another panel", panel.path("title")).isTrue();
      }
      boxes.add(box);
      String type = panel.path("type").asText();
      if (type.equals("row")) {
        rows.add(panel.path("title").asText().replaceAll(":.*", ""));
        continue;
      }
      assertThat(type).isIn("timeseries", "stat", "state-timeline");
      assertThat(panel.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
      for (JsonNode target : panel.path("targets")) {
        assertThat(target.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
        assertThat(target.path("refId").asText()).isNotBlank();
        for (PromQl.Selector s : PromQl.parse(grafanaToPromQl(target.path("expr").asText()))
            .selectors()) {
          assertThat(s.matchers()).as("%s: %s", panel.path("title"), s.metric())
              .containsEntry("application", "$application")
              .containsEntry("instance", "$instance");
          if (s.metric().startsWith("sluice_")) {
            assertThat(s.matchers()).containsEntry("name", "$budget");
          }
        }
      }
    }
    assertThat(rows).containsExactly("1 · The cache's breaker", "2 · Sluice's mode",
        "3 · The database's protection", "4 · The users", "5 · The fleet", "6 · The recovery");
  }

  private void checkAgainstScrape(Map<String, String> expressions) {
    List<String> wrong = new ArrayList<>();
    expressions.forEach((where, expression) -> {
      PromQl.Parsed parsed;
      try {
        parsed = PromQl.parse(grafanaToPromQl(expression));
      } catch (IllegalArgumentException e) {
        wrong.add(where + ": " + e.getMessage());
        return;
      }
      Set<String> labelsOfAll = new TreeSet<>(TARGET_LABELS);
      for (PromQl.Selector s : parsed.selectors()) {
        Set<String> labels = scraped.get(s.metric());
        if (labels == null) {
          wrong.add(where + ": " + s.metric() + " is not in the scrape");
          continue;
        }
        labelsOfAll.addAll(labels);
        for (String label : s.matchers().keySet()) {
          if (!labels.contains(label) && !TARGET_LABELS.contains(label)) {
            wrong.add(where + ": " + s.metric() + " has no label " + label);
          }
        }
      }
      for (String label : parsed.groupingLabels()) {
        if (!labelsOfAll.contains(label)) {
          wrong.add(where + ": no series of it has the label " + label);
        }
      }
    });
    assertThat(wrong).isEmpty();
  }

  /**
   * Grafana's variables replaced as Grafana would before sending the query: the interval
   * variables by a duration, the numeric ones by their default; those inside label values stay,
   * as the strings they are.
   */
  static String grafanaToPromQl(String expression) {
    return expression.replace("$__rate_interval", "5m").replace("$max_age", "5")
        .replace("$recovery_threshold", "0.8");
  }

  /** Every query of the dashboard: the panels' targets and the query variables' selectors. */
  static Map<String, String> dashboardExpressions(JsonNode dashboard) {
    Map<String, String> found = new LinkedHashMap<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        found.put(panel.path("title").asText() + " " + target.path("refId").asText(),
            target.path("expr").asText());
      }
    }
    Pattern labelValues = Pattern.compile("label_values\\((.*),\\s*(\\w+)\\)");
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if (variable.path("type").asText().equals("query")) {
        Matcher m = labelValues.matcher(variable.path("query").path("query").asText());
        assertThat(m.matches()).as("variable %s", variable.path("name")).isTrue();
        // label_values(selector, label) is Grafana's: the selector must carry the label
        found.put("variable " + variable.path("name").asText(),
            "count by (" + m.group(2) + ") (" + m.group(1) + ")");
      }
    }
    return found;
  }

  static JsonNode dashboard() throws IOException {
    return new ObjectMapper().readTree(OBSERVABILITY.resolve("sluice-outage.json").toFile());
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> alertRules() throws IOException {
    try (InputStream in = Files.newInputStream(OBSERVABILITY.resolve("sluice-alerts.yml"))) {
      Map<String, Object> file = new Yaml().load(in);
      List<Map<String, Object>> rules = new ArrayList<>();
      for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
        rules.addAll((List<Map<String, Object>>) group.get("rules"));
      }
      return rules;
    }
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
