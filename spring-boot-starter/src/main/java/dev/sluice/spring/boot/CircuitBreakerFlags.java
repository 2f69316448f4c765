package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Binds the breaker flag to a Resilience4j circuit breaker ({@code sluice.circuit-breaker}), and
 * publishes its transitions to Redis ({@code sluice.circuit-breaker.publish}). Loads no
 * Resilience4j class unless the key is set; says what is missing when it is set without it.
 *
 * <p>This class is threadsafe; it owns the publishers it starts until {@link #destroy()}.
 */
final class CircuitBreakerFlags {
  private static final String FLAG = "sluice.flag";
  private static final String REGISTRY =
      "io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry";

  private final BeanFactory beans;
  private final List<AutoCloseable> publishers = new ArrayList<>();

  CircuitBreakerFlags(BeanFactory beans) {
    this.beans = beans;
  }

  /**
   * The flag that follows the breaker named by {@code sluice.circuit-breaker}, or {@code null}
   * when it is not set or publishes to Redis (then the flag is read from Redis, as
   * {@code sluice.flag=redis}, so that every instance's breaker opens it).
   *
   * @throws IllegalArgumentException naming the key when Resilience4j or Redis is missing
   */
  BreakerFlag flag(Properties settings) {
    String breaker = settings.getProperty(SluiceProperties.CIRCUIT_BREAKER);
    if (breaker == null) {
      return null;
    }
    ClassLoader loader = beans instanceof ConfigurableBeanFactory
        ? ((ConfigurableBeanFactory) beans).getBeanClassLoader() : getClass().getClassLoader();
    if (!ClassUtils.isPresent(REGISTRY, loader)) {
      throw new SluiceConfigurationException(SluiceProperties.CIRCUIT_BREAKER + " must name a"
          + " Resilience4j circuit breaker, but Resilience4j is not on the class path (add"
          + " io.github.resilience4j:resilience4j-spring-boot3); it was \"" + breaker + "\"");
    }
    check(settings);
    if (publishes(settings)) {
      Resilience4jFlag.breaker(beans, breaker); // fails now for a name Resilience4j lacks
      return null;
    }
    return Resilience4jFlag.following(beans, breaker);
  }

  /**
   * Checks what {@code sluice.circuit-breaker.publish} needs, without a bean: done at start, also
   * when there is no {@code DataSource} to wrap.
   *
   * @throws SluiceConfigurationException naming the keys, when publishing lacks Redis or the
   *     flag would not be read from it
   */
  static void check(Properties settings) {
    if (!publishes(settings)) {
      return;
    }
    if (settings.getProperty(SluiceProperties.CIRCUIT_BREAKER) == null) {
      throw new SluiceConfigurationException(SluiceProperties.PUBLISH + " publishes the breaker"
          + " named by sluice.circuit-breaker, which is not set; set it or remove "
          + SluiceProperties.PUBLISH);
    }
    if (settings.getProperty(SluiceProperties.REDIS) == null) {
      throw new SluiceConfigurationException(SluiceProperties.PUBLISH + " needs sluice.redis,"
          + " the Redis to publish to, but was \"" + settings.getProperty(SluiceProperties.PUBLISH)
          + "\" without it");
    }
    if ("always".equalsIgnoreCase(settings.getProperty(FLAG, "redis").trim())) {
      throw new SluiceConfigurationException(SluiceProperties.PUBLISH + " takes the flag from"
          + " sluice.redis, so sluice.flag must be `redis`, but was \""
          + settings.getProperty(FLAG) + "\"");
    }
  }

  /** With {@code sluice.circuit-breaker.publish=true}, starts publishing the budget's breaker. */
  void publishIfAsked(Properties settings, String budgetName) {
    if (settings.getProperty(SluiceProperties.CIRCUIT_BREAKER) != null && publishes(settings)) {
      AutoCloseable publisher = Resilience4jFlag.publish(beans,
          settings.getProperty(SluiceProperties.CIRCUIT_BREAKER),
          settings.getProperty(SluiceProperties.REDIS), budgetName);
      synchronized (publishers) {
        publishers.add(publisher);
      }
    }
  }

  private static boolean publishes(Properties settings) {
    return "true".equalsIgnoreCase(settings.getProperty(SluiceProperties.PUBLISH, "").trim());
  }

  /** Stops every publisher started. */
  void destroy() throws Exception {
    synchronized (publishers) {
      for (AutoCloseable publisher : publishers) {
        publisher.close();
      }
      publishers.clear();
    }
  }
}
