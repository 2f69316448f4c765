package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

class SluiceMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double gauge(String name, String budget) {
    Gauge gauge = registry.find(name).tag("name", budget).gauge();
    assertThat(gauge).as(name).isNotNull();
    return gauge.value();
  }

  private double flagState(String budget, String state) {
    Gauge gauge = registry.find("sluice.flag.state").tag("name", budget).tag("state", state)
        .gauge();
    assertThat(gauge).as("sluice.flag.state " + state).isNotNull();
    return gauge.value();
  }

  private double counter(String name, String budget) {
    FunctionCounter counter = registry.find(name).tag("name", budget).functionCounter();
    assertThat(counter).as(name).isNotNull();
    return counter.count();
  }

  @Test
  void bindTo_dataSource_registersEveryMeterTaggedWithTheBudgetName() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("metrics-all").budget(100).instances(4)
        .burst(3).build()) {

      SluiceMetrics.of(ds).bindTo(registry);

      assertThat(counter("sluice.calls.admitted", "metrics-all")).isZero();
      assertThat(counter("sluice.calls.rejected", "metrics-all")).isZero();
      assertThat(counter("sluice.calls.forced", "metrics-all")).isZero();
      assertThat(counter("sluice.calls.shadow.rejected", "metrics-all")).isZero();
      assertThat(gauge("sluice.shadow", "metrics-all")).isZero();
      assertThat(gauge("sluice.limiting", "metrics-all")).isEqualTo(1); // always open
      assertThat(gauge("sluice.recovering", "metrics-all")).isZero();
      assertThat(gauge("sluice.share", "metrics-all")).isEqualTo(25);
      assertThat(gauge("sluice.budget", "metrics-all")).isEqualTo(100);
      assertThat(gauge("sluice.instances", "metrics-all")).isEqualTo(4);
      assertThat(gauge("sluice.burst", "metrics-all")).isEqualTo(3);
      assertThat(gauge("sluice.instances.live", "metrics-all")).isZero(); // no registry
      assertThat(gauge("sluice.flag.read.age", "metrics-all")).isZero(); // a local flag
      assertThat(flagState("metrics-all", "open")).isEqualTo(1);
      assertThat(flagState("metrics-all", "closed")).isZero();
      assertThat(flagState("metrics-all", "unreachable")).isZero();
      assertThat(gauge("sluice.concurrency.inflight", "metrics-all")).isZero(); // no cap
      assertThat(gauge("sluice.concurrency.limit", "metrics-all")).isZero();
      assertThat(registry.getMeters()).hasSize(59); // 49, and ten reasons not eligible
      assertThat(registry.find("sluice.answers.ineligible").functionCounters()).hasSize(10);
    }
  }

  @Test
  void concurrencyGauges_withACap_showTheShareAndWhatIsInFlight() throws Exception {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.concurrency", "8");
    p.setProperty("sluice.instances", "2");
    javax.sql.DataSource statements = (javax.sql.DataSource) java.lang.reflect.Proxy
        .newProxyInstance(getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class},
            (proxy, method, args) -> LimiterConcurrencyTest.driverConnection(() -> null));
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(statements)
        .name("metrics-cc").properties(p).build()) {
      SluiceMetrics.of(ds).bindTo(registry);
      java.sql.Connection connection = ds.getConnection();
      connection.createStatement().execute("select 1"); // released when it returns
      assertThat(gauge("sluice.concurrency.limit", "metrics-cc")).isEqualTo(4);
      assertThat(gauge("sluice.concurrency.inflight", "metrics-cc")).isZero();
      assertThat(ds.management().getConcurrencyLimit()).isEqualTo(4);
      assertThat(ds.stats().admitted()).isEqualTo(1);
    }
  }

  @Test
  void meters_whileLimiting_followTheLimiter() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("metrics-follow", flag)) {
      SluiceMetrics.of(ds).bindTo(registry);
      assertThat(gauge("sluice.limiting", "metrics-follow")).isZero();
      assertThat(flagState("metrics-follow", "closed")).isEqualTo(1);

      flag.trip();
      ds.getConnection().close();
      assertThrows(RateLimitExceededException.class, ds::getConnection);
      assertThrows(RateLimitExceededException.class, ds::getConnection);

      assertThat(gauge("sluice.limiting", "metrics-follow")).isEqualTo(1);
      assertThat(flagState("metrics-follow", "open")).isEqualTo(1);
      assertThat(flagState("metrics-follow", "closed")).isZero();
      assertThat(counter("sluice.calls.admitted", "metrics-follow")).isEqualTo(1);
      assertThat(counter("sluice.calls.rejected", "metrics-follow")).isEqualTo(2);

      flag.reset();
      assertThat(gauge("sluice.limiting", "metrics-follow")).isEqualTo(1); // the cap holds
      assertThat(gauge("sluice.recovering", "metrics-follow")).isEqualTo(1);
      assertThat(flagState("metrics-follow", "closed")).isEqualTo(1);
      ds.limiter().hold().endRecovery("a test");
      assertThat(gauge("sluice.limiting", "metrics-follow")).isZero();
      assertThat(gauge("sluice.recovering", "metrics-follow")).isZero();
    }
  }

  @Test
  void priorityMeters_eachPriorityCountedUnderItsTag() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("metrics-prio", flag)) {
      SluiceMetrics.of(ds).bindTo(registry);
      flag.trip();
      Priority.CRITICAL.call(() -> {
        ds.getConnection().close();
        return null;
      });
      assertThrows(RateLimitExceededException.class, ds::getConnection);
      assertThrows(RateLimitExceededException.class, ds::getConnection);

      assertThat(byPriority("sluice.priority.calls.admitted", "critical")).isEqualTo(1);
      assertThat(byPriority("sluice.priority.calls.admitted", "normal")).isZero();
      assertThat(byPriority("sluice.priority.calls.rejected", "normal")).isEqualTo(2);
      assertThat(byPriority("sluice.priority.calls.rejected", "sheddable")).isZero();
      assertThat(counter("sluice.calls.admitted", "metrics-prio")).as("the untagged total").isEqualTo(1);
      assertThat(counter("sluice.calls.rejected", "metrics-prio")).isEqualTo(2);

      ds.limiter().counts().setShadow(true, "a test");
      Priority.SHEDDABLE.call(() -> {
        ds.getConnection().close();
        return null;
      });
      assertThat(byPriority("sluice.priority.calls.shadow.rejected", "sheddable")).isEqualTo(1);
      assertThat(counter("sluice.calls.shadow.rejected", "metrics-prio")).isEqualTo(1);
      assertThat(gauge("sluice.shadow", "metrics-prio")).isEqualTo(1);
    }
  }

  private double byPriority(String name, String priority) {
    FunctionCounter counter = registry.find(name).tag("name", "metrics-prio")
        .tag("priority", priority).functionCounter();
    assertThat(counter).as(name + " " + priority).isNotNull();
    return counter.count();
  }

  @Test
  void gauges_budgetChangedAtRuntime_showTheNewShare() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("metrics-change").budget(100).instances(2)
        .build()) {
      SluiceMetrics.of(ds).bindTo(registry);

      ds.limiter().share().setBudget(300, "a test");

      assertThat(gauge("sluice.budget", "metrics-change")).isEqualTo(300);
      assertThat(gauge("sluice.share", "metrics-change")).isEqualTo(150);
    }
  }

  @Test
  void ofDriver_budgetOfThatName_followsItAndReadsNaNWithoutOne() throws Exception {
    SluiceMetrics.ofDriver("metrics-driver").bindTo(registry);
    assertThat(gauge("sluice.share", "metrics-driver")).isNaN();
    assertThat(counter("sluice.calls.admitted", "metrics-driver")).isNaN();

    try (Connection c = DriverManager.getConnection("jdbc:sluice:h2:mem:metrics-driver;"
        + "sluice.name=metrics-driver;sluice.budget=40;sluice.instances=2", "sa", "")) {
      assertThat(c.isValid(1)).isTrue();

      assertThat(gauge("sluice.share", "metrics-driver")).isEqualTo(20);
      assertThat(gauge("sluice.budget", "metrics-driver")).isEqualTo(40);
      assertThat(gauge("sluice.limiting", "metrics-driver")).isEqualTo(1);
      assertThat(counter("sluice.calls.rejected", "metrics-driver")).isZero();
    }
  }

  @Test
  void ofDriver_badName_namesTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SluiceMetrics.ofDriver("no spaces"));

    assertThat(e.getMessage()).startsWith("sluice.name must be");
  }

  @Test
  void withTags_extraTags_areAddedToEveryMeter() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("metrics-tags").budget(100).build()) {

      SluiceMetrics.of(ds).withTags(Tags.of("region", "eu")).bindTo(registry);

      assertThat(registry.getMeters()).hasSize(59).allSatisfy(meter -> {
        assertThat(meter.getId().getTag("name")).isEqualTo("metrics-tags");
        assertThat(meter.getId().getTag("region")).isEqualTo("eu");
      });
    }
  }
}
