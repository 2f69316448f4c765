package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps each {@code DataSource} bean in a {@link RateLimitedDataSource} configured from its
 * {@code sluice.*} settings, unless {@code sluice.datasources.<bean>.enabled=false}.
 *
 * <p>The wrapper replaces the bean, so Spring closes the wrapper when the context closes, and the
 * wrapper closes the pool: once. {@code unwrap} still finds the pool, for Spring Boot's pool
 * metrics and health.
 *
 * <p>Without {@code sluice.name}, a budget is named after its bean; two wrapped beans may not
 * share a name, since their meters, MXBeans and Redis keys would mix.
 *
 * <p>This class is threadsafe. It owns the Resilience4j publishers it starts and stops them with
 * the context.
 */
final class SluiceDataSourceWrapper implements BeanPostProcessor, SmartInitializingSingleton,
    DisposableBean {
  private final SluiceProperties properties;
  private final ListableBeanFactory beans;
  private final ObjectProvider<BreakerFlag> flagBeans;
  private final CircuitBreakerFlags breakers;
  private final Map<String, String> beanByBudget = new ConcurrentHashMap<>();

  SluiceDataSourceWrapper(SluiceProperties properties, ListableBeanFactory beans,
      ObjectProvider<BreakerFlag> flagBeans, CircuitBreakerFlags breakers) {
    this.properties = properties;
    this.beans = beans;
    this.flagBeans = flagBeans;
    this.breakers = breakers;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (!(bean instanceof DataSource) || bean instanceof RateLimitedDataSource) {
      return bean;
    }
    Properties settings = properties.forBean(beanName);
    if ("false".equalsIgnoreCase(settings.getProperty(SluiceProperties.ENABLED, "").trim())) {
      return bean;
    }
    if (!settings.containsKey(SluiceProperties.NAME) && beanName.matches("[A-Za-z0-9._-]{1,64}")) {
      settings.setProperty(SluiceProperties.NAME, beanName);
    }
    RateLimitedDataSource.Builder builder =
        RateLimitedDataSource.builder((DataSource) bean).properties(settings);
    BreakerFlag flag = flag(settings);
    if (flag != null) {
      builder.breakerFlag(flag);
    }
    RateLimitedDataSource wrapped = builder.build();
    claimName(wrapped, beanName);
    breakers.publishIfAsked(settings, wrapped.stats().name());
    return wrapped;
  }

  /** The flag given in code or by {@code sluice.circuit-breaker}; null leaves it to sluice.flag. */
  private BreakerFlag flag(Properties settings) {
    BreakerFlag bean = flagBeans.getIfUnique();
    String breaker = settings.getProperty(SluiceProperties.CIRCUIT_BREAKER);
    if (bean != null && breaker != null) {
      throw new IllegalStateException(SluiceProperties.CIRCUIT_BREAKER + " is set (\"" + breaker
          + "\"), and the application has a BreakerFlag bean too (" + bean + "): keep one");
    }
    return bean != null ? bean : breakers.flag(settings);
  }

  /**
   * Fails the start when {@code sluice.datasources.<bean>.} names no {@code DataSource} bean: a
   * mistyped bean name would otherwise leave its settings unused without a word.
   */
  @Override
  public void afterSingletonsInstantiated() {
    List<String> dataSources = Arrays.asList(beans.getBeanNamesForType(DataSource.class, true,
        false));
    for (String configured : properties.beans()) {
      boolean found = dataSources.stream().anyMatch(bean ->
          SluiceProperties.uniform(bean).equals(SluiceProperties.uniform(configured)));
      if (!found) {
        throw new IllegalStateException("sluice.datasources." + configured + " names no"
            + " DataSource bean; the DataSource beans are " + dataSources);
      }
    }
  }

  /** The settings it wraps with. */
  SluiceProperties properties() {
    return properties;
  }

  /** Stops publishing Resilience4j breakers to Redis. */
  @Override
  public void destroy() throws Exception {
    breakers.destroy();
  }

  private void claimName(RateLimitedDataSource wrapped, String beanName) {
    String name = wrapped.stats().name();
    String other = beanByBudget.putIfAbsent(name, beanName);
    if (other != null && !other.equals(beanName)) {
      closeQuietly(wrapped);
      throw new IllegalStateException(SluiceProperties.NAME + " \"" + name + "\" is given to"
          + " the DataSource beans " + other + " and " + beanName + "; name each budget with"
          + " sluice.datasources.<bean>.name");
    }
  }

  private static void closeQuietly(RateLimitedDataSource wrapped) {
    try {
      wrapped.close();
    } catch (Exception e) {
      // the start fails anyway, with the message that says why
    }
  }
}
