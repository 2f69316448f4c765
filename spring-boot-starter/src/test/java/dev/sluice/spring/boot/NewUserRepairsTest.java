package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.spring.boot.Fixtures.CountingPool;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.stereotype.Component;

/**
 * Issue 21: what a new user of the starter met, each in a real Spring Boot application context.
 */
@ExtendWith(OutputCaptureExtension.class)
class NewUserRepairsTest {

  // --- item 6: an application that injects HikariDataSource ---

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class PoolTuner {
    @Component
    static class Tuning {
      final HikariDataSource pool;
      final DataSource dataSource;

      Tuning(HikariDataSource pool, DataSource dataSource) {
        this.pool = pool;
        this.dataSource = dataSource;
      }
    }
  }

  /**
   * Item 6: adding {@code sluice.*} properties broke a start that injected {@code HikariDataSource}
   * ({@code BeanNotOfRequiredTypeException}). Now the bean keeps its class, and both injections
   * get Sluice in front: the pool's own methods still reach the pool.
   */
  @Test
  void injectsHikariDataSource_starts_andBothInjectionsGoThroughSluice() throws SQLException {
    try (ConfigurableApplicationContext context = start(PoolTuner.class,
        "spring.datasource.url=jdbc:h2:mem:tuner", "sluice.budget=1", "sluice.burst=1",
        "sluice.name=tuner")) {
      PoolTuner.Tuning tuning = context.getBean(PoolTuner.Tuning.class);
      assertThat(tuning.pool).isSameAs(tuning.dataSource);
      assertThat(tuning.pool.isWrapperFor(RateLimitedDataSource.class)).isTrue();

      tuning.pool.setMaximumPoolSize(3); // tuning at runtime reaches the pool
      HikariDataSource raw = tuning.pool.unwrap(HikariDataSource.class);
      assertThat(raw).isNotSameAs(tuning.pool);
      assertThat(raw.getMaximumPoolSize()).isEqualTo(3);

      select(tuning.pool); // the burst's one permit
      assertThat(tuning.pool.getHikariPoolMXBean().getTotalConnections()).as("the pool's MXBean")
          .isPositive();
      assertThatThrownBy(() -> select(tuning.pool)).as("charged through the Hikari-typed bean")
          .isInstanceOf(RateLimitExceededException.class);
      assertThatThrownBy(() -> select(tuning.dataSource))
          .isInstanceOf(RateLimitExceededException.class);
      assertThat(tuning.pool.unwrap(RateLimitedDataSource.class).stats().rejected()).isEqualTo(2);
    }
  }

  // --- item 7: a proxy bean over the pool bean ---

  @Configuration(proxyBeanMethods = false)
  static class LazyOverPool {
    @Bean
    CountingPool pool() {
      return Fixtures.pool("lazy");
    }

    @Bean
    @Primary
    LazyConnectionDataSourceProxy dataSource(@Qualifier("pool") DataSource pool) {
      return new LazyConnectionDataSourceProxy(pool);
    }
  }

  /**
   * Item 7: a {@code LazyConnectionDataSourceProxy} over the Hikari bean was wrapped too, so one
   * statement was admitted by two budgets, and with a global {@code sluice.name} the start
   * failed. A chain of {@code DataSource} beans is now wrapped once, at the pool.
   */
  @Test
  void lazyProxyOverThePoolBean_globalName_startsAndChargesOnce() {
    Fixtures.runner().withUserConfiguration(LazyOverPool.class)
        .withPropertyValues("sluice.budget=100", "sluice.name=users-db")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean("dataSource")).isInstanceOf(
              LazyConnectionDataSourceProxy.class);
          assertThat(new Budgets(context.getBeanFactory()).all()).containsOnlyKeys("users-db");

          select(context.getBean(DataSource.class));

          RateLimitedDataSource sluice = Fixtures.sluice(context, "pool");
          assertThat(sluice.stats().admitted()).as("one statement, one permit").isEqualTo(1);
        });
  }

  // --- item 3: no DataSource ---

  /** Item 3: with no {@code DataSource} bean, a missing budget and misfit settings started. */
  @Test
  void noDataSource_missingBudgetOrMisfitSettings_stopTheStart() {
    Fixtures.runner().withPropertyValues("sluice.name=users-db").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.budget must be a positive number, but was missing"));
    Fixtures.runner().withPropertyValues("sluice.budget=5", "sluice.instances=redis").run(
        context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.instances=redis needs sluice.redis"));
    Fixtures.runner().withPropertyValues("sluice.budget=5", "sluice.concurrency.max=3").run(
        context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.concurrency.max is set, but sluice.concurrency is"));
    Fixtures.runner().withPropertyValues("sluice.budget=5", "sluice.circuit-breaker=cache",
        "sluice.circuit-breaker.publish=true").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.circuit-breaker.publish needs sluice.redis"));
  }

  @Test
  void noDataSource_perBeanSettingsMustBeWholeWithTheTopLevelOnes() {
    Fixtures.runner().withPropertyValues("sluice.name=x", "sluice.datasources.reports.budget=5",
        "sluice.datasources.reports.instances=redis").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.instances=redis needs sluice.redis"));
  }

  // --- item 17 beside 13: the driver's own key in Spring Boot ---

  @Test
  void driverOnlyKey_stopsTheStartInsteadOfBeingIgnored() {
    Fixtures.runner().withPropertyValues("sluice.budget=5", "sluice.pool-auto-commit=false")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.pool-auto-commit is read by the JDBC driver alone"));
  }

  // --- item 9: both spellings in one source ---

  @Test
  void bothSpellingsInOneSource_stopTheStartNamingBoth() {
    Fixtures.runner().withPropertyValues("sluice.budget=5", "sluice.instances=2",
        "sluice.instances.count=3").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageContaining("sluice.instances and sluice.instances.count are two"
                + " spellings of one setting"));
  }

  @Test
  void nestedSpelling_inAnEnvironmentVariable_andAPlaceholder_areRead() {
    Fixtures.runner().withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
        .withPropertyValues("sluice.budget=${test.budget}", "test.budget=40")
        .withInitializer(context -> Fixtures.environmentVariables(context,
            java.util.Map.of("SLUICE_INSTANCES_COUNT", "4")))
        .run(context -> {
          RateLimitedDataSource sluice = Fixtures.sluice(context);
          assertThat(sluice.stats().budget()).isEqualTo(40);
          assertThat(sluice.stats().permitsPerSecond()).isEqualTo(10);
        });
  }

  // --- item 12: the failure analyzer ---

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Plain {}

  /** Item 12: a config error arrived as a 60-line {@code BeanCreationException} trace. */
  @Test
  void configurationError_printsBootsFailedToStartBlockWithTheFix(CapturedOutput output) {
    assertThatThrownBy(() -> start(Plain.class, "spring.datasource.url=jdbc:h2:mem:analyzed",
        "sluice.budgte=5")).hasRootCauseInstanceOf(SluiceConfigurationException.class);

    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("Sluice could not start: sluice.budgte is not a Sluice setting; did you mean"
            + " sluice.budget?")
        .contains("Correct the sluice.* setting named above")
        .contains("sluice.enabled=false");
  }

  private static ConfigurableApplicationContext start(Class<?> app, String... properties) {
    SpringApplication application = new SpringApplicationBuilder(app)
        .web(WebApplicationType.NONE).properties(properties).build();
    return application.run();
  }

  private static void select(DataSource dataSource) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("SELECT 1");
    }
  }
}
