package dev.sluice.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@code sluice.*} setting that stopped the start into Spring Boot's "APPLICATION FAILED
 * TO START" block: Sluice's message, naming the key and the value, and what to do, instead of
 * sixty lines of {@code BeanCreationException}.
 */
final class SluiceFailureAnalyzer extends AbstractFailureAnalyzer<SluiceConfigurationException> {

  /** Made by Spring Boot, from {@code META-INF/spring.factories}. */
  SluiceFailureAnalyzer() {}

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, SluiceConfigurationException cause) {
    String action = "Correct the sluice.* setting named above, where it is set (application"
        + " properties or YAML, an environment variable, a system property). Every key, its"
        + " values and the nested YAML spellings: docs/configuration.md. To start without"
        + " Sluice, set sluice.enabled=false.";
    return new FailureAnalysis("Sluice could not start: " + cause.getMessage(), action, cause);
  }
}
