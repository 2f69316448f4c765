package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Adapts the cap of a {@link ConcurrencyGate} between a minimum and a maximum from what the
 * statements it admitted tell of the database: their latency, per statement shape, and whether
 * they failed of overload.
 *
 * <h2>Design note</h2>
 *
 * <p><b>What is measured.</b> Past the point where a database's CPUs, locks or disks are all busy,
 * more statements in flight buy no more throughput, only longer latency (Little's law: in-flight =
 * throughput &times; latency); further past it, thrashing makes throughput fall. A statement's
 * latency divided by the latency the <em>same kind of statement</em> has when the database is not
 * crowded is therefore the crowding factor, and the cap is right when that factor is near 1: the
 * database is busy, but nothing waits inside it. Each sample is (shape, latency, overload), where
 * the shape is a hash of the SQL text: latency is only ever compared with the latency of the same
 * shape, so a change of query mix (more range scans, fewer point reads) does not read as overload.
 * This is the failure of mix-blind limiters (Netflix concurrency-limits #171 and
 * go-concurrency-limits #117: a 10&nbsp;ms&ndash;2&nbsp;s mix leaves Vegas stuck at its minimum).
 *
 * <p><b>The no-load latency, learned without probing.</b> Vegas re-probes its no-load round trip by
 * adopting whatever sample comes every so often, and Envoy pins the concurrency to 3 for a while to
 * measure it &mdash; bursts of refusals that its users report. Here each shape has a baseline: the
 * lowest <em>batch mean</em> (a batch is {@value #BATCH} consecutive samples of the shape) seen
 * over the current and the previous epoch of {@value #EPOCH_SECONDS}&nbsp;s. A mean over a batch is
 * robust to the single fast outlier that makes a plain minimum (Vegas's) too low; the minimum over
 * batches picks the least crowded moments, which a working cap produces by itself: each cut brings
 * the database back under its knee, and light load is uncrowded anyway. Baselines age out after one
 * to two epochs, so a database that became slower for good (bigger data, a new plan) is followed
 * within {@value #EPOCH_SECONDS}&ndash;{@code 2 x }{@value #EPOCH_SECONDS}&nbsp;s &mdash; but only
 * while the gate has room, or the cap sits at its minimum. While the cap is what holds the callers
 * back, every batch ran at the crowding the cap allows, and letting the baseline age into it would
 * let the cap creep up epoch after epoch (measured: from 1.2&times; to 1.8&times; the database's
 * capacity in a minute of overload); then a baseline may only fall. At the minimum cap the crowding
 * seen is the database's own (Netflix concurrency-limits #171), so there it may rise again. Until
 * it does, the cap errs low, never high.
 *
 * <p>A baseline is only as good as the first uncrowded batches: a controller whose first samples
 * come from a flood takes the flooded latency for normal, and only overload errors then cut (the
 * overload harness in {@code benchmarks/} measures a p99 of 2.1&times; the no-load p99 that way,
 * against 1.24&times; with a baseline learned first). Feed it samples before limiting starts.
 *
 * <p>The shapes share a fixed table of {@value #SLOTS} slots indexed by the hash; two shapes that
 * collide share a baseline (the lighter one's), which makes the heavier one look crowded &mdash; a
 * bias towards caution, bounded by the clipping below.
 *
 * <p><b>The decision.</b> Samples are pooled into windows of at least
 * {@value #WINDOW_MILLIS}&nbsp;ms and {@value #MIN_WINDOW_SAMPLES} samples. A window's crowding is
 * the sum of its latencies over the sum of their shapes' baselines (each latency clipped at
 * {@value #CLIP}&times; its baseline so one stuck statement cannot move it), so heavy statements
 * weigh by their cost. Then, in order:
 *
 * <ol>
 *   <li>any overload error (SQLState class 53, {@code 57014}, a lost connection, the pool's
 *       timeout) is the strongest signal: the cap is multiplied by {@value #OVERLOAD_BACKOFF};
 *   <li>crowding above {@value #HIGH}: the cap is scaled by {@value #TARGET} / crowding, at
 *       most halved (the gradient of Netflix's Gradient2, on a per-shape, not a global, baseline);
 *   <li>crowding below {@value #LOW} while the gate was full: the cap grows by a tenth (at
 *       least 1), so a cap of 1 reaches a hundred in about 33 windows (3.3&nbsp;s when statements
 *       are fast);
 *   <li>otherwise the cap holds.
 * </ol>
 *
 * <p>A cut is only taken when the cap was in use (the gate filled, or half of it is in flight): a
 * cap that nobody reaches protects nothing, and cutting it on the noise of a handful of statements
 * under light load is how limiters end in refusal storms. After a cut, samples of statements
 * admitted before it are ignored by the decision: they ran under the old cap and would cut again
 * for the same cause. Refused calls never give a sample (they did not run), so they cannot drag the
 * estimate down (Netflix concurrency-limits #176).
 *
 * <p><b>Cost.</b> {@link #onSample} is O(1) and allocates nothing: a clock read, two
 * {@link AtomicLongArray} reads and one add for the shape, three {@link LongAdder} adds for the
 * window; one call in a window makes the decision, a few dozen arithmetic operations. No lock is
 * taken; the statistics tolerate the races they have (a sample landing in the next window).
 *
 * <p>This class is threadsafe.
 */
public final class AdaptiveConcurrency {

  static final int SLOTS = 256;
  static final int BATCH = 32;
  static final int EPOCH_SECONDS = 10;
  static final int WINDOW_MILLIS = 100;
  static final int MIN_WINDOW_SAMPLES = 16;
  static final double CLIP = 4.0;
  static final double OVERLOAD_BACKOFF = 0.7;
  static final double HIGH = 1.5;
  static final double TARGET = 1.2;
  static final double LOW = 1.25;
  static final int WANTED_WINDOW_SAMPLES = 64;
  static final int MAX_STRIDE = Limiter.SAMPLE_EVERY; // the connection's count wraps there

  private static final long EPOCH_NANOS = EPOCH_SECONDS * 1_000_000_000L;
  private static final long WINDOW_NANOS = WINDOW_MILLIS * 1_000_000L;
  private static final int COUNT_BITS = 12;
  private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
  private static final long MAX_LATENCY_NANOS = 1L << 36; // 68 s: BATCH of them fit in 52 bits
  private static final long VALUE_MASK = (1L << 48) - 1;

  private final ConcurrencyGate gate;
  private final int min;
  private final int max;
  private final Ticker ticker;
  private final long originNanos;

  /** Per slot: the running batch, its latency sum shifted left by COUNT_BITS, plus its count. */
  private final AtomicLongArray batches = new AtomicLongArray(SLOTS);
  /** Per slot: the epoch (top 16 bits) and the lowest batch mean in it (48 bits, 0 = none). */
  private final AtomicLongArray current = new AtomicLongArray(SLOTS);
  /** Per slot: the lowest batch mean of the epoch before {@link #current}'s (0 = none). */
  private final AtomicLongArray previous = new AtomicLongArray(SLOTS);

  private final AtomicLong windowStartNanos;
  private final LongAdder windowLatencyNanos = new LongAdder();
  private final LongAdder windowBaselineNanos = new LongAdder();
  private final LongAdder windowSamples = new LongAdder();
  private final LongAdder windowOverloads = new LongAdder();
  private volatile long lastCutNanos;
  /** See {@link #sampleStride()}; written only by the decision. */
  private volatile int stride = 1;
  private volatile double estimate;
  /** Whether a baseline may rise: the gate had room in the last window, or the cap is at min. */
  private volatile boolean mayRise = true;

  /**
   * Creates a controller that sets {@code gate}'s cap, starting from the gate's current cap clamped
   * to {@code [min, max]}.
   *
   * @param gate the gate whose cap this controller owns
   * @param min the lowest cap, at least 1
   * @param max the highest cap, at least {@code min}
   * @param ticker the clock
   * @throws IllegalArgumentException if {@code min < 1} or {@code max < min}
   */
  public AdaptiveConcurrency(ConcurrencyGate gate, int min, int max, Ticker ticker) {
    if (min < 1 || max < min) {
      throw new IllegalArgumentException(
          "min must be at least 1 and max at least min, but were " + min + " and " + max);
    }
    this.gate = gate;
    this.min = min;
    this.max = max;
    this.ticker = ticker;
    this.originNanos = ticker.read();
    this.windowStartNanos = new AtomicLong(originNanos);
    this.lastCutNanos = originNanos;
    this.estimate = Math.max(min, Math.min(max, gate.limit()));
    gate.setLimit((int) estimate);
  }

  /**
   * The shape of a statement: a hash of its SQL text. {@link String#hashCode()} is cached by the
   * string, so a prepared statement's shape costs nothing after its first use.
   *
   * @param sql the statement's SQL text
   * @return its shape
   */
  public static int shapeOf(String sql) {
    return sql.hashCode();
  }

  /**
   * Reports one statement that was admitted by the gate and has ended (call it before or after
   * {@link ConcurrencyGate#release()}, consistently). Refused statements are never reported.
   *
   * @param shape the statement's {@link #shapeOf shape}
   * @param latencyNanos from its admission to its end
   * @param overload whether it failed of overload: SQLState class 53, {@code 57014}, a connection
   *     failure, the pool's timeout
   */
  public void onSample(int shape, long latencyNanos, boolean overload) {
    onSample(shape, latencyNanos, overload, ticker.read());
  }

  /**
   * As {@link #onSample(int, long, boolean)}, with the clock already read at the statement's end:
   * the caller that measured the latency passes its reading rather than paying a second one.
   *
   * @param shape the statement's {@link #shapeOf shape}
   * @param latencyNanos from its admission to its end
   * @param overload whether it failed of overload
   * @param now the ticker's reading at its end
   */
  public void onSample(int shape, long latencyNanos, boolean overload, long now) {
    int slot = slotOf(shape);
    long latency = Math.max(0, Math.min(latencyNanos, MAX_LATENCY_NANOS));
    if (!overload) {
      learn(slot, latency, now);
    }
    if (now - latency >= lastCutNanos) {
      count(slot, latency, overload);
    }
    maybeDecide(now);
  }

  /**
   * One admitted statement in this many is timed and reported, per connection: 1 while few
   * statements run, doubled up to {@value #MAX_STRIDE} while a window collects more than
   * {@code 4 x }{@value #WANTED_WINDOW_SAMPLES} samples, halved while it collects fewer than
   * {@value #WANTED_WINDOW_SAMPLES}. The decision needs {@value #MIN_WINDOW_SAMPLES} samples a
   * window, the baseline {@value #BATCH} a batch: far fewer than a busy database runs statements,
   * and each sample costs two clock reads and a few shared adds. Overload errors are reported
   * whether sampled or not. One volatile read.
   *
   * @return a power of two from 1 to {@value #MAX_STRIDE}
   */
  public int sampleStride() {
    return stride;
  }

  /**
   * Returns the current cap.
   *
   * @return the cap the gate enforces
   */
  public int limit() {
    return gate.limit();
  }

  /**
   * Returns the no-load latency learned for a shape.
   *
   * @param shape a statement shape
   * @return the baseline in nanoseconds, 0 while none is known
   */
  long baselineNanos(int shape) {
    return baselineOf(slotOf(shape));
  }

  private static int slotOf(int shape) {
    return (shape ^ (shape >>> 16)) & (SLOTS - 1);
  }

  // --- the per-shape baseline ---

  private void learn(int slot, long latency, long now) {
    long before = batches.getAndAdd(slot, (latency << COUNT_BITS) + 1);
    if ((before & COUNT_MASK) + 1 != BATCH) {
      return;
    }
    // This call completed the batch: take it whole (with any sample that raced in) and restart.
    long batch = batches.getAndSet(slot, 0);
    long count = batch & COUNT_MASK;
    if (count > 0) {
      record(slot, Math.max(1, (batch >>> COUNT_BITS) / count), epochOf(now));
    }
  }

  private void record(int slot, long mean, long epoch) {
    if (!mayRise) {
      long baseline = baselineOf(slot);
      if (baseline != 0 && mean >= baseline) {
        return; // the cap is what holds the callers back: this batch ran crowded by us
      }
    }
    long word = current.get(slot);
    long lowest = word & VALUE_MASK;
    if ((word >>> 48) == epoch) {
      if (lowest == 0 || mean < lowest) {
        current.compareAndSet(slot, word, (epoch << 48) | mean);
      }
      return;
    }
    if (current.compareAndSet(slot, word, (epoch << 48) | mean) && lowest != 0) {
      previous.set(slot, lowest);
    }
  }

  private long epochOf(long now) {
    return ((now - originNanos) / EPOCH_NANOS + 1) & 0xFFFF;
  }

  private long baselineOf(int slot) {
    long lowest = current.get(slot) & VALUE_MASK;
    long before = previous.get(slot);
    if (lowest == 0 || before == 0) {
      return Math.max(lowest, before);
    }
    return Math.min(lowest, before);
  }

  // --- the window and the decision ---

  private void count(int slot, long latency, boolean overload) {
    if (overload) {
      windowOverloads.increment();
    } else {
      long baseline = baselineOf(slot);
      if (baseline > 0) {
        windowLatencyNanos.add((long) Math.min(latency, CLIP * baseline));
        windowBaselineNanos.add(baseline);
      }
    }
    windowSamples.increment();
  }

  /** Keeps a window's samples between WANTED_WINDOW_SAMPLES and four times that. */
  private void adjustStride(long samples) {
    int now = stride;
    if (samples > 4L * WANTED_WINDOW_SAMPLES && now < MAX_STRIDE) {
      stride = now * 2;
    } else if (samples < WANTED_WINDOW_SAMPLES && now > 1) {
      stride = now / 2;
    }
  }

  private void maybeDecide(long now) {
    long start = windowStartNanos.get();
    if (now - start < WINDOW_NANOS
        || windowSamples.sum() < MIN_WINDOW_SAMPLES && windowOverloads.sum() == 0
        || !windowStartNanos.compareAndSet(start, now)) {
      return;
    }
    decide(now);
  }

  private void decide(long now) {
    adjustStride(windowSamples.sumThenReset());
    boolean overloaded = windowOverloads.sumThenReset() > 0;
    long latency = windowLatencyNanos.sumThenReset();
    long baseline = windowBaselineNanos.sumThenReset();
    boolean saturated = gate.takeSaturated();
    double cap = estimate;
    boolean inUse = saturated || gate.inFlight() * 2 >= cap;
    double crowding = baseline > 0 ? (double) latency / baseline : Double.NaN;
    double next = cap;
    if (overloaded && inUse) {
      next = cap * OVERLOAD_BACKOFF;
    } else if (crowding > HIGH && inUse) {
      next = cap * Math.max(0.5, TARGET / crowding);
    } else if (crowding < LOW && saturated) {
      next = cap + Math.max(1, cap / 10);
    }
    next = Math.max(min, Math.min(max, next));
    if (next < cap) {
      lastCutNanos = now;
    }
    mayRise = !saturated || next <= min;
    estimate = next;
    gate.setLimit((int) next);
  }
}
