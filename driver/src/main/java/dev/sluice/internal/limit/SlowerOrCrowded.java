package dev.sluice.internal.limit;

/**
 * The test of "slower, or crowded?" of {@link AdaptiveConcurrency}: whether halving the cap left
 * the crowding where it was &mdash; the database became slower at every concurrency (twice as
 * costly statements, a neighbour taking the CPUs, a new plan), which cutting the cap cannot help
 * &mdash; or halved it, as crowding that is ours does. The class comment of
 * {@link AdaptiveConcurrency} argues the test and what the controller does with its answer (the
 * baselines rescaled by the crowding that stayed).
 *
 * <p>Not threadsafe: only the controller's decision uses it, one window at a time. A decision
 * writes here before it publishes the cap (a volatile write), and the next one reads the cap
 * before it reads here, so each sees what the one before wrote; two decisions that overlap (a
 * thread descheduled for a whole window) can only blur a heuristic, never the gate's count.
 */
final class SlowerOrCrowded {

  /** Halving the cap left the crowding above this share of it: the database became slower. */
  static final double STAYED = 0.7;
  /** A reference older than this many windows is replaced by the current one. */
  static final int REFERENCE_WINDOWS = 10;

  /** The crowding the controller aims at; below it, nothing is rescaled. */
  private final double tolerance;
  /** The crowding the test's latencies are clipped at: a reference near it cannot show a fall. */
  private final double clip;
  /** The window a later one's crowding is compared with. */
  private double referenceCap;
  private double referenceCrowding;
  private double previousCrowding = Double.NaN;
  private int referenceAge;

  /**
   * A test for a controller that aims at {@code tolerance} and clips crowding at {@code clip}.
   *
   * @param tolerance the crowding aimed at
   * @param clip the most a window's crowding can read
   */
  SlowerOrCrowded(double tolerance, double clip) {
    this.tolerance = tolerance;
    this.clip = clip;
  }

  /**
   * The test, once per window: the factor to
   * rescale the baselines by when halving the cap left the crowding where it was, else 1.
   *
   * <p>The reference is the last window in which the cap was within 10 % of the reference's (or
   * the reference's crowding was clipped, or older than {@value #REFERENCE_WINDOWS} windows): it
   * is frozen while the cap is cut below it, and tested when the cap reaches half of it, against
   * the mean crowding of the last two windows. The first full window after the gate had room is
   * skipped: it mixes statements admitted before the gate filled. Everything is dropped when the
   * gate has room. Written only by the decision.
   *
   * @param saturated whether the gate filled in the window
   * @param cap the cap in the window
   * @param crowding the window's crowding, clipped at {@code clip} ({@code NaN}: none measured)
   * @return the factor to multiply the baselines by, or 1
   */
  double factor(boolean saturated, double cap, double crowding) {
    double previous = previousCrowding;
    previousCrowding = saturated ? crowding : Double.NaN;
    if (!saturated || Double.isNaN(crowding) || Double.isNaN(previous)) {
      referenceCap = 0; // the first full window mixes statements of before the gate filled
      return 1;
    }
    double refCap = referenceCap;
    if (refCap == 0 || cap >= refCap * 0.9 || referenceCrowding >= clip * 0.9
        || ++referenceAge > REFERENCE_WINDOWS) {
      referenceAge = 0;
      referenceCap = cap;
      referenceCrowding = crowding;
      return 1;
    }
    if (cap > refCap * 0.5) {
      return 1;
    }
    double now = (previous + crowding) / 2;
    double refCrowding = referenceCrowding;
    referenceAge = 0;
    referenceCap = cap;
    referenceCrowding = now;
    if (now < tolerance || now < refCrowding * STAYED) {
      return 1;
    }
    referenceCap = 0;
    previousCrowding = Double.NaN;
    return now;
  }
}
