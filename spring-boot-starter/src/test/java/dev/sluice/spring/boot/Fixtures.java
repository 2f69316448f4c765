package dev.sluice.spring.boot;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.RateLimitedDataSource;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.context.ApplicationContext;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** What the starter's tests share: pools over H2, a runner, environment variables. */
final class Fixtures {
  private Fixtures() {}

  /** A runner with the starter's auto-configurations, and nothing else. */
  static ApplicationContextRunner runner() {
    return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
        SluiceAutoConfiguration.class, SluiceWebAutoConfiguration.class,
        SluiceActuatorAutoConfiguration.class, SluicePriorityAutoConfiguration.class));
  }

  /** A HikariCP pool over an in-memory H2 database, which counts its {@code close()} calls. */
  static CountingPool pool(String database) {
    CountingPool pool = new CountingPool();
    pool.setJdbcUrl("jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1");
    pool.setMaximumPoolSize(2);
    return pool;
  }

  /**
   * Replaces the environment variables Spring sees by {@code variables}, as a process started
   * with them would have (Spring Boot reads them with its relaxed names: {@code SLUICE_BUDGET}).
   */
  static void environmentVariables(ConfigurableApplicationContext context,
      Map<String, Object> variables) {
    MutablePropertySources sources = context.getEnvironment().getPropertySources();
    sources.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
        new SystemEnvironmentPropertySource(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
  }

  /** The Sluice in front of the application's one {@code DataSource} bean. */
  static RateLimitedDataSource sluice(ApplicationContext context) throws SQLException {
    return context.getBean(DataSource.class).unwrap(RateLimitedDataSource.class);
  }

  /** The Sluice in front of the {@code DataSource} bean {@code name}. */
  static RateLimitedDataSource sluice(ApplicationContext context, String name)
      throws SQLException {
    return context.getBean(name, DataSource.class).unwrap(RateLimitedDataSource.class);
  }

  /** Whether a bean's connections go through Sluice. */
  static boolean throughSluice(Object bean) throws SQLException {
    return bean instanceof DataSource
        && ((DataSource) bean).isWrapperFor(RateLimitedDataSource.class);
  }

  /** A pool that counts how often it is closed. */
  static final class CountingPool extends HikariDataSource {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void close() {
      closes.incrementAndGet();
      super.close();
    }
  }
}
