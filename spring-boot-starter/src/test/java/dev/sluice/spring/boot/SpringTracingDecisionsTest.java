package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import redis.clients.jedis.Jedis;

/**
 * Sluice's decisions in a trace made by Spring Boot's own tracing (issue 40, item 1): a Spring
 * Boot application with the starter, Actuator, Micrometer Tracing over Brave (so the
 * OpenTelemetry API is not on this class path: the decisions reach the span through the current
 * Micrometer observation alone) and datasource-micrometer, whose JDBC observations wrap the
 * Sluice in front of a real PostgreSQL. The breaker flag is a real Redis key. While the flag is
 * open, the {@code query} span of an admitted, an answered and a refused read each carry
 * {@code sluice.decision} and what goes with it; the refused one ends with {@code error.type}.
 * The budget gives one permit and no other for 1,000 s, so no assertion here waits on time.
 */
@SpringBootTest(classes = SpringTracingDecisionsTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
        "management.tracing.sampling.probability=1.0",
        "jdbc.datasource-proxy.enabled=true", // off for this module's other tests (the pom)
        "spring.datasource.hikari.maximum-pool-size=1", // one session, read once
        "sluice.name=users-db",
        "sluice.budget=0.001",
        "sluice.burst=1",
        "sluice.reserve=0", // every priority sees the one permit
        "sluice.instances=1",
        "sluice.stale.max-age=10m"})
@AutoConfigureObservability // Boot's tests turn tracing off otherwise
class SpringTracingDecisionsTest {
  private static final String ADA = "SELECT name FROM users WHERE id = 1";
  private static final String GRACE = "SELECT name FROM users WHERE id = 2";

  private static EmbeddedPostgres postgres;
  private static EmbeddedRedis redis;

  /** The spans Brave finished, in the order they ended. */
  static final List<MutableSpan> FINISHED = new CopyOnWriteArrayList<>();

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    /** Boot hands every {@code SpanHandler} bean to Brave: an in-memory reporter. */
    @Bean
    SpanHandler keepFinishedSpans() {
      return new SpanHandler() {
        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
          FINISHED.add(span);
          return true;
        }
      };
    }
  }

  @DynamicPropertySource
  static void realParts(DynamicPropertyRegistry registry) throws IOException {
    postgres = EmbeddedPostgres.builder().start();
    redis = EmbeddedRedis.start();
    registry.add("spring.datasource.url", () -> postgres.getJdbcUrl("postgres", "postgres"));
    registry.add("spring.datasource.username", () -> "postgres");
    registry.add("sluice.redis", redis::uri);
  }

  @AfterAll
  static void stopRealParts() throws IOException {
    if (redis != null) {
      redis.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @Autowired
  JdbcTemplate jdbc;

  @Autowired
  DataSource dataSource;

  @Test
  void admittedAnsweredRefusedRead_eachJdbcSpanCarriesTheDecision() throws Exception {
    RateLimitedDataSource sluice = dataSource.unwrap(RateLimitedDataSource.class);
    jdbc.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(20))");
    jdbc.update("INSERT INTO users VALUES (1, 'Ada'), (2, 'Grace')"); // flag closed: uncharged
    assertThat(readSpans()).as("flag closed: nothing of Sluice on any span").isEmpty();
    assertThat(FINISHED).anyMatch(s -> "query".equals(s.name())); // the JDBC spans are there
    assertThat(FINISHED).noneMatch(s -> s.tags().keySet().stream()
        .anyMatch(k -> k.startsWith("sluice.")));

    try (Jedis operator = redis.client()) {
      operator.set("sluice:users-db:breaker", "open");
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> sluice.stats().limiting());

    // read by text: kept from its first admitted execution (a statement prepared before the
    // first door is not; docs/answers.md)
    assertThat(jdbc.queryForObject(ADA, String.class)).isEqualTo("Ada"); // the one permit
    assertThat(jdbc.queryForObject(ADA, String.class)).isEqualTo("Ada"); // answered
    assertThatThrownBy(() -> jdbc.queryForObject(GRACE, String.class))
        .hasRootCauseInstanceOf(RateLimitExceededException.class);

    List<MutableSpan> reads = readSpans();
    assertThat(reads).as("query spans with a decision; every span: %s", FINISHED).hasSize(3);
    MutableSpan admitted = reads.get(0);
    assertThat(admitted.tags()).containsEntry("sluice.decision", "admitted")
        .containsEntry("sluice.budget", "users-db").containsEntry("sluice.priority", "normal")
        .doesNotContainKeys("error.type", "sluice.limit", "sluice.answer.age_ms");
    assertThat(admitted.error()).isNull();

    MutableSpan answered = reads.get(1);
    assertThat(answered.tags()).containsEntry("sluice.decision", "answered")
        .containsKey("sluice.answer.age_ms").doesNotContainKeys("error.type", "sluice.limit");
    assertThat(Long.parseLong(answered.tag("sluice.answer.age_ms"))).isNotNegative();
    assertThat(answered.error()).as("an answer is no error").isNull();

    MutableSpan refused = reads.get(2);
    assertThat(refused.tags()).containsEntry("sluice.decision", "refused")
        .containsEntry("sluice.budget", "users-db").containsEntry("sluice.priority", "normal")
        .containsEntry("sluice.limit", "rate")
        .containsEntry("error.type", RateLimitExceededException.class.getName());
    assertThat(refused.error()).isInstanceOf(RateLimitExceededException.class);
    assertThat(refused.tag("jdbc.query[0]")).isEqualTo(GRACE);
  }

  @Test
  void theOpenTelemetryApi_isNotOnThisClassPath() {
    assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.trace.Span"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  /** datasource-micrometer's {@code query} spans that carry a decision, in the order they ended. */
  private static List<MutableSpan> readSpans() {
    return FINISHED.stream().filter(s -> "query".equals(s.name()))
        .filter(s -> s.tag("sluice.decision") != null).toList();
  }
}
