package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One window of {@link AdaptiveConcurrency}'s samples: what they add up to while it is open, and
 * the crowding they read once it closes. A window's crowding is the sum of its latencies over the
 * sum of their shapes' baselines, each latency clipped at {@code clip} times its baseline (so one
 * stuck statement cannot move it); the wide crowding clips at {@code wideClip} instead, for the
 * test of "slower, or crowded?". Heavy statements weigh by their cost.
 *
 * <p>{@link #add} is lock-free and allocates nothing: two or three {@link LongAdder} adds, a fourth
 * only for a latency past {@code clip} times its baseline; {@link #inFlight} a read and a compare
 * (a CAS only for the window's highest yet). {@link #close} lets one caller per
 * window take the sums; what it took is read back by that caller alone, before the next window
 * can close (a thread descheduled for a whole window can only blur a heuristic).
 */
final class SampleWindow {

  private final double clip;
  private final double wideClip;
  private final AtomicLong startNanos;
  private final LongAdder latencyNanos = new LongAdder();
  /** What latencies clipped at wideClip add to those clipped at clip. */
  private final LongAdder excessNanos = new LongAdder();
  private final LongAdder baselineNanos = new LongAdder();
  private final LongAdder samples = new LongAdder();
  private final LongAdder overloads = new LongAdder();
  /** The most statements seen in flight at a sample's end; a racy maximum (a lost raise blurs). */
  private final AtomicInteger peak = new AtomicInteger();

  // the last window closed; written and read by the caller that closed it
  private long closedSamples;
  private boolean closedOverloaded;
  private int closedPeak;
  private double crowding = Double.NaN;
  private double wideCrowding = Double.NaN;

  SampleWindow(double clip, double wideClip, long now) {
    this.clip = clip;
    this.wideClip = wideClip;
    this.startNanos = new AtomicLong(now);
  }

  /**
   * Adds one sample.
   *
   * @param latency its latency in nanoseconds
   * @param baseline its shape's baseline in nanoseconds, 0 while none is known (then it only counts)
   * @param overload whether it failed of overload (then its latency says nothing)
   */
  void add(long latency, long baseline, boolean overload) {
    if (overload) {
      overloads.increment();
    } else if (baseline > 0) {
      long clipped = (long) Math.min(latency, clip * baseline);
      latencyNanos.add(clipped);
      if (latency > clipped) { // rare, except while the database is clip times slower or more
        excessNanos.add((long) Math.min(latency, wideClip * baseline) - clipped);
      }
      baselineNanos.add(baseline);
    }
    samples.increment();
  }

  /**
   * Notes how many statements were in flight when a sample ended: one read and a compare, a CAS
   * only when it is the window's highest yet.
   */
  void inFlight(int running) {
    int seen = peak.get();
    if (running > seen) {
      peak.compareAndSet(seen, running);
    }
  }

  /**
   * Closes the window when it has lasted {@code lengthNanos} and holds {@code minSamples} samples
   * or an overload, for one caller only: that caller then reads {@link #samples()},
   * {@link #overloaded()}, {@link #crowding()} and {@link #wideCrowding()}.
   *
   * @return whether this caller closed it
   */
  boolean close(long now, long lengthNanos, int minSamples) {
    long start = startNanos.get();
    if (now - start < lengthNanos
        || samples.sum() < minSamples && overloads.sum() == 0
        || !startNanos.compareAndSet(start, now)) {
      return false;
    }
    closedSamples = samples.sumThenReset();
    closedOverloaded = overloads.sumThenReset() > 0;
    closedPeak = peak.getAndSet(0);
    long latency = latencyNanos.sumThenReset();
    long excess = excessNanos.sumThenReset();
    long baseline = baselineNanos.sumThenReset();
    crowding = baseline > 0 ? (double) latency / baseline : Double.NaN;
    wideCrowding = baseline > 0 ? (double) (latency + excess) / baseline : Double.NaN;
    return true;
  }

  /** The samples of the window closed last. */
  long samples() {
    return closedSamples;
  }

  /** The most statements in flight at a sample's end in the window closed last. */
  int peak() {
    return closedPeak;
  }

  /** Whether the window closed last had an overload. */
  boolean overloaded() {
    return closedOverloaded;
  }

  /** The crowding of the window closed last, clipped at clip; {@code NaN}: none measured. */
  double crowding() {
    return crowding;
  }

  /** The crowding of the window closed last, clipped at wideClip; {@code NaN}: none measured. */
  double wideCrowding() {
    return wideCrowding;
  }
}
