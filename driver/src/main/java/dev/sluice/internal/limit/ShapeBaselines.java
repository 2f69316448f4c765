package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The uncrowded latency of each statement shape, which {@link AdaptiveConcurrency} divides a
 * window's latencies by to read how crowded the database is.
 *
 * <p><b>A typical uncrowded latency, not a minimum.</b> On a host shared with other work one
 * statement's latency jitters by 20&ndash;40&nbsp;% from one second to the next with no change of
 * load, so the luckiest moment (a minimum, as Vegas and the controller before this one keep) is
 * 1.2&ndash;1.4&times; below the typical uncrowded latency, and a controller that compares with it
 * reads crowding where there is none. Each shape keeps one baseline, moved by every batch of
 * {@value #BATCH} of its samples towards the batch's mean: a quarter of the way when the mean is
 * lower, an eighth when higher. That settles where a third of the weighted deviations lie below it
 * (an expectile), so a lucky second lowers it a little and a slow one raises it less, and a host
 * that became noisier for good is followed within a few dozen batches. A mean over a batch is
 * robust to the single fast outlier that makes a plain minimum too low.
 *
 * <p><b>Learned without probing, and not from what the cap crowds.</b> While the cap holds callers
 * back, every batch runs at the crowding the cap allows, and letting the baseline follow it would
 * let the cap creep up (measured on the simulated harness: from 1.2&times; to 1.8&times; the
 * database's capacity in a minute of overload). So the controller {@linkplain #learning stops the
 * learning} while its gate was full in the last window, except at the minimum cap (the crowding
 * seen there is the database's own). The first batch of a shape sets its baseline whatever the
 * state: a controller whose first samples come from a flood takes the flooded latency for normal.
 *
 * <p><b>The table.</b> The shapes share a fixed table of {@value #SLOTS} slots indexed by the
 * hash; two shapes that collide share a baseline, which makes the heavier one look crowded &mdash;
 * a bias towards caution, bounded by the controller's clipping. Each slot holds its running batch
 * in one {@code long} (the latency sum shifted left by {@value #COUNT_BITS} bits, plus the count),
 * so adding a sample is one {@code getAndAdd}; the call that completes a batch takes it whole and
 * restarts it. A batch that loses a race to another is dropped, which at one batch in
 * {@value #BATCH} samples costs nothing that matters.
 *
 * <p>This class is threadsafe.
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
