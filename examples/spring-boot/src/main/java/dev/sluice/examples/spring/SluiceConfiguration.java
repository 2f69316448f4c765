package dev.sluice.examples.spring;

import dev.sluice.BreakerFlag;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * All the Sluice code this application has: its breaker on the cache. The starter
 * ({@code sluice-spring-boot-starter}) does the rest from {@code application.properties}: it
 * wraps the auto-configured HikariCP pool in a {@code RateLimitedDataSource}, answers a rejection
 * with 503 and {@code Retry-After}, and binds the meters and the {@code sluice} endpoint.
 */
@Configuration(proxyBeanMethods = false)
public class SluiceConfiguration {

  /**
   * The application's breaker on its cache; the starter uses a unique {@code BreakerFlag} bean.
   * Here a manual flag; with Resilience4j, {@code sluice.circuit-breaker=<name>} replaces this
   * bean.
   *
   * @return the flag Sluice reads on every gated call
   */
  @Bean
  BreakerFlag.Manual cacheBreaker() {
    return BreakerFlag.manual();
  }
}
