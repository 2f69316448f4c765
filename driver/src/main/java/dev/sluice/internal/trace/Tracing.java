package dev.sluice.internal.trace;

import dev.sluice.internal.limit.Decisions;

/**
 * Finds, when a budget is built, whether a tracing library is there to be told Sluice's
 * decisions: the OpenTelemetry API on the class path of Sluice's class loader. Names no class of
 * that library, so that loading this one never needs it.
 *
 * <p>Stateless and threadsafe.
 */
public final class Tracing {
  private static final String OPENTELEMETRY_API = "io.opentelemetry.api.trace.Span";
  private static final String ON_OPENTELEMETRY = "dev.sluice.internal.trace.OpenTelemetryDecisions";

  private Tracing() {}

  /**
   * The decisions for {@code budget} on OpenTelemetry spans where its API is present, else
   * {@code null}: the limiter then tells nothing, at the cost of one field read while limiting.
   *
   * @param budget the {@code sluice.name}
   * @return the decisions, or {@code null}
   */
  public static Decisions decisions(String budget) {
    ClassLoader loader = Tracing.class.getClassLoader();
    try {
      Class.forName(OPENTELEMETRY_API, false, loader);
      return (Decisions) Class.forName(ON_OPENTELEMETRY, true, loader)
          .getConstructor(String.class).newInstance(budget);
    } catch (ReflectiveOperationException | LinkageError absent) {
      return null;
    }
  }
}
