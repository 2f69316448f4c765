package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.spring.boot.Fixtures.CountingPool;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** When the starter wraps which data source, and with what settings. */
class SluiceAutoConfigurationTest {

  private final ApplicationContextRunner runner = Fixtures.runner()
      .withUserConfiguration(OnePool.class);

  @Configuration(proxyBeanMethods = false)
  static class OnePool {
    @Bean
    CountingPool dataSource() {
      return Fixtures.pool("one");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class TwoPools {
    @Bean
    CountingPool orders() {
      return Fixtures.pool("orders");
    }

    @Bean
    CountingPool reportsDataSource() {
      return Fixtures.pool("reports");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ManualFlag {
    @Bean
    BreakerFlag.Manual cacheBreaker() {
      return BreakerFlag.manual();
    }
  }

  @Test
  void noSluiceProperty_nothingWrapped() {
    runner.run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(SluiceDataSourceWrapper.class);
      assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
    });
  }

  @Test
  void budgetSet_dataSourceWrapped_unwrapFindsThePool() {
    runner.withPropertyValues("sluice.budget=500", "sluice.instances=4").run(context -> {
      DataSource dataSource = context.getBean(DataSource.class);
      assertThat(Fixtures.throughSluice(dataSource)).isTrue();
      assertThat(dataSource.unwrap(HikariDataSource.class)).isInstanceOf(CountingPool.class);
      RateLimitedDataSource sluice = dataSource.unwrap(RateLimitedDataSource.class);
      assertThat(sluice.stats().permitsPerSecond()).isEqualTo(125);
      assertThat(sluice.stats().name()).as("named after its bean").isEqualTo("dataSource");
    });
  }

  @Test
  void enabledFalse_nothingWrapped() {
    runner.withPropertyValues("sluice.budget=500", "sluice.enabled=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(SluiceDataSourceWrapper.class);
      assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
    });
  }

  @Test
  void contextClosed_poolClosedOnce() {
    CountingPool[] pool = new CountingPool[1];
    runner.withPropertyValues("sluice.budget=500").run(context ->
        pool[0] = context.getBean(DataSource.class).unwrap(CountingPool.class));

    assertThat(pool[0].closes).hasValue(1);
    assertThat(pool[0].isClosed()).isTrue();
  }

  @Test
  void environmentVariables_configureThroughRelaxedNames() {
    runner.withInitializer(context -> Fixtures.environmentVariables(context, Map.of(
            "SLUICE_BUDGET", "300", "SLUICE_SUMMARYINTERVAL", "5s", "SLUICE_NAME", "users-db")))
        .run(context -> {
          RateLimitedDataSource sluice = Fixtures.sluice(context);
          assertThat(sluice.stats().budget()).isEqualTo(300);
          assertThat(sluice.stats().name()).isEqualTo("users-db");
        });
  }

  @Test
  void unknownEnvironmentVariableAlone_startsAndWrapsNothing() {
    runner.withInitializer(context -> Fixtures.environmentVariables(context, Map.of(
            "SLUICE_PORT", "tcp://10.0.0.7:80", "SLUICE_SERVICE_HOST", "10.0.0.7")))
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(SluiceDataSourceWrapper.class);
          assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
        });
  }

  @Test
  void unknownEnvironmentVariableBesideSettings_ignored() {
    runner.withPropertyValues("sluice.budget=500")
        .withInitializer(context -> Fixtures.environmentVariables(context, Map.of(
            "SLUICE_PORT", "tcp://10.0.0.7:80", "SLUICE_PORT_80_TCP_ADDR", "10.0.0.7")))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(Fixtures.throughSluice(context.getBean(DataSource.class))).isTrue();
          assertThat(context.getBean(SluiceDataSourceWrapper.class).properties()
              .ignored()).contains("sluice.port", "sluice.port.80.tcp.addr");
        });
  }

  @Test
  void unknownKeyInProperties_startFailsWithSluicesMessage() {
    runner.withPropertyValues("sluice.budgett=5").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("sluice.budgett is not a Sluice setting; did you mean"
                + " sluice.budget?"));
  }

  @Test
  void unknownKeyFromEnvironmentAndProperties_startFails() {
    runner.withPropertyValues("sluice.budget=5", "sluice.port=1")
        .withInitializer(context -> Fixtures.environmentVariables(context,
            Map.of("SLUICE_PORT", "tcp://10.0.0.7:80")))
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.port is not a Sluice setting"));
  }

  @Test
  void badValue_startFailsNamingKeyAndValue() {
    runner.withPropertyValues("sluice.budget=-5").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOf(IllegalArgumentException.class)
            .hasMessage("sluice.budget must be a positive number, but was \"-5\""));
  }

  @Test
  void badStaleValues_startFailsNamingKeyAndValue() {
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.max-age=soon").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOf(IllegalArgumentException.class)
            .hasMessage("sluice.stale.max-age must be 0 or a positive duration such as `0`,"
                + " `500ms`, `5s` or `PT5S`, but was \"soon\""));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.memory=0").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.stale.memory must be a size above 0 such as `32MB`, `512KB` or a"
                + " number of bytes, but was \"0\""));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.max-rows=0").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.stale.max-rows must be a positive integer, but was \"0\""));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.wait=-1s").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.stale.wait must be 0 or a positive duration such as `0`, `50ms`"
                + " or `PT0.05S`, but was \"-1s\""));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.max-age=5s",
        "sluice.scope=connection").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.stale.max-age (\"5s\") needs sluice.scope=statement"));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.share=yes").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.stale.share must be `true` or `false`, but was \"yes\""));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.max-age=5s",
        "sluice.stale.share=true").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.stale.share=true needs sluice.redis"));
    runner.withPropertyValues("sluice.budget=5", "sluice.stale.max-age=5s",
        "sluice.stale.memory=512KB").run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void badValueFromEnvironment_startFails() {
    runner.withInitializer(context -> Fixtures.environmentVariables(context,
            Map.of("SLUICE_BUDGET", "lots")))
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.budget must be a positive number, but was \"lots\""));
  }

  @Test
  void budgetMissing_startFailsNamingIt() {
    runner.withPropertyValues("sluice.name=users-db").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.budget must be a positive number, but was missing"));
  }

  @Test
  void badKeyWithoutAnyDataSource_startFails() {
    Fixtures.runner().withPropertyValues("sluice.budget=5", "sluice.scope=row").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessage("sluice.scope must be `statement` or `connection`, but was \"row\""));
  }

  @Test
  void severalDataSources_eachWrappedWithItsOwnSettings() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100", "sluice.datasources.reportsDataSource.budget=20",
            "sluice.datasources.reportsDataSource.name=reports-db")
        .run(context -> {
          RateLimitedDataSource orders = Fixtures.sluice(context, "orders");
          RateLimitedDataSource reports =
              Fixtures.sluice(context, "reportsDataSource");
          assertThat(orders.stats().budget()).isEqualTo(100);
          assertThat(orders.stats().name()).isEqualTo("orders");
          assertThat(reports.stats().budget()).isEqualTo(20);
          assertThat(reports.stats().name()).isEqualTo("reports-db");
          assertThat(reports.unwrap(HikariDataSource.class).getJdbcUrl()).contains("reports");
        });
  }

  @Test
  void severalDataSources_perBeanFromEnvironmentVariables() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100")
        .withInitializer(context -> Fixtures.environmentVariables(context,
            Map.of("SLUICE_DATASOURCES_REPORTSDATASOURCE_BUDGET", "30")))
        .run(context -> assertThat(Fixtures.sluice(context, "reportsDataSource").stats().budget()).isEqualTo(30));
  }

  @Test
  void perBeanKeyInTwoSources_theFirstSourceWins_howeverTheBeanIsSpelled() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100", "sluice.datasources.reportsDataSource.budget=20")
        .withInitializer(context -> Fixtures.environmentVariables(context,
            Map.of("SLUICE_DATASOURCES_REPORTSDATASOURCE_BUDGET", "30")))
        .run(context -> assertThat(Fixtures.sluice(context, "reportsDataSource").stats().budget()).isEqualTo(20));
  }

  @Test
  void severalDataSources_oneDisabled_leftUnwrapped() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100", "sluice.datasources.orders.enabled=false")
        .run(context -> {
          assertThat(context.getBean("orders")).isInstanceOf(CountingPool.class);
          assertThat(Fixtures.throughSluice(context.getBean("reportsDataSource"))).isTrue();
        });
  }

  @Test
  void severalDataSources_oneSharedName_startFails() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100", "sluice.name=users-db")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageContaining("sluice.name \"users-db\" is given to the DataSource beans"));
  }

  @Test
  void severalDataSources_badPerBeanKey_startFails() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100", "sluice.datasources.orders.bugdet=3")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.bugdet is not a Sluice setting"));
  }

  @Test
  void perBeanSettingsForNoSuchBean_startFailsNamingTheBeans() {
    Fixtures.runner().withUserConfiguration(TwoPools.class)
        .withPropertyValues("sluice.budget=100", "sluice.datasources.order.budget=3")
        .run(context -> assertThat(context).getFailure()
            .hasMessage("sluice.datasources.order names no DataSource bean; the DataSource beans"
                + " are [orders, reportsDataSource]"));
  }

  @Test
  void breakerFlagBean_isTheFlag() {
    runner.withUserConfiguration(ManualFlag.class).withPropertyValues("sluice.budget=500")
        .run(context -> {
          RateLimitedDataSource sluice = Fixtures.sluice(context);
          assertThat(sluice.stats().limiting()).isFalse();

          context.getBean(BreakerFlag.Manual.class).trip();

          assertThat(sluice.stats().limiting()).isTrue();
        });
  }

  @Test
  void noBreakerFlagBean_flagFromSluiceFlag_alwaysOn() {
    runner.withPropertyValues("sluice.budget=500").run(context ->
        assertThat(Fixtures.sluice(context).stats().limiting()).isTrue());
  }
}
