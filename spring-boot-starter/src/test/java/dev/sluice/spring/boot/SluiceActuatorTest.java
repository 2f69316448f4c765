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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
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
import org.springframework.context.ApplicationContext;
import redis.clients.jedis.Jedis;

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

  /**
   * Issue 39 item 6: the endpoint and the meters show sharing's figures and why reads were not
   * answered, each from a real situation: this application and a second instance of the budget
   * share kept results through a real Redis, an attacker publishes on the channel, and a read in
   * a transaction is not eligible.
   */
  @Test
  void endpointAndMeters_showSharingAndWhyReadsWereNotAnswered() throws Exception {
    String key = "test-share-key-0123456789abcdef0123";
    try (EmbeddedRedis redis = EmbeddedRedis.start()) {
      runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
              CompositeMeterRegistryAutoConfiguration.class,
              SimpleMetricsExportAutoConfiguration.class))
          .withPropertyValues("management.endpoints.web.exposure.include=sluice",
              "sluice.redis=" + redis.uri(), "sluice.stale.max-age=30s",
              "sluice.stale.share=true", "sluice.stale.share-key=" + key)
          .run(context -> {
            SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
            DataSource dataSource = context.getBean(DataSource.class);
            Map<String, Object> before = endpoint.budget("users-db");
            assertThat(before).containsEntry("sharedSent", 0L).containsEntry("sharedHeard", 0L);
            assertThat(before.get("sharedDropped")).isEqualTo(reasons(0, "unsigned",
                "unknown-key", "bad-signature", "expired", "replayed", "environment",
                "undecodable"));
            assertThat(before.get("notEligible")).isEqualTo(reasons(0, "transaction",
                "locking", "side-effect", "session", "parameters", "statement", "type", "rows",
                "memory", "unfinished"));
            try (RateLimitedDataSource other = otherInstance(context, redis, key);
                Jedis attacker = redis.client()) {
              String channel = "sluice:users-db:answers";
              await().atMost(Duration.ofSeconds(10))
                  .until(() -> attacker.pubsubNumSub(channel).get(channel) >= 2);
              endpoint.change("users-db", "open", null, null, null);
              read(dataSource, "SELECT 1"); // limiting here: kept, sent
              read(other, "SELECT 2"); // limiting there: kept, sent, heard here
              read(dataSource, "SELECT 3"); // kept, sent, heard there
              // the other hears one or both of this one's results: it ignores what it hears
              // until its own read has seen the flag open, and the sending thread may be later
              await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(other.stats().sharedHeard()).as("heard there").isPositive();
                assertThat(endpoint.budget("users-db")).containsEntry("sharedSent", 2L)
                    .containsEntry("sharedHeard", 1L);
              });
              attacker.publish(channel, "not a message of Sluice");
              await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                  assertThat(byReason(endpoint.budget("users-db"), "sharedDropped"))
                      .containsEntry("unsigned", 1L));
            }
            try (Connection connection = dataSource.getConnection()) {
              connection.setAutoCommit(false);
              read(connection, "SELECT 4"); // in a transaction: not eligible
              connection.commit();
            }

            Map<String, Object> shown = endpoint.budget("users-db");
            assertThat(shown).containsEntry("sharedSent", 2L).containsEntry("sharedHeard", 1L);
            Map<String, Long> dropped = reasons(0, "unsigned", "unknown-key", "bad-signature",
                "expired", "replayed", "environment", "undecodable");
            dropped.put("unsigned", 1L);
            assertThat(byReason(shown, "sharedDropped")).containsExactlyEntriesOf(dropped);
            Map<String, Long> notEligible = reasons(0, "transaction", "locking", "side-effect",
                "session", "parameters", "statement", "type", "rows", "memory", "unfinished");
            notEligible.put("transaction", 1L);
            assertThat(byReason(shown, "notEligible")).containsExactlyEntriesOf(notEligible);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("sluice.answers.shared").tag("what", "sent")
                .functionCounter().count()).isEqualTo(2);
            assertThat(registry.get("sluice.answers.shared.dropped").tag("reason", "unsigned")
                .functionCounter().count()).isEqualTo(1);
            assertThat(registry.get("sluice.answers.ineligible").tag("reason", "transaction")
                .functionCounter().count()).isEqualTo(1);
          });
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Long> byReason(Map<String, Object> shown, String field) {
    return (Map<String, Long>) shown.get(field);
  }

  /** Each reason with {@code count}, in the order given (the endpoint's own order). */
  private static Map<String, Long> reasons(long count, String... reasons) {
    Map<String, Long> byReason = new LinkedHashMap<>();
    for (String reason : reasons) {
      byReason.put(reason, count);
    }
    return byReason;
  }

  /** A second instance of the budget {@code users-db}, on the same flag, Redis and key. */
  private static RateLimitedDataSource otherInstance(ApplicationContext context,
      EmbeddedRedis redis, String key) {
    Properties p = new Properties();
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.stale.max-age", "30s");
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.share-key", key);
    p.setProperty("sluice.recovery.settle", "0");
    return RateLimitedDataSource.builder(Fixtures.pool("other")).name("users-db").budget(500)
        .breakerFlag(context.getBean(BreakerFlag.Manual.class)).properties(p).build();
  }

  private static void read(DataSource dataSource, String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      read(connection, sql);
    }
  }

  private static void read(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        java.sql.ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        rs.getInt(1);
      }
    }
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
