package dev.sluice.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when any {@code sluice.*} property is set, from any property source, and
 * {@code sluice.enabled} is not {@code false}. Unknown keys that only environment variables give
 * ({@code SLUICE_PORT}) do not count.
 */
final class OnSluiceProperties extends SpringBootCondition {

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context,
      AnnotatedTypeMetadata metadata) {
    SluiceProperties properties = SluiceProperties.read(context.getEnvironment());
    if (!properties.present()) {
      return ConditionOutcome.noMatch("no sluice.* property is set");
    }
    return properties.enabled() ? ConditionOutcome.match("sluice.* properties are set")
        : ConditionOutcome.noMatch("sluice.enabled is false");
  }
}
