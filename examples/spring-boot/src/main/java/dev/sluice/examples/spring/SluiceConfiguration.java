package dev.sluice.examples.spring;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.SluiceMetrics;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Swaps the {@code DataSource} bean: Spring Boot auto-configures HikariCP as usual, and a
 * {@link BeanPostProcessor} wraps it in a {@link RateLimitedDataSource} configured from the
 * {@code sluice.*} keys of {@code application.properties} (or environment variables such as
 * {@code SLUICE_BUDGET}). Everything that uses the {@code DataSource} — {@code JdbcTemplate},
 * JPA, the transaction manager, SQL init — goes through Sluice, and Spring closes the wrapper, which
 * closes the pool.
 */
@Configuration(proxyBeanMethods = false)
public class SluiceConfiguration {

  /**
   * The application's breaker on its cache. Here a manual flag; with Resilience4j it would be
   * {@code BreakerFlag.of(() -> breaker.getState() == CircuitBreaker.State.OPEN)}.
   *
   * @return the flag Sluice reads on every gated call
   */
  @Bean
  BreakerFlag.Manual cacheBreaker() {
    return BreakerFlag.manual();
  }

  /**
   * Wraps every {@code DataSource} bean. Static, so that it is created before the beans it wraps.
   *
   * @param environment where the {@code sluice.*} keys are read
   * @param breaker the application's breaker flag, if there is one
   * @return the post-processor
   */
  @Bean
  static BeanPostProcessor sluiceDataSourceWrapper(Environment environment,
      ObjectProvider<BreakerFlag> breaker) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof DataSource) || bean instanceof RateLimitedDataSource) {
          return bean;
        }
        RateLimitedDataSource.Builder builder = RateLimitedDataSource
            .builder((DataSource) bean).properties(sluiceProperties(environment));
        BreakerFlag flag = breaker.getIfUnique();
        if (flag != null) {
          builder.breakerFlag(flag);
        }
        return builder.build();
      }
    };
  }

  /**
   * Publishes Sluice's figures through Actuator: {@code /actuator/metrics/sluice.calls.rejected}.
   *
   * @param dataSource the wrapped data source
   * @return the binder Spring Boot registers
   * @throws SQLException never: the data source is a {@code RateLimitedDataSource}
   */
  @Bean
  MeterBinder sluiceMetrics(DataSource dataSource) throws SQLException {
    return SluiceMetrics.of(dataSource.unwrap(RateLimitedDataSource.class));
  }

  /** Every {@code sluice.*} key, from any property source Spring Boot knows. */
  static Properties sluiceProperties(Environment environment) {
    Map<String, String> keys = Binder.get(environment)
        .bind("sluice", Bindable.mapOf(String.class, String.class)).orElse(Map.of());
    Properties properties = new Properties();
    keys.forEach((key, value) -> properties.setProperty("sluice." + key, value));
    return properties;
  }
}
