package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import java.lang.reflect.Proxy;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;
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
   * Wraps the {@code DataSource} beans. Static, so that it exists before the beans it wraps; it
   * depends on no bean, so that none is made too early for the other post-processors. It checks
   * the settings as it is made, so that a mistyped key or a bad value stops the application with
   * Sluice's message even when there is no {@code DataSource} to wrap.
   *
   * @param environment where the properties come from
   * @param flags the application's breaker flag, if it has one
   * @param beans where the Resilience4j {@code CircuitBreakerRegistry} is found, if any
   * @return the post-processor
   * @throws IllegalArgumentException naming the key, for an unknown key or a bad value
   */
  @Bean
  static SluiceDataSourceWrapper sluiceDataSourceWrapper(Environment environment,
      ObjectProvider<BreakerFlag> flags, ListableBeanFactory beans) {
    SluiceProperties properties = SluiceProperties.read(environment);
    properties.logIgnored();
    check(properties);
    return new SluiceDataSourceWrapper(properties, beans, flags, new CircuitBreakerFlags(beans));
  }

  /** Parses every setting as the builder will, without building anything. */
  private static void check(SluiceProperties properties) {
    DataSource unused = (DataSource) Proxy.newProxyInstance(
        SluiceAutoConfiguration.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          throw new UnsupportedOperationException("only checks settings");
        });
    RateLimitedDataSource.builder(unused).properties(properties.shared());
    properties.perBean().values()
        .forEach(own -> RateLimitedDataSource.builder(unused).properties(own));
  }
}
