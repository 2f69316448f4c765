package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Setting;
import java.lang.reflect.Proxy;
import java.util.Properties;
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
   * @throws SluiceConfigurationException naming the key, for an unknown key, a bad value or
   *     settings that do not fit together
   */
  @Bean
  static SluiceDataSourceWrapper sluiceDataSourceWrapper(Environment environment,
      ObjectProvider<BreakerFlag> flags, ListableBeanFactory beans) {
    SluiceProperties properties = SluiceProperties.read(environment);
    properties.logIgnored();
    check(properties);
    return new SluiceDataSourceWrapper(properties, beans, flags, new CircuitBreakerFlags(beans));
  }

  /**
   * Checks every setting as building the data sources will, without building anything: each key
   * and value, and the keys together (a missing {@code sluice.budget}, a key that needs another).
   * With per-bean settings, each bean's settings are checked whole (top-level keys with its own
   * winning); the top-level keys alone are checked again when a bean without settings of its own
   * is wrapped.
   */
  private static void check(SluiceProperties properties) {
    properties.checkSpellings();
    refuseDriverOnly(properties);
    SluiceConfigurationException.rethrown(() -> {
      if (properties.perBean().isEmpty()) {
        checkWhole(properties.shared());
        return;
      }
      parseOnly(properties.shared());
      properties.beans().forEach(bean -> checkWhole(properties.forBean(bean)));
    });
  }

  /** A key only the JDBC driver reads would be ignored here: refused instead. */
  private static void refuseDriverOnly(SluiceProperties properties) {
    for (Setting setting : Setting.all()) {
      boolean given = properties.shared().containsKey(setting.name()) || properties.perBean()
          .values().stream().anyMatch(own -> own.containsKey(setting.name()));
      if (setting.driverOnly() && given) {
        throw new SluiceConfigurationException(setting.name() + " is read by the JDBC driver"
            + " alone (jdbc:sluice: URLs); the starter puts Sluice in front of the pool, where"
            + " every transaction's setAutoCommit(false) is seen, so it has no use for it."
            + " Remove it");
      }
    }
  }

  private static void checkWhole(Properties settings) {
    Setting.check(settings);
    CircuitBreakerFlags.check(settings);
  }

  /** Each key and value alone: the top-level keys may lack what each bean's own settings add. */
  private static void parseOnly(Properties settings) {
    DataSource unused = (DataSource) Proxy.newProxyInstance(
        SluiceAutoConfiguration.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          throw new UnsupportedOperationException("only checks settings");
        });
    RateLimitedDataSource.builder(unused).properties(settings);
  }
}
