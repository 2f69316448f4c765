package dev.sluice.spring.boot;

import dev.sluice.SluiceMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Observes the budgets: Sluice's meters bound to the application's {@code MeterRegistry} (under
 * the names of {@link SluiceMetrics}), the endpoint {@code sluice}, and the health contributor
 * {@code sluice}. Each part needs its library on the class path.
 */
@AutoConfiguration(after = SluiceAutoConfiguration.class)
@Conditional(OnSluiceProperties.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
public class SluiceActuatorAutoConfiguration {

  /** Made by Spring Boot. */
  public SluiceActuatorAutoConfiguration() {}

  /**
   * Micrometer: every budget's meters, tagged with its name and with the {@code db.system.name}
   * and {@code db.namespace} its pool's URL reveals ({@link DatabaseTags}).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({MeterRegistry.class, MeterBinder.class})
  static class Metrics {

    @Bean
    MeterBinder sluiceMeterBinder(ListableBeanFactory beans) {
      Budgets budgets = new Budgets(beans);
      return registry -> budgets.beans().values().forEach(bean ->
          SluiceMetrics.of(Budgets.sluiceOf(bean)).withTags(DatabaseTags.of(bean))
              .bindTo(registry));
    }
  }

  /** The endpoint, when exposed. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
  @ConditionalOnAvailableEndpoint(SluiceEndpoint.class)
  static class Endpoint {

    @Bean
    SluiceEndpoint sluiceEndpoint(ListableBeanFactory beans) {
      SluiceDataSourceWrapper wrapper = beans.getBean(SluiceDataSourceWrapper.class);
      return new SluiceEndpoint(new Budgets(beans), wrapper::flagOf);
    }

    @Bean
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.web.WebEndpointResponse")
    SluiceEndpointWebExtension sluiceEndpointWebExtension(SluiceEndpoint endpoint) {
      return new SluiceEndpointWebExtension(endpoint);
    }
  }

  /** The health contributor, unless {@code management.health.sluice.enabled=false}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("sluice")
  static class Health {

    @Bean
    HealthIndicator sluiceHealthIndicator(ListableBeanFactory beans) {
      return new SluiceHealthIndicator(new Budgets(beans));
    }
  }
}
