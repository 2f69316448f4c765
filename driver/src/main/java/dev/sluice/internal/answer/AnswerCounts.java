package dev.sluice.internal.answer;

import dev.sluice.Priority;
import dev.sluice.internal.limit.Counts.Tally;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one budget's answers counted since it was built: reads answered instead of refused per
 * priority, the part that joined a read in flight, the part answered from another instance's
 * result, the answers' ages, and the reads neither kept nor answered by reason
 * ({@link Ineligible}). {@link Answers}' stats, meters and summary line read it.
 *
 * <p>This class is threadsafe: {@link Tally}s (the limiter's per-priority counter), adders and a
 * lock-free {@link AgeHistogram}.
 */
final class AnswerCounts {
  /** Per priority (by ordinal): reads answered instead of refused, and the part that joined. */
  private final Tally answered = Tally.byPriority();
  private final Tally joined = Tally.byPriority();
  private final AgeHistogram ages = new AgeHistogram();
  /** Answers from results another instance kept ({@code sluice.stale.share}). */
  private final LongAdder fromOthers = new LongAdder();
  /** Reads neither kept nor answered, by {@link Ineligible}'s ordinal. */
  private final Tally notEligible = new Tally(Ineligible.values().length);

  /** Counts one answer, at the priority (by ordinal) the limit refused its read at. */
  void answered(int priority, boolean join, boolean heard, long ageMillis) {
    answered.add(priority);
    if (join) {
      joined.add(priority);
    }
    if (heard) {
      fromOthers.increment();
    }
    ages.record(ageMillis);
  }

  void notEligible(Ineligible why) {
    notEligible.add(why.ordinal());
  }

  long notEligibleCount(Ineligible why) {
    return notEligible.of(why.ordinal());
  }

  long answered() {
    return answered.sum();
  }

  long joined() {
    return joined.sum();
  }

  long answered(Priority priority) {
    return answered.of(priority.ordinal());
  }

  long joined(Priority priority) {
    return joined.of(priority.ordinal());
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

  /**
   * The ages of a budget's answers, as a distribution: a count per bucket of milliseconds, exact
   * to the millisecond under 1 s, to 10 ms under 10 s, to 100 ms under 100 s, and one bucket for
   * anything older (an answer is never older than {@code max-age} plus {@code sluice.stale.wait}).
   * Recording one age is one {@code incrementAndGet} of an {@link AtomicLongArray} slot: no lock,
   * no allocation. A quantile is read by a scan of the 2,801 slots, for the stats, the meters and
   * the rejection summary, never on a request path.
   *
   * <p>This class is threadsafe.
   */
  static final class AgeHistogram {
    static final int SLOTS = 1000 + 900 + 900 + 1;

    private final AtomicLongArray counts = new AtomicLongArray(SLOTS);

    /** Counts one answer {@code ageMillis} old. */
    void record(long ageMillis) {
      counts.incrementAndGet(slot(Math.max(0, ageMillis)));
    }

    /**
     * The age under which {@code quantile} of the answers were (its nearest rank), as the upper
     * end of its bucket, in milliseconds; {@code -1} without answers.
     */
    long quantile(double quantile) {
      long total = 0;
      for (int i = 0; i < SLOTS; i++) {
        total += counts.get(i);
      }
      if (total == 0) {
        return -1;
      }
      long rank = Math.max(1, (long) Math.ceil(Math.min(1, Math.max(0, quantile)) * total));
      long seen = 0;
      for (int i = 0; i < SLOTS; i++) {
        seen += counts.get(i);
        if (seen >= rank) {
          return upper(i);
        }
      }
      return upper(SLOTS - 1);
    }

    static int slot(long ms) {
      if (ms < 1000) {
        return (int) ms;
      }
      if (ms < 10_000) {
        return 1000 + (int) ((ms - 1000) / 10);
      }
      if (ms < 100_000) {
        return 1900 + (int) ((ms - 10_000) / 100);
      }
      return SLOTS - 1;
    }

    /** The oldest age a slot counts (its last, for the open one: 100 s). */
    static long upper(int slot) {
      if (slot < 1000) {
        return slot;
      }
      if (slot < 1900) {
        return 1000 + (slot - 1000) * 10L + 9;
      }
      if (slot < SLOTS - 1) {
        return 10_000 + (slot - 1900) * 100L + 99;
      }
      return 100_000;
    }
  }
}
