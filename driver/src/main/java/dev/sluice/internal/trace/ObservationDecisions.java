package dev.sluice.internal.trace;

import dev.sluice.Limit;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.internal.limit.Decisions;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;

/**
 * Sluice's decisions on the Micrometer {@link Observation} current on the calling thread: the
 * JDBC observation of an instrumentation that wraps Sluice (datasource-micrometer's query
 * observation), else the one around the call (Spring's request observation). Micrometer
 * Tracing's handler writes an observation's key values on its span when it stops, so they reach
 * the trace with any bridge (Brave or OpenTelemetry). The same attributes as
 * {@link OpenTelemetryDecisions}, as high-cardinality key values: those go to spans only, never
 * to the tags of the observation's timer, whose tag keys must stay the same on every call.
 *
 * <p>The current observation is read through a registry of Sluice's own: Micrometer keeps one
 * current scope per thread for every {@code ObservationRegistry.create()} registry (its
 * {@code ObservationThreadLocalAccessor} reads the current observation the same way), so this
 * sees what the application's registry opened ({@code SpringTracingDecisionsTest} shows it in a
 * Spring Boot application). No observation current, or a no-op one: left alone at the cost of one
 * thread-local read.
 *
 * <p>Loaded by name ({@link Tracing#decisions}) only where Micrometer's observation API is on the
 * class path. Immutable and threadsafe.
 */
public final class ObservationDecisions implements Decisions {
  /** Reads the calling thread's current observation, whoever opened its scope. */
  private static final ObservationRegistry CURRENT = ObservationRegistry.create();
  private static final String[] DECISIONS =
      {"admitted", "shadow_refused", "refused", "answered", "joined"};
  private static final KeyValue[] DECISION = keyValues("sluice.decision", DECISIONS);
  private static final KeyValue[] PRIORITY =
      keyValues("sluice.priority", lowerCase(Priority.values()));
  private static final KeyValue[] LIMIT =
      keyValues("sluice.limit", lowerCase(Limit.values()));
  private static final String AGE = "sluice.answer.age_ms";
  private static final String ERROR_TYPE = "error.type";

  private final KeyValue budget;

  /**
   * For the budget {@code budget}; public for {@link Tracing#decisions}'s reflective call.
   *
   * @param budget the {@code sluice.name}
   */
  public ObservationDecisions(String budget) {
    CURRENT.getCurrentObservation(); // as OpenTelemetryDecisions: a broken class path fails here
    this.budget = KeyValue.of("sluice.budget", budget);
  }

  @Override
  public void admitted(Priority priority) {
    tell(0, priority);
  }

  @Override
  public void shadowRefused(Priority priority) {
    tell(1, priority);
  }

  @Override
  public void refused(Priority priority, RateLimitExceededException refusal) {
    Observation observation = tell(2, priority);
    if (observation != null) {
      observation.highCardinalityKeyValue(LIMIT[refusal.limit().ordinal()]);
      observation.highCardinalityKeyValue(ERROR_TYPE, refusal.getClass().getName());
    }
  }

  @Override
  public void answered(Priority priority, long ageMillis, boolean joined) {
    Observation observation = tell(joined ? 4 : 3, priority);
    if (observation != null && ageMillis >= 0) {
      observation.highCardinalityKeyValue(AGE, Long.toString(ageMillis));
    }
  }

  /** The current observation with the decision set, or {@code null} when there is none. */
  private Observation tell(int decision, Priority priority) {
    Observation observation = CURRENT.getCurrentObservation();
    if (observation == null || observation.isNoop()) {
      return null;
    }
    observation.highCardinalityKeyValue(DECISION[decision]);
    observation.highCardinalityKeyValue(budget);
    observation.highCardinalityKeyValue(PRIORITY[priority.ordinal()]);
    return observation;
  }

  private static KeyValue[] keyValues(String key, String[] values) {
    KeyValue[] keyValues = new KeyValue[values.length];
    for (int i = 0; i < values.length; i++) {
      keyValues[i] = KeyValue.of(key, values[i]);
    }
    return keyValues;
  }

  private static String[] lowerCase(Enum<?>[] constants) {
    String[] names = new String[constants.length];
    for (Enum<?> c : constants) {
      names[c.ordinal()] = c.name().toLowerCase(Locale.ROOT);
    }
    return names;
  }
}
