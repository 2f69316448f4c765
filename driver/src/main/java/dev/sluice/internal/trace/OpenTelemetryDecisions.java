package dev.sluice.internal.trace;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.internal.limit.Decisions;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import java.util.Locale;

/**
 * Sluice's decisions on the OpenTelemetry span current on the calling thread: the JDBC span of an
 * instrumentation that wraps Sluice (the OpenTelemetry agent or {@code JdbcTelemetry}), else the
 * span around the call (a request's, or Micrometer Tracing's over the OpenTelemetry bridge).
 * Attributes: {@code sluice.decision} ({@code admitted}, {@code refused}, {@code answered},
 * {@code joined}, {@code shadow_refused}), {@code sluice.budget} (the {@code sluice.name}),
 * {@code sluice.priority}; for a refusal {@code sluice.limit} ({@code rate},
 * {@code concurrency}) and {@code error.type}, the exception's class as the semantic conventions
 * ask; for an answer {@code sluice.answer.age_ms}. A span that is not recording (none current, or
 * sampled out) is left alone at the cost of one context read, and the decision goes to
 * {@code otherwise}: the current Micrometer observation ({@link ObservationDecisions}) where
 * Micrometer is present too. So a decision is written once: on the recording OpenTelemetry span
 * (the agent's JDBC span, or the observation's own span under Micrometer Tracing's OpenTelemetry
 * bridge), else on the current observation (under the Brave bridge).
 *
 * <p>The only class that imports OpenTelemetry, loaded by name ({@link Tracing#decisions}) only
 * where its API is on the class path: an application without it never loads this class.
 *
 * <p>Immutable and threadsafe.
 */
public final class OpenTelemetryDecisions implements Decisions {
  static final AttributeKey<String> DECISION = AttributeKey.stringKey("sluice.decision");
  static final AttributeKey<String> BUDGET = AttributeKey.stringKey("sluice.budget");
  static final AttributeKey<String> PRIORITY = AttributeKey.stringKey("sluice.priority");
  static final AttributeKey<String> LIMIT = AttributeKey.stringKey("sluice.limit");
  static final AttributeKey<Long> AGE = AttributeKey.longKey("sluice.answer.age_ms");
  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  private static final String[] PRIORITIES = names(Priority.values());

  private final String budget;
  private final Decisions otherwise;

  /**
   * For the budget {@code budget}; public for {@link Tracing#decisions}'s reflective call.
   *
   * @param budget the {@code sluice.name}
   * @param otherwise told a decision when no span is recording, or {@code null}: nobody
   */
  public OpenTelemetryDecisions(String budget, Decisions otherwise) {
    Span.current(); // a class path with the API but not its parts fails here, not in a call
    this.budget = budget;
    this.otherwise = otherwise;
  }

  @Override
  public void admitted(Priority priority) {
    if (tell("admitted", priority) == null && otherwise != null) {
      otherwise.admitted(priority);
    }
  }

  @Override
  public void shadowRefused(Priority priority) {
    if (tell("shadow_refused", priority) == null && otherwise != null) {
      otherwise.shadowRefused(priority);
    }
  }

  @Override
  public void refused(Priority priority, RateLimitExceededException refusal) {
    Span span = tell("refused", priority);
    if (span != null) {
      span.setAttribute(LIMIT, refusal.limit().name().toLowerCase(Locale.ROOT));
      span.setAttribute(ERROR_TYPE, refusal.getClass().getName());
    } else if (otherwise != null) {
      otherwise.refused(priority, refusal);
    }
  }

  @Override
  public void answered(Priority priority, long ageMillis, boolean joined) {
    Span span = tell(joined ? "joined" : "answered", priority);
    if (span == null) {
      if (otherwise != null) {
        otherwise.answered(priority, ageMillis, joined);
      }
    } else if (ageMillis >= 0) {
      span.setAttribute(AGE, ageMillis);
    }
  }

  /** The current span with the decision set, or {@code null} when none is recording. */
  private Span tell(String decision, Priority priority) {
    Span span = Span.current();
    if (!span.isRecording()) {
      return null;
    }
    span.setAttribute(DECISION, decision);
    span.setAttribute(BUDGET, budget);
    span.setAttribute(PRIORITY, PRIORITIES[priority.ordinal()]);
    return span;
  }

  private static String[] names(Priority[] priorities) {
    String[] names = new String[priorities.length];
    for (Priority p : priorities) {
      names[p.ordinal()] = p.name().toLowerCase(Locale.ROOT);
    }
    return names;
  }
}
