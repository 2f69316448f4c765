package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sluice's decision on the current Micrometer observation (issue 40, item 1), with an
 * application's own {@link ObservationRegistry} (not Sluice's) opening the observation's scope
 * around each read over a real H2. The OpenTelemetry API is on this class path too: a recording
 * span takes the decision and the observation is left alone, so a decision is written once. The
 * bucket runs on a fake clock (budget 0.01/s, burst 1), so an answer's age is fake time.
 */
class ObservationDecisionsTest {
  private static int budgets;

  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  /** Each stopped observation's high-cardinality key values, in the order they stopped. */
  private final List<Map<String, String>> stopped = new ArrayList<>();
  private final ObservationRegistry registry = ObservationRegistry.create();
  private Connection keepAlive;
  private RateLimitedDataSource sluice;
  private String name;

  @BeforeEach
  void start() throws SQLException {
    registry.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStop(Observation.Context context) {
        Map<String, String> values = new TreeMap<>();
        for (KeyValue kv : context.getHighCardinalityKeyValues()) {
          values.put(kv.getKey(), kv.getValue());
        }
        stopped.add(values);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    name = "observed-" + ++budgets;
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two')");
    }
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.reserve", "0"); // every priority sees the one permit
    sluice = RateLimitedDataSource.builder(AnswersSeenTest.plain(url)).name(name)
        .budget(0.01).burst(1).breakerFlag(flag).properties(p).ticker(ticker).build();
  }

  @AfterEach
  void stop() throws Exception {
    sluice.close();
    keepAlive.close();
  }

  @Test
  void admittedAnsweredRefusedRead_eachObservationCarriesTheDecision() throws Exception {
    flag.trip();
    assertThat(observed(1)).isEqualTo("one"); // the one permit; kept
    ticker.advance(Duration.ofMillis(1500));
    assertThat(observed(1)).isEqualTo("one"); // refused, answered from the kept result
    assertThatThrownBy(() -> observed(2)).isInstanceOf(RateLimitExceededException.class);

    assertThat(stopped).hasSize(3);
    assertThat(stopped.get(0)).containsEntry("sluice.decision", "admitted")
        .containsEntry("sluice.budget", name).containsEntry("sluice.priority", "normal")
        .doesNotContainKeys("error.type", "sluice.limit", "sluice.answer.age_ms");
    assertThat(stopped.get(1)).containsEntry("sluice.decision", "answered")
        .containsEntry("sluice.answer.age_ms", "1500").doesNotContainKey("error.type");
    assertThat(stopped.get(2)).containsEntry("sluice.decision", "refused")
        .containsEntry("sluice.limit", "rate")
        .containsEntry("error.type", RateLimitExceededException.class.getName());
  }

  @Test
  void flagClosed_observationCarriesNothingOfSluice() throws Exception {
    assertThat(observed(1)).isEqualTo("one");
    assertThat(stopped).hasSize(1);
    assertThat(stopped.get(0).keySet()).noneMatch(k -> k.startsWith("sluice."));
  }

  @Test
  void recordingOpenTelemetrySpan_takesTheDecision_observationLeftAlone() throws Exception {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    try (OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider
        .builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build()) {
      flag.trip();
      Span span = otel.getTracer("test").spanBuilder("SELECT items").startSpan();
      try (Scope s = span.makeCurrent()) {
        assertThat(observed(2)).isEqualTo("two");
      } finally {
        span.end();
      }
      assertThat(spans.getFinishedSpanItems().get(0).getAttributes()
          .get(AttributeKey.stringKey("sluice.decision"))).isEqualTo("admitted");
      assertThat(stopped.get(0).keySet()).noneMatch(k -> k.startsWith("sluice."));
    }
  }

  /** A read by text (kept from its first execution) inside an observation of the application's. */
  private String observed(int id) throws SQLException {
    Observation observation = Observation.start("items.read", registry);
    try (Observation.Scope scope = observation.openScope();
        Connection c = sluice.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name FROM items WHERE id = " + id)) {
      String found = null;
      while (rs.next()) {
        found = rs.getString("name");
      }
      return found;
    } finally {
      observation.stop();
    }
  }
}
