package dev.sluice.internal.trace;

import dev.sluice.internal.limit.Decisions;

/**
 * Finds, when a budget is built, whether a tracing library is there to be told Sluice's
 * decisions: the OpenTelemetry API, Micrometer's observation API, or both, on the class path of
 * Sluice's class loader. Names no class of those libraries, so that loading this one never needs
 * them.
 *
 * <p>Stateless and threadsafe.
 */
public final class Tracing {
  private static final String OPENTELEMETRY_API = "io.opentelemetry.api.trace.Span";
  private static final String OBSERVATION_API = "io.micrometer.observation.Observation";
  private static final String ON_OPENTELEMETRY = "dev.sluice.internal.trace.OpenTelemetryDecisions";
  private static final String ON_OBSERVATION = "dev.sluice.internal.trace.ObservationDecisions";

  private Tracing() {}

  /**
   * The decisions for {@code budget}: on the recording OpenTelemetry span where its API is
   * present, else (or where only Micrometer is) on the current Micrometer observation; {@code
   * null} where neither API is present: the limiter then tells nothing, at the cost of one field
   * read while limiting.
   *
   * @param budget the {@code sluice.name}
   * @return the decisions, or {@code null}
   */
  public static Decisions decisions(String budget) {
    Decisions observation = load(OBSERVATION_API, ON_OBSERVATION,
        new Class<?>[] {String.class}, budget);
    Decisions openTelemetry = load(OPENTELEMETRY_API, ON_OPENTELEMETRY,
        new Class<?>[] {String.class, Decisions.class}, budget, observation);
    return openTelemetry != null ? openTelemetry : observation;
  }

  /**
   * {@code sluice}'s class built with {@code arguments} where {@code api} is found, else null.
   * Each constructor makes one call into its library, so that a class path holding the API's
   * first class but not all it needs (OpenTelemetry's API without {@code opentelemetry-common}
   * or its context) leaves tracing off at the start instead of failing calls while limiting.
   */
  private static Decisions load(String api, String sluice, Class<?>[] types, Object... arguments) {
    ClassLoader loader = Tracing.class.getClassLoader();
    try {
      Class.forName(api, false, loader);
      return (Decisions) Class.forName(sluice, true, loader)
          .getConstructor(types).newInstance(arguments);
    } catch (ReflectiveOperationException | LinkageError absent) {
      return null;
    }
  }
}
