package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.instrumentation.jdbc.datasource.JdbcTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sluice's decision on the spans an application already has (issue 40, item 1): OpenTelemetry's
 * JDBC instrumentation ({@code JdbcTelemetry}, as the agent does it) wraps Sluice over a real H2,
 * its spans go to the SDK's in-memory exporter, and each JDBC span of a read made while the
 * cache breaker is open carries {@code sluice.decision} and what goes with it. The bucket runs on
 * a fake clock (budget 0.01/s, burst 1: the next permit comes 100 s of fake time later), so an
 * answer's age is fake time too.
 */
class SpanDecisionsTest {
  private static final String BY_ID = "SELECT id, name FROM items WHERE id = ?";
  private static final AttributeKey<String> DECISION = AttributeKey.stringKey("sluice.decision");
  private static final AttributeKey<String> BUDGET = AttributeKey.stringKey("sluice.budget");
  private static final AttributeKey<String> PRIORITY = AttributeKey.stringKey("sluice.priority");
  private static final AttributeKey<String> LIMIT = AttributeKey.stringKey("sluice.limit");
  private static final AttributeKey<Long> AGE = AttributeKey.longKey("sluice.answer.age_ms");
  private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  private static int budgets;

  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private OpenTelemetrySdk otel;
  private Connection keepAlive;
  private RateLimitedDataSource sluice;
  private DataSource traced;
  private String name;

  @BeforeEach
  void start() throws SQLException {
    otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
    name = "spans-" + ++budgets;
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two')");
    }
  }

  private void build(String... settings) {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.reserve", "0"); // every priority sees the one permit
    for (int i = 0; i < settings.length; i += 2) {
      p.setProperty(settings[i], settings[i + 1]);
    }
    sluice = RateLimitedDataSource.builder(AnswersSeenTest.plain(keepAliveUrl())).name(name)
        .budget(0.01).burst(1).breakerFlag(flag).properties(p).ticker(ticker).build();
    traced = JdbcTelemetry.create(otel).wrap(sluice);
  }

  private String keepAliveUrl() {
    return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
  }

  @AfterEach
  void stop() throws Exception {
    if (sluice != null) {
      sluice.close();
    }
    keepAlive.close();
    otel.close();
  }

  @Test
  void admittedAnsweredRefusedRead_eachJdbcSpanCarriesTheDecision() throws Exception {
    build();
    flag.trip();
    // the opening is seen by the first call's door (a look at the figures changes nothing); a
    // read sent as text has no parameters recorded too late, so the first read is kept
    // (AnswersSeenTest)
    assertThat(sluice.stats().limiting()).isTrue();
    assertThat(readText(1)).isEqualTo("one"); // the one permit; kept
    ticker.advance(Duration.ofMillis(1200));
    assertThat(readText(1)).isEqualTo("one"); // refused, answered from the kept result
    assertThatThrownBy(() -> read(2)).isInstanceOf(RateLimitExceededException.class);

    List<Attributes> reads = readSpans();
    assertThat(reads).hasSize(3);
    assertThat(reads.get(0).get(DECISION)).isEqualTo("admitted");
    assertThat(reads.get(0).get(BUDGET)).isEqualTo(name);
    assertThat(reads.get(0).get(PRIORITY)).isEqualTo("normal");
    assertThat(reads.get(0).get(ERROR_TYPE)).isNull();

    assertThat(reads.get(1).get(DECISION)).isEqualTo("answered");
    assertThat(reads.get(1).get(AGE)).isEqualTo(1200L);
    assertThat(reads.get(1).get(ERROR_TYPE)).as("an answer is no error").isNull();
    assertThat(reads.get(1).get(LIMIT)).isNull();

    assertThat(reads.get(2).get(DECISION)).isEqualTo("refused");
    assertThat(reads.get(2).get(LIMIT)).isEqualTo("rate");
    assertThat(reads.get(2).get(ERROR_TYPE)).isEqualTo(RateLimitExceededException.class.getName());
    assertThat(reads.get(2).get(PRIORITY)).isEqualTo("normal");
  }

  @Test
  void flagClosed_spanCarriesNothingOfSluice() throws Exception {
    build();
    assertThat(read(1)).isEqualTo("one");
    List<Attributes> reads = readSpans();
    assertThat(reads).hasSize(1);
    assertThat(reads.get(0).asMap().keySet()).noneMatch(k -> k.getKey().startsWith("sluice."));
  }

  @Test
  void criticalRead_priorityOnTheSpan() throws Exception {
    build();
    flag.trip();
    assertThat(Priority.CRITICAL.call(() -> read(2))).isEqualTo("two");
    assertThat(readSpans().get(0).get(PRIORITY)).isEqualTo("critical");
  }

  @Test
  void shadowMode_wouldBeRefused_shadowRefused() throws Exception {
    build("sluice.mode", "shadow");
    flag.trip();
    read(1);
    read(2); // enforce mode would refuse it
    List<Attributes> reads = readSpans();
    assertThat(reads.get(0).get(DECISION)).isEqualTo("admitted");
    assertThat(reads.get(1).get(DECISION)).isEqualTo("shadow_refused");
    assertThat(reads.get(1).get(ERROR_TYPE)).isNull();
  }

  /** A transaction's door is refused before any JDBC span: the decision goes on the caller's. */
  @Test
  void transactionRefused_decisionOnTheCurrentSpan() throws Exception {
    build();
    flag.trip();
    read(1); // spends the permit
    Span request = otel.getTracer("test").spanBuilder("GET /orders").startSpan();
    try (Scope s = request.makeCurrent(); Connection c = sluice.getConnection()) {
      assertThatThrownBy(() -> c.setAutoCommit(false))
          .isInstanceOf(RateLimitExceededException.class);
    } finally {
      request.end();
    }
    SpanData span = spans.getFinishedSpanItems().stream()
        .filter(d -> d.getName().equals("GET /orders")).findFirst().orElseThrow();
    assertThat(span.getAttributes().get(DECISION)).isEqualTo("refused");
    assertThat(span.getAttributes().get(ERROR_TYPE))
        .isEqualTo(RateLimitExceededException.class.getName());
  }

  private String read(int id) throws SQLException {
    try (Connection c = traced.getConnection(); PreparedStatement ps = c.prepareStatement(BY_ID)) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        String found = null;
        while (rs.next()) {
          found = rs.getString("name");
        }
        return found;
      }
    }
  }

  private String readText(int id) throws SQLException {
    try (Connection c = traced.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name FROM items WHERE id = " + id)) {
      String found = null;
      while (rs.next()) {
        found = rs.getString("name");
      }
      return found;
    }
  }

  /** The attributes of the JDBC client spans of the reads, in the order they ended. */
  private List<Attributes> readSpans() {
    return spans.getFinishedSpanItems().stream()
        .filter(d -> d.getKind() == SpanKind.CLIENT)
        .filter(d -> d.getAttributes().asMap().values().stream()
            .anyMatch(v -> String.valueOf(v).contains("items")))
        .map(SpanData::getAttributes).toList();
  }
}
