package dev.sluice.internal.answer;

import dev.sluice.Priority;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one budget's answers counted since it was built: reads answered instead of refused per
 * priority, the part that joined a read in flight, the part answered from another instance's
 * result, the answers' ages, and the reads neither kept nor answered by reason
 * ({@link Ineligible}). {@link Answers}' stats, meters and summary line read it.
 *
 * <p>This class is threadsafe: {@link LongAdder}s and a lock-free {@link AgeHistogram}.
 */
final class AnswerCounts {
  /** Per priority (by ordinal): reads answered instead of refused, and the part that joined. */
  private final LongAdder[] answered = adders();
  private final LongAdder[] joined = adders();
  private final AgeHistogram ages = new AgeHistogram();
  /** Answers from results another instance kept ({@code sluice.stale.share}). */
  private final LongAdder fromOthers = new LongAdder();
  /** Reads neither kept nor answered, by {@link Ineligible}'s ordinal. */
  private final LongAdder[] notEligible = adders(Ineligible.values().length);

  /** Counts one answer, at the priority (by ordinal) the limit refused its read at. */
  void answered(int priority, boolean join, boolean heard, long ageMillis) {
    answered[priority].increment();
    if (join) {
      joined[priority].increment();
    }
    if (heard) {
      fromOthers.increment();
    }
    ages.record(ageMillis);
  }

  void notEligible(Ineligible why) {
    notEligible[why.ordinal()].increment();
  }

  long notEligibleCount(Ineligible why) {
    return notEligible[why.ordinal()].sum();
  }

  long answered() {
    return sum(answered);
  }

  long joined() {
    return sum(joined);
  }

  long answered(Priority priority) {
    return answered[priority.ordinal()].sum();
  }

  long joined(Priority priority) {
    return joined[priority.ordinal()].sum();
  }

  long fromOthers() {
    return fromOthers.sum();
  }

  long ageMillis(double quantile) {
    return ages.quantile(quantile);
  }

  /**
   * What the rejection summary line says of the answers: {@code ; answered instead so far: …},
   * with sharing how many came from other instances' results, and once there are answers how old
   * they were (the median and the 99th percentile of their ages, in ms).
   */
  String summaryNote(boolean sharing) {
    long n = answered();
    String note = "; answered instead so far: " + n + ", " + joined()
        + " of them joining a read in flight"
        + (sharing ? ", " + fromOthers() + " from other instances' results" : "");
    return n == 0 ? note : note + ", aged p50 " + ageMillis(0.5) + " ms, p99 " + ageMillis(0.99)
        + " ms";
  }

  private static LongAdder[] adders() {
    return adders(Priority.values().length);
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] adders = new LongAdder[n];
    for (int i = 0; i < adders.length; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }

  private static long sum(LongAdder[] adders) {
    long sum = 0;
    for (LongAdder adder : adders) {
      sum += adder.sum();
    }
    return sum;
  }
}
