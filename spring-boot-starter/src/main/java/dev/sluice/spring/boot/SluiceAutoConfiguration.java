package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import java.lang.reflect.Proxy;
import javax.sql.DataSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Wraps the application's {@code DataSource} beans in {@link RateLimitedDataSource}s configured
 * from the {@code sluice.*} properties, as soon as any is set; {@code sluice.enabled=false} turns
 * it off. The breaker flag is, in this order: the application's unique {@link BreakerFlag} bean;
 * the Resilience4j circuit breaker named by {@code sluice.circuit-breaker}; else what
 * {@code sluice.flag} says (by default the Redis key with {@code sluice.redis}, else always on).
 */
@AutoConfiguration
@Conditional(OnSluiceProperties.class)
public class SluiceAutoConfiguration {

  /** Made by Spring Boot. */
  public SluiceAutoConfiguration() {}

  /**
   * The settings, checked at start even when no {@code DataSource} is wrapped: a mistyped key or
   * a bad value stops the application with Sluice's message.
   *
   * @param environment where the properties come from
   * @return the settings
   */
  @Bean
  static SluiceSettings sluiceSettings(Environment environment) {
    SluiceProperties properties = SluiceProperties.read(environment);
    properties.logIgnored();
    DataSource unused = (DataSource) Proxy.newProxyInstance(
        SluiceAutoConfiguration.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          throw new UnsupportedOperationException("only checks settings");
        });
    RateLimitedDataSource.builder(unused).properties(properties.shared());
    properties.perBean().values().forEach(own -> RateLimitedDataSource.builder(unused)
        .properties(own));
    return new SluiceSettings(properties);
  }

  /**
   * Publishes Resilience4j breakers to Redis when asked, and closes the publishers.
   *
   * @param beans where the {@code CircuitBreakerRegistry} is found, if any
   * @return the binder
   */
  @Bean
  static CircuitBreakerFlags sluiceCircuitBreakerFlags(BeanFactory beans) {
    return new CircuitBreakerFlags(beans);
  }

  /**
   * Wraps the {@code DataSource} beans. Static, so that it exists before the beans it wraps.
   *
   * @param settings the settings
   * @param flags the application's breaker flag, if it has one
   * @param breakers the Resilience4j binding
   * @return the post-processor
   */
  @Bean
  static SluiceDataSourceWrapper sluiceDataSourceWrapper(SluiceSettings settings,
      ObjectProvider<BreakerFlag> flags, CircuitBreakerFlags breakers) {
    return new SluiceDataSourceWrapper(settings.properties(), flags, breakers);
  }

  /** The checked settings, as a bean for the other auto-configurations. */
  static final class SluiceSettings {
    private final SluiceProperties properties;

    SluiceSettings(SluiceProperties properties) {
      this.properties = properties;
    }

    SluiceProperties properties() {
      return properties;
    }
  }
}
