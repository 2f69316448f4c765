package dev.sluice.internal.answer;

import java.util.concurrent.atomic.AtomicLongArray;

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
final class AgeHistogram {
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
