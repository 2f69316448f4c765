package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicLong;

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
 * crowded is therefore the crowding factor. Each sample is (shape, latency, overload), where the
 * shape is a hash of the SQL text: latency is only ever compared with the latency of the same
 * shape, so a change of query mix (more range scans, fewer point reads) does not read as overload
 * &mdash; the failure of mix-blind limiters (Netflix concurrency-limits #171 and
 * go-concurrency-limits #117: a 10&nbsp;ms&ndash;2&nbsp;s mix leaves Vegas stuck at its minimum).
 *
 * <p><b>Noise is the enemy, not the signal.</b> On a host shared with other work (every
 * production host, and the 2-core machine of {@code benchmarks/}'s real-database harness) one
 * statement's latency jitters by 20&ndash;40&nbsp;% from one second to the next with no change of
 * load. The controller before this one took the <em>lowest</em> batch mean as the baseline and
 * cut above 1.5&times; it, grew only below 1.25&times;: on such a host the typical uncrowded
 * latency is already 1.2&ndash;1.4&times; the luckiest moment, so it could never grow, cut on
 * every bad second, and sat at a cap of 1&ndash;3 (0.34&times; the best fixed cap's goodput, half
 * of the light traffic refused after the overload). Vegas fails the same way (its no-load round
 * trip is a minimum), Envoy's gradient controller pins the concurrency to 3 to re-measure its
 * minimum (a burst of refusals every interval), and ServiceTalk's gradient limiter says in its own
 * code that noisy hosts bring its limit down to the minimum. Three choices follow:
 *
 * <ol>
 *   <li><b>The baseline is a typical uncrowded latency, not a minimum</b>: an expectile of
 *       batch means per shape, which a lucky second lowers a little and a slow one raises less
 *       ({@link ShapeBaselines}).
 *   <li><b>The decision is proportional, not a pair of thresholds.</b> Thresholds turn noise into
 *       a ratchet (a noisy second cuts; only a quiet one, which noise makes rare, grows). Here the
 *       cap moves each window halfway ({@value #SMOOTHING}) towards {@code cap x }{@value
 *       #TOLERANCE}{@code  / crowding} plus {@value #ALLOWANCE}: noise above and below
 *       the target pushes it by the same amounts in both directions and averages out. This is
 *       Netflix Gradient2's shape (a ratio with a tolerance, a queue allowance, smoothing), with
 *       two differences. The ratio is to a per-shape uncrowded baseline rather than to a
 *       long-term average of whatever latency was seen (which, under a sustained overload, drifts
 *       up to the overload and lets the cap creep: Netflix PR #134). And the allowance is
 *       {@value #ALLOWANCE} statements, not Gradient2's 4: the cap settles where
 *       {@code crowding = }{@value #TOLERANCE}{@code  x cap / (cap - }{@value #ALLOWANCE}{@code )},
 *       near the target at the caps of a real pool (2.1 at 32, 2.2 at 20) and above it at a few
 *       statements (4 at 4), and crowding alone never cuts it below {@code 2 x }{@value
 *       #ALLOWANCE} (there, at most halved plus {@value #ALLOWANCE} is no cut). That floor is
 *       on purpose: at a few statements in flight, latency cannot tell a database whose
 *       statements became costlier (its knee, in statements in flight, did not move: a cut
 *       starves it) from one that lost capacity (a cut is right), because above the knee
 *       crowding is ours times the database's and halving the cap halves the product either
 *       way. The allowance settles that case for the cap that keeps a small database's cores
 *       busy; overload errors still cut below it, down to {@code min} (with a maximum of 4 or
 *       less, only they move the cap). The floor is the database's, so the allowance is divided
 *       among the instances as the budget is ({@link #divide}): two instances floor at 2 each. On
 *       a database that runs one statement at a time (the drill's), that floor is the price: 4
 *       in flight where 1&ndash;2 would do. With an allowance of 1 and only below the target (the
 *       controller before), statements made twice as costly on a shared host often held the cap
 *       at 1&ndash;4 for the rest of the phase, where the best fixed cap was the pool's 10 or 24
 *       ({@code benchmarks/README.md}, "A queue allowance"). The price of the per-shape
 *       baseline is that a database that became slower at every concurrency reads as crowding
 *       and cuts: above the floor, that is told apart by the answer to the cut (below, "Slower,
 *       or crowded?").
 *   <li><b>The target is twice the uncrowded latency.</b> {@value #TOLERANCE}&times; (the
 *       fhir-server ADR's F = 2) keeps enough statements waiting at the database that a stall of a
 *       caller thread does not leave it idle &mdash; on a noisy host a cap at the knee itself
 *       loses a quarter of the goodput &mdash; and bounds the latency the cap lets through to
 *       about twice the healthy one.
 * </ol>
 *
 * <p><b>The baseline, learned without probing.</b> Nothing is ever pinned to measure a no-load
 * latency: light load, and every moment the gate has room, are uncrowded, and that is where the
 * baselines are learned; while the gate was full in the last window they stand still, except at
 * the minimum cap ({@link ShapeBaselines} says why). Feed the controller samples before limiting
 * starts: one whose first samples come from a flood takes the flooded latency for normal, and only
 * overload errors then cut.
 *
 * <p><b>Slower, or crowded?</b> A database that became slower at every concurrency (every
 * statement twice as costly, a neighbour taking the CPUs, a new plan: Netflix concurrency-limits
 * #171) first reads as crowding, and a controller that cuts for it cuts for nothing: the knee, in
 * statements in flight, has not moved (twice as costly statements on the same cores crowd them at
 * the same count), and a cap cut to 1&ndash;5 only starves it. On the real-database harness the
 * controller before this one did exactly that when the statements' cost doubled (the cap from 32
 * to 1&ndash;5, 0.78&times; the best fixed cap's goodput). What tells the two apart is the
 * response to a cut: past the knee, crowding is in proportion to what is in flight, so halving the
 * cap halves it; crowding that stays is not ours. So while the gate is full, the window before a
 * cut is kept as a reference, and when the cap has come down to half of it the crowding (the mean
 * of the last two windows, so that one window's noise decides nothing) is compared with it: above
 * {@value SlowerOrCrowded#STAYED} of it (closer, in ratio, to "did not move" than to "halved") and
 * still above the tolerance, every baseline is multiplied by that crowding, which then reads 1,
 * and the cap grows back to where the crowding is {@value #TOLERANCE} again &mdash; within a
 * second or two, where learning batch by batch at a low cap (few samples) took longer than the
 * overload lasted. The test reads the crowding with latencies clipped at {@value #WIDE_CLIP}&times;
 * their baseline, not {@value #CLIP}: a database more than {@value #CLIP} times slower than its
 * baselines would otherwise read clipped at every cap, show no fall, and be cut to the minimum
 * (six times slower statements took the cap to 1). A reference whose crowding is near that clip
 * cannot show a fall either and follows the cap down; one older than
 * {@value SlowerOrCrowded#REFERENCE_WINDOWS} windows is replaced, so that only a cut of one
 * episode is judged. Crowding that is both ours and the database's can take two halvings: the
 * first halves our part, the second finds the rest. Taking the crowding by degrees instead of
 * above a threshold (the share that stayed after the halving, in proportion) was measured over
 * fourteen rounds of the real-database harness and not kept: no more goodput than the
 * threshold's, and more of the light load refused after the overload (see
 * {@code benchmarks/README.md}). On a host without a sharp knee (the harness's 2 cores, where a
 * fixed cap of 4 instead of 8 lowered the p99 under 3&times; by only a quarter) the test's answer
 * lies between "halved" and "did not move" whatever the cause, and noise decides it. The
 * controller before this one had the same test, but
 * against the <em>worst</em> window since the cap last rose, which on a noisy host is the noise's
 * peak: on the quiet host's run it never fired. Gradient2 does without the test, for a different
 * reason worth stating: it moves on every sample to {@code limit x gradient + 4} with smoothing,
 * so its equilibrium is {@code limit = 4 / (1 - gradient)}: a level shift of 2&ndash;3&times;
 * leaves it near 8&ndash;16 rather than at 1, while its long-term average (600 samples) absorbs
 * the shift; but that fixed allowance also sets its cap by the spread of single latencies, not by
 * crowding, and bounds it below by about 8 whatever the database. Where the rescale errs, it
 * errs high: all of the crowding left after the halving is taken for the database's own, and the
 * cap grows until it reads {@value #TOLERANCE} again &mdash; back to where the cut began if
 * crowding is in proportion to what is in flight, further where it grows more slowly (on the
 * harness's noisy host, from 13 back to the pool's 32, with 5&ndash;10&nbsp;% of the statements
 * past a deadline this controller does not see) &mdash; until uncrowded batches bring the
 * baselines back down (a quarter of the way per batch) or overload errors cut. Overload errors
 * while the cap is in use after a rescale refute it: the crowding was ours after all. The
 * rescales are undone (the baselines divided by the same factors) and no other is made until the
 * gate has room again &mdash; without this, the 30&nbsp;% cut of the errors was followed at once
 * by growth back to where they began (on the harness, a cap swinging between 22 and 32 with
 * statement timeouts for five seconds). And the rescales of one episode multiply to at most
 * {@value #CLIP}, the most crowding the decision can read: on a noisy host, where halving the cap
 * need not halve the crowding of a few windows, they compounded until the cap sat at the pool's
 * size with statements past their deadline.
 *
 * <p><b>The decision.</b> Samples are pooled into windows of at least
 * {@value #WINDOW_MILLIS}&nbsp;ms and {@value #MIN_WINDOW_SAMPLES} samples. A window's crowding is
 * the sum of its latencies over the sum of their shapes' baselines (each latency clipped at
 * {@value #CLIP}&times; its baseline so one stuck statement cannot move it), so heavy statements
 * weigh by their cost. The cap is <em>in use</em> when the gate filled during the window or half
 * of it was in flight (now, or at a sample's end in the window). A cap far above what ever runs
 * at once (a maximum above the pool's size) is never in use by that rule; so when the window was
 * crowded (at least {@value #TOLERANCE}) or had overload errors, and at least twice this
 * instance's allowance was in flight at its peak, the decision takes the peak plus the allowance
 * for the cap in use and decides as below from there (issue 35: {@code max=64} over a pool of
 * 32 never moved, the database at 32 in flight and 55 times its latency alone). Below twice the
 * allowance crowding alone cuts no cap anyway, so a handful of noisy statements at light load
 * still cuts nothing. Then, in order:
 *
 * <ol>
 *   <li>any overload error (SQLState class 53, {@code 57014}, a lost connection, the pool's
 *       timeout) while the cap is in use is the strongest signal: the cap is multiplied by
 *       {@value #OVERLOAD_BACKOFF}, and until the gate has room again it grows no higher than
 *       just below where the errors came ({@link ErrorCeiling});
 *   <li>while the cap is in use, it moves halfway towards {@code cap x g + a}, where {@code a}
 *       is this instance's part of {@value #ALLOWANCE} ({@link #divide}) and the gradient
 *       {@code g = }{@value #TOLERANCE}{@code  / crowding} is kept within [{@value #MIN_GRADIENT},
 *       {@value #MAX_GRADIENT}]: at most halved, at most doubled towards;
 *   <li>while it is not in use and the crowding is below {@value #TOLERANCE}, it grows by half
 *       plus 1: a cap nobody reaches protects nothing, and one left low after an overload refuses
 *       the light traffic that follows; nobody is held back, so nothing measures how high it may
 *       go, and it is back at the maximum within a few windows;
 *   <li>otherwise the cap holds.
 * </ol>
 *
 * <p>After the decision, while the gate is full, the test of "slower, or crowded?" above may
 * rescale the baselines.
 *
 * <p>A cap that is not in use is never cut: cutting on the noise of a handful of statements under
 * light load is how limiters end in refusal storms. After a cut deeper than to
 * {@value #DEEP_CUT} of the cap, or any cut on overload errors, samples of statements admitted
 * before it are ignored by the decision: they ran under the old cap and would cut again for the
 * same cause. Refused calls never give a sample (they did not run), so they cannot drag the
 * estimate down (Netflix concurrency-limits #176).
 *
 * <p><b>What it cannot do.</b> With a maximum far above what the pool lets run (a pool of 10
 * under a maximum of 100), the cap follows what is in flight only once the database is crowded:
 * the first cut starts from the peak in flight, not from the maximum, and the log says once that
 * the maximum is above what ran ({@link #unreachedPeak}); until then the cap reads the maximum,
 * and the light load after an overload grows it back there. The maximum is best at most the
 * pool's size ({@code sluice.concurrency.max} defaults to it where Sluice can read it, and
 * Sluice warns at start where it cannot). Between the database's
 * knee and twice it, a noisy host makes the cap wander by &plusmn;30&nbsp;% from window to window.
 * On a host so shared that the database's share of the CPUs grows with its own backends, latency
 * grows slowly with the cap and there is no knee within the pool: the cap then stays near the
 * maximum, and only the maximum (and overload errors) bound it. {@code min} stops
 * a cut below what the application needs to make progress, and bounds the damage of a baseline
 * learned from a flood.
 *
 * <p><b>Cost.</b> {@link #onSample} is O(1) and allocates nothing: a clock read, a read of the
 * gate's count for the window's peak, one {@code getAndAdd} and one read of
 * {@link ShapeBaselines} for the shape, three adds to the {@link SampleWindow}; one call in a window makes the decision, a few dozen arithmetic operations (and, on the
 * rare rescale, one pass over the {@value ShapeBaselines#SLOTS} baselines). No lock is
 * taken; the statistics tolerate the races they have (a sample landing in the next window, a batch
 * lost to a concurrent one).
 *
 * <p>This class is threadsafe.
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
