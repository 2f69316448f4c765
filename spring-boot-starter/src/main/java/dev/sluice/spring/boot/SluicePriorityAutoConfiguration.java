package dev.sluice.spring.boot;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Priorities in a Spring application: {@link DatabasePriority} on beans, and the request header
 * named by {@code sluice.web.priority-header} in Spring MVC.
 *
 * <p>The advisor is an infrastructure bean, so that the auto-proxy creator Spring registers for
 * {@code @Transactional} applies it even without AspectJ; this configuration registers that
 * creator too, should nothing else have.
 */
@AutoConfiguration(after = SluiceAutoConfiguration.class)
@Conditional(OnSluiceProperties.class)
@Import(SluicePriorityAutoConfiguration.AutoProxy.class)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
public class SluicePriorityAutoConfiguration {

  /** Made by Spring Boot. */
  public SluicePriorityAutoConfiguration() {}

  /**
   * Applies {@link DatabasePriority}. Static, as advisors are looked up before most beans.
   *
   * @return the advisor
   */
  @Bean
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  static DatabasePriorityAdvisor sluiceDatabasePriorityAdvisor() {
    return new DatabasePriorityAdvisor();
  }

  /** Spring MVC: the header filter, only when {@code sluice.web.priority-header} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = Type.SERVLET)
  @ConditionalOnClass(OncePerRequestFilter.class)
  @ConditionalOnProperty("sluice.web.priority-header")
  static class Servlet {

    @Bean
    PriorityHeaderFilter sluicePriorityHeaderFilter(Environment environment) {
      return new PriorityHeaderFilter(
          environment.getRequiredProperty("sluice.web.priority-header").trim());
    }
  }

  /** Registers Spring's infrastructure auto-proxy creator unless a stronger one is there. */
  static final class AutoProxy implements ImportBeanDefinitionRegistrar {
    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata,
        BeanDefinitionRegistry registry) {
      AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
    }
  }
}
