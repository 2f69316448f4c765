package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Adapts the cap of a {@link ConcurrencyGate} between a minimum and a maximum from what the
 * statements it admitted tell of the database: their latency against the uncrowded latency of
 * the same statement shape ({@link ShapeBaselines}: a typical one, not a minimum, so a noisy
 * host does not ratchet the cap down), and their overload errors.
 *
 * <p>Each window of at least {@value #WINDOW_MILLIS}&nbsp;ms and {@value #MIN_WINDOW_SAMPLES}
 * samples decides once ({@link SampleWindow} gives its crowding), in order:
 * <ol>
 *   <li>overload errors while the cap is in use multiply it by {@value #OVERLOAD_BACKOFF}, and
 *       it grows no higher than where they came until the gate has room ({@link ErrorCeiling});
 *   <li>in use, the cap moves halfway towards {@code cap x 2 / crowding + allowance}
 *       (Gradient2's shape; the allowance, {@value #ALLOWANCE} divided among the instances, is
 *       the floor crowding alone cannot cut below);
 *   <li>not in use and not crowded, it grows by half plus 1;
 *   <li>otherwise it holds.
 * </ol>
 * A cap far above what ever runs at once decides from the peak in flight plus the allowance
 * (issue 35). While the gate is full, a cap halved without halving the crowding means a slower
 * database, not a crowded one: the baselines are rescaled ({@link SlowerOrCrowded}). A cap not
 * in use is never cut; refused calls give no sample.
 *
 * <p>The why, the peers' failures it avoids (Vegas, Gradient2, Envoy) and the measurements
 * behind each constant: docs/adaptive-concurrency.md.
 *
 * <p>{@link #onSample} is O(1), allocates nothing and takes no lock. This class is threadsafe.
 */
public final class AdaptiveConcurrency {

  static final int BATCH = ShapeBaselines.BATCH;
  static final int WINDOW_MILLIS = 100;
  static final int MIN_WINDOW_SAMPLES = 16;
  static final double CLIP = 4.0;
  /** The clip of the crowding the test of "slower, or crowded?" reads: it must see past CLIP. */
  static final double WIDE_CLIP = 16.0;
  static final double OVERLOAD_BACKOFF = 0.7;
  /** The crowding the cap aims at while it holds callers back: latency twice its baseline. */
  static final double TOLERANCE = 2.0;
  /**
   * The statements a cap in use may hold beyond the target's: crowding alone cuts no cap below
   * twice this (the class comment says why).
   */
  static final int ALLOWANCE = 2;
  /** How far towards its target the cap moves in one window. */
  static final double SMOOTHING = 0.5;
  /** The least a window's target may be, as a share of the cap: at most halved per window. */
  static final double MIN_GRADIENT = 0.5;
  /** The most a window's target may be, as a multiple of the cap. */
  static final double MAX_GRADIENT = 2.0;
  /** How much a cap nobody reaches grows in a window while the database is not crowded. */
  static final double UNUSED_GROWTH = 1.5;
  /** A cut smaller than this share of the cap does not discard the samples admitted before it. */
  static final double DEEP_CUT = 0.8;
  /** How much the ceiling of the baselines' learning may rise in one uncrowded window. */
  static final double CEILING_GROWTH = 1.5;
  static final int WANTED_WINDOW_SAMPLES = 64;
  static final int MAX_STRIDE = ConnectionState.SAMPLE_EVERY; // the connection's count wraps there

  private static final long WINDOW_NANOS = WINDOW_MILLIS * 1_000_000L;

  private final ConcurrencyGate gate;
  private final int min;
  private final int max;
  private final Ticker ticker;

  private final ShapeBaselines baselines = new ShapeBaselines();
  /** Where overload errors came in this episode of a full gate; only the decision uses it. */
  private final ErrorCeiling ceiling = new ErrorCeiling();
  /** The test of "slower, or crowded?"; only the decision uses it. */
  private final SlowerOrCrowded slowerOrCrowded = new SlowerOrCrowded(TOLERANCE, WIDE_CLIP);

  /** The decision's crowding clipped at CLIP, the test's at WIDE_CLIP. */
  private final SampleWindow window;
  private volatile long lastCutNanos;
  private final AtomicLong relearned = new AtomicLong();
  /** The rescales of this episode of a full gate, multiplied (1: none); whether errors refuted them. */
  private volatile double rescaled = 1;
  private volatile boolean refuted;
  /** See {@link #sampleStride()}; written only by the decision. */
  private volatile int stride = 1;
  private volatile double estimate;
  /** This instance's part of {@link #ALLOWANCE}; see {@link #divide}. */
  private volatile double allowance = ALLOWANCE;
  /**
   * Above this many in flight, a sample stops the baselines' learning until the next decision:
   * twice the peak of the last uncrowded window plus twice the allowance, rising by at most
   * half per window (a window that mixed light load with the first of a flood reads uncrowded);
   * unknown at first: no ceiling.
   */
  private volatile int learnCeiling = Integer.MAX_VALUE;
  /** The peak in flight when a cap far above it first followed it (0: never); for the log. */
  private volatile int unreachedPeak;
  private volatile double unreachedCrowding;

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
    long now = ticker.read();
    this.window = new SampleWindow(CLIP, WIDE_CLIP, now);
    this.lastCutNanos = now;
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
    int running = gate.inFlight();
    if (running > learnCeiling) {
      baselines.stopLearning(); // far more in flight than where the baselines were learned
    }
    int slot = ShapeBaselines.slotOf(shape);
    long latency = Math.max(0, Math.min(latencyNanos, ShapeBaselines.MAX_LATENCY_NANOS));
    if (!overload) {
      baselines.add(slot, latency);
    }
    window.inFlight(running);
    if (now - latency >= lastCutNanos) {
      window.add(latency, overload ? 0 : baselines.of(slot), overload);
    }
    if (window.close(now, WINDOW_NANOS, MIN_WINDOW_SAMPLES)) {
      decide(now);
    }
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
   * Divides the {@link #ALLOWANCE} among {@code instances}, as the budget is: the floor it puts
   * under the cuts of latency is the database's (its cores kept busy), not each instance's, so
   * two instances floor at 2 each. The cap itself stays each instance's own.
   *
   * @param instances the live instance count (below 1 counts as 1)
   */
  public void divide(double instances) {
    allowance = ALLOWANCE / Math.max(1, instances);
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
   * How many times the controller found the database slower for good and rescaled its baselines.
   *
   * @return the count since creation
   */
  public long relearned() {
    return relearned.get();
  }

  /**
   * The most statements in flight when the cap, far above them, first followed them instead of
   * waiting to be filled: {@code max} is above what the pool (or the callers) can run.
   *
   * @return that peak, or 0 while it never happened
   */
  public int unreachedPeak() {
    return unreachedPeak;
  }

  /** The crowding of the window of {@link #unreachedPeak()}. */
  public double unreachedCrowding() {
    return unreachedCrowding;
  }

  /** The highest cap. */
  public int max() {
    return max;
  }

  /**
   * Returns the no-load latency learned for a shape.
   *
   * @param shape a statement shape
   * @return the baseline in nanoseconds, 0 while none is known
   */
  long baselineNanos(int shape) {
    return baselines.of(ShapeBaselines.slotOf(shape));
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

  private void decide(long now) {
    adjustStride(window.samples());
    boolean overloaded = window.overloaded();
    double crowding = window.crowding();
    boolean saturated = gate.takeSaturated();
    double cap = estimate;
    int peak = Math.max(gate.inFlight(), window.peak());
    boolean inUse = saturated || peak * 2 >= cap;
    if (!inUse && (overloaded || crowding >= TOLERANCE) && peak >= 2 * allowance) {
      cap = Math.min(cap, peak + allowance); // the cap in use is what ran (issue 35)
      inUse = true;
      if (unreachedPeak == 0) {
        unreachedPeak = peak;
        unreachedCrowding = crowding;
      }
    }
    if (overloaded && inUse) {
      ceiling.errorsAt(cap, min, now);
    } else if (saturated) {
      ceiling.quietWindow(now);
    } else {
      ceiling.forget();
    }
    double next = ceiling.bound(cap,
        Math.max(min, Math.min(max, next(cap, crowding, overloaded, inUse, allowance))));
    if (next < cap * DEEP_CUT || overloaded && next < cap) {
      lastCutNanos = now;
    }
    int ceiling = learnCeiling;
    baselines.learning((!saturated || next <= min) && peak <= ceiling);
    if (!saturated && !overloaded && crowding < TOLERANCE) { // uncrowded: the ceiling follows
      learnCeiling = (int) Math.min(2L * peak + 2 * ALLOWANCE, ceiling * CEILING_GROWTH + 1);
    }
    double factor = slowerOrCrowded.factor(saturated, cap, window.wideCrowding());
    if (!saturated) {
      rescaled = 1; // the episode is over: the gate had room, the baselines learn as usual
      refuted = false;
    } else if (overloaded && inUse && rescaled > 1) {
      baselines.rescale(1 / rescaled); // overload errors refute them: the crowding was ours
      rescaled = 1;
      refuted = true;
    } else if (factor > 1 && !refuted && rescaled < CLIP) {
      factor = Math.min(factor, CLIP / rescaled); // at most CLIP times slower in one episode
      baselines.rescale(factor);
      rescaled *= factor;
      relearned.incrementAndGet();
    }
    estimate = next;
    gate.setLimit((int) next);
  }

  /** The rules of the block comment, in its order. */
  private static double next(
      double cap, double crowding, boolean overloaded, boolean inUse, double allowance) {
    if (overloaded && inUse) {
      return cap * OVERLOAD_BACKOFF;
    }
    if (Double.isNaN(crowding)) {
      return cap;
    }
    if (inUse) {
      double gradient = Math.max(MIN_GRADIENT, Math.min(MAX_GRADIENT, TOLERANCE / crowding));
      return cap + SMOOTHING * (cap * gradient + allowance - cap);
    }
    return crowding < TOLERANCE ? cap * UNUSED_GROWTH + 1 : cap;
  }
}
