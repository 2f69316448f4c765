package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import java.sql.SQLException;
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
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;

/**
 * Puts a {@link RateLimitedDataSource}, configured from its {@code sluice.*} settings, in front of
 * each {@code DataSource} bean, unless {@code sluice.datasources.<bean>.enabled=false}.
 *
 * <p>The bean keeps its type ({@link SluiceInFront}): an application that injects
 * {@code HikariDataSource} gets the pool's class with Sluice in front. Spring closes the bean when
 * the context closes, which closes Sluice, which closes the pool: once. {@code unwrap} still finds
 * the pool, for Spring Boot's pool metrics and health. A chain of beans (a
 * {@code LazyConnectionDataSourceProxy} over the pool bean) is wrapped once, at the pool.
 *
 * <p>Without {@code sluice.name}, a budget is named after its bean; two wrapped beans may not
 * share a name, since their meters, MXBeans and Redis keys would mix.
 *
 * <p>This class is threadsafe. It owns the Resilience4j publishers it starts and stops them with
 * the context.
 */
final class SluiceDataSourceWrapper implements DestructionAwareBeanPostProcessor,
    SmartInitializingSingleton, DisposableBean {
  private final SluiceProperties properties;
  private final ListableBeanFactory beans;
  private final ObjectProvider<BreakerFlag> flagBeans;
  private final CircuitBreakerFlags breakers;
  private final Map<String, String> beanByBudget = new ConcurrentHashMap<>();
  private final Map<String, BreakerFlag> flagByBudget = new ConcurrentHashMap<>();
  private final Map<String, RateLimitedDataSource> sluiceByBean = new ConcurrentHashMap<>();

  SluiceDataSourceWrapper(SluiceProperties properties, ListableBeanFactory beans,
      ObjectProvider<BreakerFlag> flagBeans, CircuitBreakerFlags breakers) {
    this.properties = properties;
    this.beans = beans;
    this.flagBeans = flagBeans;
    this.breakers = breakers;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (!(bean instanceof DataSource) || reachesSluice((DataSource) bean)) {
      return bean;
    }
    Properties settings = properties.forBean(beanName);
    if ("false".equalsIgnoreCase(settings.getProperty(SluiceProperties.ENABLED, "").trim())) {
      return bean;
    }
    if (!settings.containsKey(SluiceProperties.NAME) && beanName.matches("[A-Za-z0-9._-]{1,64}")) {
      settings.setProperty(SluiceProperties.NAME, beanName);
    }
    RateLimitedDataSource[] wrapped = new RateLimitedDataSource[1];
    BreakerFlag[] flag = new BreakerFlag[1];
    SluiceConfigurationException.rethrown(() -> {
      RateLimitedDataSource.Builder builder =
          RateLimitedDataSource.builder(new PoolView((DataSource) bean)).properties(settings);
      flag[0] = flag(settings);
      if (flag[0] != null) {
        builder.breakerFlag(flag[0]);
      }
      wrapped[0] = builder.build();
    });
    claimName(wrapped[0], beanName);
    sluiceByBean.put(beanName, wrapped[0]);
    if (flag[0] != null) {
      flagByBudget.put(wrapped[0].stats().name(), flag[0]);
    }
    breakers.publishIfAsked(settings, wrapped[0].stats().name());
    return SluiceInFront.of((DataSource) bean, wrapped[0]);
  }

  /**
   * Closes the Sluice in front of a {@code DataSource} bean, just before Spring closes the pool:
   * Spring destroys the object the bean's factory made, never what a post-processor returned, so
   * without this the Redis threads and the MXBean would outlive the context.
   */
  @Override
  public void postProcessBeforeDestruction(Object bean, String beanName) {
    RateLimitedDataSource sluice = sluiceByBean.remove(beanName);
    if (sluice != null) {
      closeQuietly(sluice);
    }
  }

  @Override
  public boolean requiresDestruction(Object bean) {
    return bean instanceof DataSource;
  }

  /**
   * Whether {@code bean} already goes through Sluice: a proxy over a wrapped pool bean
   * ({@code LazyConnectionDataSourceProxy}, {@code TransactionAwareDataSourceProxy}) made after
   * it. Wrapping it too would charge each statement twice, to two budgets.
   */
  private static boolean reachesSluice(DataSource bean) {
    try {
      return bean.isWrapperFor(RateLimitedDataSource.class);
    } catch (SQLException | RuntimeException cannotSay) {
      return false;
    }
  }

  /** The flag given in code or by {@code sluice.circuit-breaker}; null leaves it to sluice.flag. */
  private BreakerFlag flag(Properties settings) {
    BreakerFlag bean = flagBeans.getIfUnique();
    String breaker = settings.getProperty(SluiceProperties.CIRCUIT_BREAKER);
    if (bean != null && breaker != null) {
      throw new SluiceConfigurationException(SluiceProperties.CIRCUIT_BREAKER + " is set (\""
          + breaker
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
        throw new SluiceConfigurationException("sluice.datasources." + configured + " names no"
            + " DataSource bean; the DataSource beans are " + dataSources);
      }
    }
  }

  /**
   * The flag given to a budget in code or by {@code sluice.circuit-breaker}.
   *
   * @return the flag, or {@code null} when it came from {@code sluice.flag}
   */
  BreakerFlag flagOf(String budget) {
    return flagByBudget.get(budget);
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
      throw new SluiceConfigurationException(SluiceProperties.NAME + " \"" + name + "\" is given to"
          + " the DataSource beans " + other + " and " + beanName + "; name each budget with"
          + " sluice.datasources.<bean>.name");
    }
  }

  /** Closes Sluice alone: over a {@link PoolView}, its close leaves the pool to Spring. */
  private static void closeQuietly(RateLimitedDataSource wrapped) {
    try {
      wrapped.close();
    } catch (Exception e) {
      // nothing of the pool's is closed here: no SQLException can come
    }
  }
}
