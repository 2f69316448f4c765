package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitedDataSource;
import dev.sluice.spring.boot.SluiceWebAutoConfiguration.SluiceExceptionResolver;
import dev.sluice.spring.boot.SluiceWebAutoConfiguration.SluiceWebExceptionHandler;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** Which parts the starter adds, by the classes present and the properties set. */
class ConditionsTest {
  private static final AutoConfigurations STARTER = AutoConfigurations.of(
      SluiceAutoConfiguration.class, SluiceWebAutoConfiguration.class,
      SluiceActuatorAutoConfiguration.class, SluicePriorityAutoConfiguration.class);

  private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
      .withConfiguration(STARTER).withPropertyValues("sluice.budget=5");

  private final ReactiveWebApplicationContextRunner reactive =
      new ReactiveWebApplicationContextRunner().withConfiguration(STARTER)
          .withPropertyValues("sluice.budget=5");

  @Test
  void servlet_resolverOnByDefault_noReactiveHandler() {
    servlet.run(context -> assertThat(context).hasSingleBean(SluiceExceptionResolver.class)
        .doesNotHaveBean(SluiceWebExceptionHandler.class));
  }

  @Test
  void reactive_handlerOnByDefault_noServletResolver() {
    reactive.run(context -> assertThat(context).hasSingleBean(SluiceWebExceptionHandler.class)
        .doesNotHaveBean(SluiceExceptionResolver.class));
  }

  @Test
  void webEnabledFalse_neither() {
    servlet.withPropertyValues("sluice.web.enabled=false").run(context ->
        assertThat(context).doesNotHaveBean(SluiceExceptionResolver.class));
    reactive.withPropertyValues("sluice.web.enabled=false").run(context ->
        assertThat(context).doesNotHaveBean(SluiceWebExceptionHandler.class));
  }

  @Test
  void servlet_withoutSpringMvc_noResolver() {
    servlet.withClassLoader(new FilteredClassLoader("org.springframework.web.servlet"))
        .run(context -> assertThat(context).hasNotFailed()
            .doesNotHaveBean(SluiceExceptionResolver.class));
  }

  @Test
  void noSluiceProperty_noWebNorActuatorPart() {
    new WebApplicationContextRunner().withConfiguration(STARTER).run(context ->
        assertThat(context).doesNotHaveBean(SluiceExceptionResolver.class)
            .doesNotHaveBean("sluiceHealthIndicator").doesNotHaveBean("sluiceMeterBinder")
            .doesNotHaveBean(DatabasePriorityAdvisor.class));
  }

  @Test
  void reactive_priorityHeader_noFilter_advisorStill() {
    reactive.withPropertyValues("sluice.web.priority-header=X-Priority").run(context ->
        assertThat(context).hasNotFailed().doesNotHaveBean(PriorityHeaderFilter.class)
            .hasSingleBean(DatabasePriorityAdvisor.class));
  }

  @Test
  void withoutMicrometer_noMeterBinder_healthStill() {
    servlet.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
        .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean("sluiceMeterBinder")
              .hasBean("sluiceHealthIndicator");
          assertThat(Fixtures.throughSluice(context.getBean("dataSource"))).isTrue();
        });
  }

  @Test
  void withMicrometer_meterBinder() {
    servlet.run(context -> assertThat(context).hasBean("sluiceMeterBinder"));
  }
}
