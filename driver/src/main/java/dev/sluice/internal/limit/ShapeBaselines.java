package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The uncrowded latency of each statement shape, which {@link AdaptiveConcurrency} divides a
 * window's latencies by to read how crowded the database is.
 *
 * <p>A typical uncrowded latency, not a minimum: each batch of {@value #BATCH} samples of a shape
 * moves its baseline towards the batch's mean, a quarter of the way when lower, an eighth when
 * higher (an expectile). The controller {@linkplain #learning stops the learning} while its gate
 * was full in the last window, except at the minimum cap, so the crowding the cap allows never
 * teaches it; a shape's first batch sets its baseline whatever the state.
 *
 * <p>The shapes share a fixed table of {@value #SLOTS} slots indexed by the hash; two that collide
 * share a baseline (the heavier looks crowded: a bias towards caution). A slot's running batch is
 * one {@code long} (the latency sum shifted left by {@value #COUNT_BITS} bits, plus the count), so
 * a sample is one {@code getAndAdd}; the call that completes a batch takes it whole and restarts
 * it, and a batch that loses a race is dropped.
 *
 * <p>This class is threadsafe. The long form (why not a minimum, why not learned under a full
 * gate, with the figures): docs/adaptive-concurrency.md#the-baseline.
 */
final class ShapeBaselines {

  static final int SLOTS = 256;
  static final int BATCH = 32;
  /** The longest latency a sample counts with: 68 s; {@value #BATCH} of them fit in 52 bits. */
  static final long MAX_LATENCY_NANOS = 1L << 36;

  private static final int COUNT_BITS = 12;
  private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
  private static final int FALL = 4;
  private static final int RISE = 8;

  /** Per slot: the running batch, its latency sum shifted left by COUNT_BITS, plus its count. */
  private final AtomicLongArray batches = new AtomicLongArray(SLOTS);
  /** Per slot: the baseline, nanoseconds (0 = none yet). */
  private final AtomicLongArray baselines = new AtomicLongArray(SLOTS);
  /** Whether a batch may move a known baseline; see the class comment. */
  private volatile boolean learning = true;

  /**
   * The slot of a shape in the table.
   *
   * @param shape a statement shape, a hash of its SQL text
   * @return its slot, from 0 to {@value #SLOTS} - 1
   */
  static int slotOf(int shape) {
    return (shape ^ (shape >>> 16)) & (SLOTS - 1);
  }

  /**
   * Adds one uncrowded-or-not sample of a slot to its batch; the sample that completes the batch
   * moves the baseline. No lock, no allocation.
   *
   * @param slot the shape's {@link #slotOf slot}
   * @param latency the statement's latency in nanoseconds, from 0 to {@link #MAX_LATENCY_NANOS}
   */
  void add(int slot, long latency) {
    long before = batches.getAndAdd(slot, (latency << COUNT_BITS) + 1);
    if ((before & COUNT_MASK) + 1 != BATCH) {
      return;
    }
    // This call completed the batch: take it whole (with any sample that raced in) and restart.
    long batch = batches.getAndSet(slot, 0);
    long count = batch & COUNT_MASK;
    if (count > 0) {
      record(slot, Math.max(1, (batch >>> COUNT_BITS) / count));
    }
  }

  /**
   * The baseline of a slot.
   *
   * @param slot a {@link #slotOf slot}
   * @return nanoseconds, 0 while none is known
   */
  long of(int slot) {
    return baselines.get(slot);
  }

  /**
   * Lets batches move the known baselines, or holds them where they are.
   *
   * @param learning whether they may move
   */
  void learning(boolean learning) {
    this.learning = learning;
  }

  /** Holds the baselines where they are until {@link #learning} says otherwise; one read. */
  void stopLearning() {
    if (learning) {
      learning = false;
    }
  }

  /**
   * Multiplies every known baseline by {@code factor}: the controller found the database slower
   * (or found that it was not, and undoes it). A rare event, so a pass over the table.
   *
   * @param factor a positive factor
   */
  void rescale(double factor) {
    for (int slot = 0; slot < SLOTS; slot++) {
      long baseline = baselines.get(slot);
      if (baseline != 0) {
        baselines.compareAndSet(slot, baseline, Math.max(1, (long) (baseline * factor)));
      }
    }
  }

  /** Moves the slot's baseline towards a batch mean (the first batch sets it). One CAS attempt. */
  private void record(int slot, long mean) {
    long baseline = baselines.get(slot);
    if (baseline != 0 && !learning) {
      return; // the cap is what holds the callers back: this batch ran crowded by us
    }
    long next = baseline == 0 ? mean
        : mean < baseline ? baseline - (baseline - mean) / FALL
        : baseline + (mean - baseline) / RISE;
    baselines.compareAndSet(slot, baseline, Math.max(1, next));
  }
}
