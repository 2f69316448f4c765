package dev.sluice.spring.boot;

import dev.sluice.FlagState;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Stats;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * Reports whether each budget's breaker flag can be read: {@code UP} while it can,
 * {@code UNKNOWN} while Redis is unreachable. Never {@code DOWN}: limiting is Sluice doing its job,
 * and an unreachable Redis is the outage it exists for; a {@code DOWN} here would make Kubernetes
 * restart or unroute every instance at the moment the database most needs them to keep their
 * connections and their share. {@code UNKNOWN} is visible on the component and leaves the
 * aggregate {@code UP} under Spring Boot's default status order.
 *
 * <p>This class is threadsafe.
 */
final class SluiceHealthIndicator extends AbstractHealthIndicator {
  private final Budgets budgets;

  SluiceHealthIndicator(Budgets budgets) {
    super("Sluice health check failed");
    this.budgets = budgets;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    boolean unreachable = false;
    for (Map.Entry<String, RateLimitedDataSource> budget : budgets.all().entrySet()) {
      Stats stats = budget.getValue().stats();
      unreachable |= stats.flagState() == FlagState.UNREACHABLE;
      builder.withDetail(budget.getKey(), details(stats));
    }
    builder.status(unreachable ? Status.UNKNOWN : Status.UP);
  }

  private static Map<String, Object> details(Stats stats) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("flagState", stats.flagState().name().toLowerCase(Locale.ROOT));
    details.put("sinceFlagReadMillis", stats.sinceFlagRead().toMillis());
    details.put("limiting", stats.limiting());
    return details;
  }
}
