package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.BreakerFlag;
import dev.sluice.FlagState;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.RateLimitExceededException;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Meters, the {@code sluice} endpoint and the health contributor. */
class SluiceActuatorTest {

  private final ApplicationContextRunner runner = Fixtures.runner()
      .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class,
          SluiceAutoConfigurationTest.ManualFlag.class)
      .withPropertyValues("sluice.budget=500", "sluice.name=users-db",
          "sluice.recovery.settle=0"); // these tests follow the flag itself

  @Test
  void micrometer_metersBoundToTheApplicationsRegistry() {
    runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class))
        .run(context -> {
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get("sluice.calls.rejected").tag("name", "users-db")
              .functionCounter().count()).isZero();
          assertThat(registry.get("sluice.budget").tag("name", "users-db").gauge().value())
              .isEqualTo(500);
        });
  }

  @Test
  void withoutActuator_noObservers_stillWraps() {
    runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(SluiceHealthIndicator.class)
              .doesNotHaveBean(SluiceEndpoint.class);
          assertThat(Fixtures.throughSluice(context.getBean("dataSource"))).isTrue();
        });
  }

  @Test
  void endpoint_notExposed_noBean() {
    runner.run(context -> assertThat(context).doesNotHaveBean(SluiceEndpoint.class));
  }

  @Test
  void endpoint_showsEachBudget() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=sluice").run(context -> {
      SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);

      Map<String, Map<String, Object>> all = endpoint.budgets();

      assertThat(all).containsOnlyKeys("users-db");
      assertThat(all.get("users-db")).containsEntry("budget", 500.0)
          .containsEntry("limiting", false).containsEntry("scope", "statement")
          .containsEntry("flagManual", true).containsEntry("rejected", 0L);
      assertThat(endpoint.budget("nobody")).isNull();
    });
  }

  @Test
  void endpoint_tripsAndResetsTheManualFlag_changesTheBudget() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=sluice").run(context -> {
      SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
      RateLimitedDataSource sluice = Fixtures.sluice(context);

      assertThat(endpoint.change("users-db", "open", 200.0, null, null))
          .containsEntry("limiting", true).containsEntry("budget", 200.0);
      assertThat(sluice.stats().limiting()).isTrue();
      assertThat(sluice.stats().budget()).isEqualTo(200);

      endpoint.change("users-db", "closed", null, null, null);
      assertThat(sluice.stats().limiting()).isFalse();
      assertThat(endpoint.change("nobody", "open", null, null, null)).isNull();
    });
  }

  @Test
  void endpoint_switchesShadowAndEnforce_showsShadowRejected() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=sluice").run(context -> {
      SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
      DataSource dataSource = context.getBean(DataSource.class);
      endpoint.change("users-db", "open", 1.0, "shadow", null); // a one-permit bucket

      for (int i = 0; i < 5; i++) {
        select(dataSource); // shadow: none refused
      }

      Map<String, Object> shown = endpoint.budget("users-db");
      assertThat(shown).containsEntry("mode", "shadow");
      assertThat((Long) shown.get("shadowRejected")).isPositive();
      assertThat(endpoint.change("users-db", null, null, "ENFORCE", null))
          .containsEntry("mode", "enforce");
      assertThatThrownBy(() -> select(dataSource)).isInstanceOf(RateLimitExceededException.class);
    });
  }

  @Test
  void endpoint_recoveryEnd_endsItAtOnce() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=sluice",
        "sluice.recovery.settle=1h").run(context -> {
          SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
          endpoint.change("users-db", "open", null, null, null);
          select(context.getBean(DataSource.class));
          assertThat(endpoint.change("users-db", "closed", null, null, null))
              .as("a closed flag starts a recovery").containsEntry("recovering", true)
              .containsEntry("limiting", true);

          assertThat(endpoint.change("users-db", null, null, null, "end"))
              .containsEntry("recovering", false).containsEntry("limiting", false);
        });
  }

  @Test
  void endpoint_badModeOrRecovery_namesWhatIsWrong_changesNothing() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=sluice").run(context -> {
      SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);

      assertThatThrownBy(() -> endpoint.change("users-db", null, null, "loud", null))
          .isInstanceOf(InvalidEndpointRequestException.class)
          .hasMessage("sluice.mode must be `enforce` or `shadow`, but was \"loud\"");
      assertThatThrownBy(() -> endpoint.change("users-db", "open", 200.0, "shadow", "later"))
          .isInstanceOf(InvalidEndpointRequestException.class)
          .hasMessage("recovery must be `end`, but was \"later\"");
      assertThat(endpoint.budget("users-db")).containsEntry("mode", "enforce")
          .containsEntry("budget", 500.0).containsEntry("limiting", false);
    });
  }

  @Test
  void endpoint_badRequest_namesWhatIsWrong() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=sluice").run(context -> {
      SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);

      assertThatThrownBy(() -> endpoint.change("users-db", "ajar", null, null, null))
          .isInstanceOf(InvalidEndpointRequestException.class)
          .hasMessage("flag must be `open` or `closed`, but was \"ajar\"");
      assertThatThrownBy(() -> endpoint.change("users-db", null, -1.0, null, null))
          .isInstanceOf(InvalidEndpointRequestException.class)
          .hasMessageStartingWith("sluice.budget must be a positive number");
    });
  }

  @Test
  void endpoint_flagNotManual_tripRefusedSayingWhere() {
    Fixtures.runner().withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
        .withPropertyValues("sluice.budget=500", "sluice.name=users-db",
            "management.endpoints.web.exposure.include=sluice")
        .run(context -> {
          SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
          assertThatThrownBy(() -> endpoint.change("users-db", "open", 200.0, "shadow", null))
              .isInstanceOf(InvalidEndpointRequestException.class)
              .hasMessageContaining("configure sluice.flag=manual");
          assertThat(endpoint.budget("users-db")).as("nothing changed")
              .containsEntry("budget", 500.0).containsEntry("mode", "enforce");
        });
  }

  @Test
  void health_flagInMemory_up() {
    runner.run(context -> {
      context.getBean(BreakerFlag.Manual.class).trip(); // limiting is not a failure
      Health health = context.getBean("sluiceHealthIndicator", HealthIndicator.class).health();

      assertThat(health.getStatus()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsKey("users-db");
    });
  }

  @Test
  void health_redisUnreachable_unknownNeverDown_aggregateStaysUp() throws IOException {
    Fixtures.runner().withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
        .withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
            HealthEndpointAutoConfiguration.class))
        .withPropertyValues("sluice.budget=500", "sluice.name=users-db",
            "sluice.redis=redis://127.0.0.1:" + closedPort(), "sluice.redis.refresh=50ms",
            "sluice.redis.timeout=50ms")
        .run(context -> {
          RateLimitedDataSource sluice = Fixtures.sluice(context);
          await().atMost(Duration.ofSeconds(10))
              .until(() -> sluice.stats().flagState() == FlagState.UNREACHABLE);

          Health health = context.getBean("sluiceHealthIndicator", HealthIndicator.class).health();

          assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
          assertThat(health.getDetails().get("users-db").toString())
              .contains("flagState=unreachable", "limiting=true");
          assertThat(context.getBean(HealthEndpoint.class).health().getStatus())
              .isEqualTo(Status.UP);
        });
  }

  /**
   * The endpoint, the health contributor and every meter observe: read again and again after an
   * outage's flag closed, they never begin the recovery that the next call begins (with the
   * settle of an hour, nothing else could end or begin it meanwhile).
   */
  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void endpointHealthAndMeters_readAfterTheFlagCloses_beginNoRecovery(CapturedOutput output) {
    runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class, HealthContributorAutoConfiguration.class,
            HealthEndpointAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=sluice",
            "sluice.recovery.settle=1h")
        .run(context -> {
          SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
          HealthIndicator health = context.getBean("sluiceHealthIndicator", HealthIndicator.class);
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          DataSource dataSource = context.getBean(DataSource.class);
          BreakerFlag.Manual flag = context.getBean(BreakerFlag.Manual.class);
          flag.trip();
          select(dataSource); // a call sees the outage
          flag.reset();
          for (int i = 0; i < 200; i++) {
            assertThat(endpoint.budget("users-db")).as("what the next call will find")
                .containsEntry("recovering", true);
            assertThat(health.health().getDetails().get("users-db").toString())
                .contains("limiting=true");
            for (Meter meter : registry.getMeters()) {
              meter.measure().forEach(Measurement::getValue);
            }
          }
          String cold = "users-db - the cache breaker flag is closed, but the cache is likely"
              + " cold";
          assertThat(output.getAll()).as("no read began the recovery").doesNotContain(cold);
          select(dataSource);
          assertThat(output.getAll()).as("the next call began it").contains(cold);
        });
  }

  @Test
  void health_disabledByManagementProperty_noBean() {
    runner.withPropertyValues("management.health.sluice.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("sluiceHealthIndicator"));
  }

  @Test
  void endpointAndMeters_showTheAnswers_howOldAndWhatIsKept() {
    runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=sluice",
            "sluice.stale.max-age=30s")
        .run(context -> {
          SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
          DataSource dataSource = context.getBean(DataSource.class);
          assertThat(endpoint.budget("users-db")).containsEntry("answered", 0L)
              .containsEntry("answersKept", 0).containsEntry("answerAgeP99Millis", -1L);
          endpoint.change("users-db", "open", 2.0, null, null); // a small bucket
          // the bucket's permits go to the database; once one read is refused, the next admitted
          // one is kept (2 permits/s) and the refused ones after it are answered from it
          await().atMost(Duration.ofSeconds(20)).until(() -> {
            query(dataSource);
            return (Long) endpoint.budget("users-db").get("answered") >= 3;
          });

          Map<String, Object> shown = endpoint.budget("users-db");
          assertThat((Long) shown.get("joined")).isZero();
          assertThat((Integer) shown.get("answersKept")).isEqualTo(1);
          assertThat((Long) shown.get("answersKeptBytes")).isPositive();
          assertThat((Long) shown.get("answerAgeP99Millis")).isBetween(0L, 30_000L);
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get("sluice.answers").tag("name", "users-db").tag("how", "recent")
              .functionCounter().count()).isEqualTo(((Long) shown.get("answered")).doubleValue());
          assertThat(registry.get("sluice.answers.kept").tag("name", "users-db").gauge().value())
              .isEqualTo(1);
        });
  }

  /** A read answers may answer: {@code executeQuery}, read to its end. */
  private static void query(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        java.sql.ResultSet rs = statement.executeQuery("SELECT 1")) {
      while (rs.next()) {
        rs.getInt(1);
      }
    } catch (RateLimitExceededException refused) {
      // refused, not answered: the next try
    }
  }

  private static void select(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("select 1");
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
