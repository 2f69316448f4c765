package dev.sluice.internal.limit;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;

/**
 * Where Sluice's decisions go besides its counters: the span of the calling thread, when a
 * tracing library is present ({@code internal.trace}). Told only while limiting, after the
 * decision is counted, and only of its final word: a refused read that is answered instead is
 * told {@link #answered}, never {@link #refused}. {@code null} where no library is present.
 *
 * <p>Implementations are threadsafe, never throw, and read only the calling thread's context.
 */
public interface Decisions {
  /** A door admitted a call at {@code priority}. */
  void admitted(Priority priority);

  /** Shadow mode let a call pass that enforce mode would have refused. */
  void shadowRefused(Priority priority);

  /** The call is refused with {@code refusal}, which goes on to the caller. */
  void refused(Priority priority, RateLimitExceededException refusal);

  /**
   * A refused read was answered instead: from a result kept {@code ageMillis} ago, or by joining
   * an identical read in flight.
   */
  void answered(Priority priority, long ageMillis, boolean joined);
}
