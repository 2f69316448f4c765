package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.Jedis;

/** {@code sluice.circuit-breaker}: the flag follows a Resilience4j breaker, and can publish it. */
class CircuitBreakerFlagTest {

  private final ApplicationContextRunner runner = Fixtures.runner()
      .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class, Breakers.class)
      // these tests follow the flag itself, not the recovery hold after it closes
      .withPropertyValues("sluice.budget=500", "sluice.circuit-breaker=cache",
          "sluice.recovery.settle=0");

  @Configuration(proxyBeanMethods = false)
  static class Breakers {
    @Bean
    CircuitBreakerRegistry circuitBreakerRegistry() {
      CircuitBreakerRegistry registry = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
          .waitDurationInOpenState(Duration.ofSeconds(40)).build());
      registry.circuitBreaker("cache"); // as Resilience4j's starter makes its configured ones
      registry.circuitBreaker("productCache");
      return registry;
    }
  }

  @Test
  void transitions_flipTheFlag_openWhileOpenForcedOpenOrHalfOpen() {
    runner.run(context -> {
      RateLimitedDataSource sluice = Fixtures.sluice(context);
      CircuitBreaker breaker =
          context.getBean(CircuitBreakerRegistry.class).circuitBreaker("cache");
      assertThat(sluice.stats().limiting()).as("CLOSED").isFalse();

      breaker.transitionToOpenState();
      assertThat(sluice.stats().limiting()).as("OPEN").isTrue();
      breaker.transitionToHalfOpenState();
      assertThat(sluice.stats().limiting()).as("HALF_OPEN").isTrue();
      breaker.transitionToClosedState();
      assertThat(sluice.stats().limiting()).as("CLOSED again").isFalse();
      breaker.transitionToForcedOpenState();
      assertThat(sluice.stats().limiting()).as("FORCED_OPEN").isTrue();
      breaker.transitionToDisabledState();
      assertThat(sluice.stats().limiting()).as("DISABLED").isFalse();
      breaker.transitionToMetricsOnlyState();
      assertThat(sluice.stats().limiting()).as("METRICS_ONLY").isFalse();
    });
  }

  /**
   * Issue 21, item 4: a mistyped {@code sluice.circuit-breaker} ({@code cahce}) started, made a
   * breaker nothing calls, which never opens, and Sluice never limited.
   */
  @Test
  void nameResilience4jLacks_startFailsNamingTheBreakersThatExist() {
    runner.withPropertyValues("sluice.circuit-breaker=cahce").run(context ->
        assertThat(context).getFailure().rootCause().hasMessage("sluice.circuit-breaker must name"
            + " a circuit breaker Resilience4j has, but was \"cahce\"; its breakers are [cache,"
            + " productCache]. Correct the name, or configure the breaker under"
            + " resilience4j.circuitbreaker.instances.cahce"));
  }

  /**
   * Issue 21, item 11: the flag printed as {@code BreakerFlag.of(...$$Lambda...)}, and refusing
   * {@code {"flag":"open"}} for it gave Redis advice.
   */
  @Test
  void flag_namedAfterTheBreaker_endpointSaysToMoveTheBreaker() {
    Fixtures.runner()
        .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class, Breakers.class)
        .withPropertyValues("sluice.budget=500", "sluice.circuit-breaker.name=productCache",
            "sluice.name=users-db", "management.endpoints.web.exposure.include=sluice")
        .run(context -> {
          SluiceEndpoint endpoint = context.getBean(SluiceEndpoint.class);
          assertThat(endpoint.budget("users-db"))
              .containsEntry("flag", "the Resilience4j circuit breaker productCache");

          assertThatThrownBy(() -> endpoint.change("users-db", "open", null, null, null))
              .hasMessageContaining("the flag follows the Resilience4j circuit breaker"
                  + " productCache, so it opens and closes with it")
              .hasMessageContaining("POST /actuator/circuitbreakers/productCache"
                  + " {\"updateState\":\"FORCE_OPEN\"}")
              .hasMessageNotContaining("sluice:users-db:breaker");
        });
  }

  @Test
  void withoutResilience4j_startFailsNamingTheKey() {
    Fixtures.runner().withClassLoader(new FilteredClassLoader("io.github.resilience4j"))
        .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
        .withPropertyValues("sluice.budget=500", "sluice.circuit-breaker=cache")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.circuit-breaker must name a Resilience4j circuit"
                + " breaker, but Resilience4j is not on the class path")
            .hasMessageEndingWith("it was \"cache\""));
  }

  @Test
  void withBreakerFlagBeanToo_startFails() {
    runner.withBean(BreakerFlag.class, BreakerFlag::manual).run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.circuit-breaker is set (\"cache\"), and the"
                + " application has a BreakerFlag bean too"));
  }

  @Test
  void publishWithoutRedis_startFails() {
    runner.withPropertyValues("sluice.circuit-breaker.publish=true").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("sluice.circuit-breaker.publish needs sluice.redis"));
  }

  @Test
  void publishWithFlagAlways_startFailsNamingBothKeys() {
    runner.withPropertyValues("sluice.circuit-breaker.publish=true", "sluice.flag=always",
        "sluice.redis=redis://127.0.0.1:1").run(context ->
        assertThat(context).getFailure().rootCause().hasMessage("sluice.circuit-breaker.publish"
            + " takes the flag from sluice.redis, so sluice.flag must be `redis`, but was"
            + " \"always\""));
  }

  @Test
  void publish_transitionsReachRedisAndTheFlagFollowsTheKey() throws Exception {
    try (EmbeddedRedis redis = EmbeddedRedis.start(); Jedis operator = redis.client()) {
      runner.withPropertyValues("sluice.circuit-breaker.publish=true", "sluice.name=users-db",
          "sluice.redis=" + redis.uri()).run(context -> {
            RateLimitedDataSource sluice = Fixtures.sluice(context);
            CircuitBreaker breaker =
                context.getBean(CircuitBreakerRegistry.class).circuitBreaker("cache");
            await().atMost(Duration.ofSeconds(5)).until(() -> !sluice.stats().limiting());

            breaker.transitionToOpenState();

            await().atMost(Duration.ofSeconds(5))
                .until(() -> "open".equals(operator.get("sluice:users-db:breaker")));
            assertThat(operator.ttl("sluice:users-db:breaker")).as("2 x 40 s")
                .isBetween(70L, 80L);
            await().atMost(Duration.ofSeconds(5)).until(() -> sluice.stats().limiting());

            breaker.transitionToClosedState();

            await().atMost(Duration.ofSeconds(5))
                .until(() -> operator.get("sluice:users-db:breaker") == null);
            await().atMost(Duration.ofSeconds(5)).until(() -> !sluice.stats().limiting());
          });
    }
  }
}
