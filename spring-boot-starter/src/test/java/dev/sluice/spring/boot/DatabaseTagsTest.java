package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code db.system.name} and {@code db.namespace} on the meters, from the pool's JDBC URL. */
class DatabaseTagsTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "jdbc:postgresql://db.example:5432/Orders?ssl=true | postgresql           | Orders",
      "jdbc:postgresql://a:5432,b:5432/orders             | postgresql           | orders",
      "jdbc:sluice:postgresql://db/orders?sluice.budget=5 | postgresql           | orders",
      "jdbc:mysql://db:3306/shop                          | mysql                | shop",
      "jdbc:mariadb://db/shop;x=y                         | mariadb              | shop",
      "jdbc:sqlserver://db:1433;databaseName=Sales;x=1    | microsoft.sql_server | Sales",
      "jdbc:postgresql://db:5432                          | postgresql           | ''",
      "jdbc:h2:mem:users;DB_CLOSE_DELAY=-1                | other_sql            | ''",
      "jdbc:oracle:thin:@db:1521/ORCL                     | other_sql            | ''"})
  void url_systemAndNamespace(String url, String system, String namespace) {
    assertThat(DatabaseTags.system(url)).isEqualTo(system);
    assertThat(DatabaseTags.namespace(url)).isEqualTo(namespace);
  }

  @Test
  void noUrl_otherSqlAndNoNamespace() {
    assertThat(DatabaseTags.url(new Object())).isNull();
    assertThat(DatabaseTags.system(null)).isEqualTo("other_sql");
    assertThat(DatabaseTags.namespace(null)).isEmpty();
  }

  @Configuration(proxyBeanMethods = false)
  static class PostgresPool {
    @Bean
    HikariDataSource dataSource() {
      HikariDataSource pool = new HikariDataSource(); // never started: nothing here connects
      pool.setJdbcUrl("jdbc:postgresql://db.example:5432/orders");
      return pool;
    }
  }

  @Test
  void meters_taggedFromThePoolsUrl_throughTheWrappedBean() {
    Fixtures.runner()
        .withUserConfiguration(PostgresPool.class, SluiceAutoConfigurationTest.ManualFlag.class)
        .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class))
        .withPropertyValues("sluice.budget=500", "sluice.name=orders-db")
        .run(context -> {
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get("sluice.calls.rejected").tag("name", "orders-db")
              .functionCounter().getId().getTags()).containsAll(Tags.of(
                  "db.system.name", "postgresql", "db.namespace", "orders"));
          assertThat(registry.get("sluice.budget").tag("db.namespace", "orders").gauge().value())
              .isEqualTo(500);
        });
  }
}
