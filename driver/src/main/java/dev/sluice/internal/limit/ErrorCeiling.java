package dev.sluice.internal.limit;

/**
 * What overload errors taught the adaptive cap in one episode of a full gate: a cap at which
 * statements failed or missed their deadline, less a margin, that the cap does not grow past
 * again while the episode lasts.
 *
 * <p>Without it, the cut of the errors ({@link AdaptiveConcurrency#OVERLOAD_BACKOFF}) was followed
 * within two or three windows by growth back to where the errors began, as soon as the latencies
 * of the statements admitted after the cut read uncrowded: on the real-database harness's noisy
 * host, a cap swinging between 18 and 28 with statements past the deadline in most 250&nbsp;ms
 * bins of the halved phase, never settling. So a cut for errors at cap {@code c} sets the ceiling
 * to {@value #MARGIN}&nbsp;&times;&nbsp;{@code c} (and below the ceiling itself when the errors
 * come at it: it falls until they stop), and the cap grows no higher. Each second without errors
 * the ceiling rises by a twentieth, at least one place, so a database that can take more is found
 * again; by the clock, not by windows, since a window waits for enough samples and at a cap of 1
 * or 2 lasts half a second (counted in windows, a ceiling of 1 held the cap there for the last
 * three seconds of an overload on the harness's noisy host with a pool of 10). It is forgotten
 * when the gate has room (the episode is over: a cap nobody reaches must be free to grow back to
 * the maximum). TCP's slow-start threshold does the same after a loss.
 *
 * <p>Not threadsafe: only the controller's decision uses it, one window at a time. A decision
 * writes here before it publishes the cap (a volatile write), and the next one reads the cap
 * before it reads here, so each sees what the one before wrote; two decisions that overlap (a
 * thread descheduled for a whole window) can only blur a heuristic, never the gate's count.
 */
final class ErrorCeiling {

  /** The ceiling is this share of the cap at which the errors came. */
  static final double MARGIN = 0.9;
  /** Each second without errors, the ceiling rises by this share of itself, at least one place. */
  static final double RISE = 0.05;
  private static final long SECOND_NANOS = 1_000_000_000L;

  /** The highest the cap may grow to; 0: no errors in this episode. */
  private double ceiling;
  /** When the ceiling last fell or rose, on the controller's clock. */
  private long sinceNanos;

  /**
   * Overload errors came while the cap was in use at {@code cap}.
   *
   * @param cap the cap the errors came at
   * @param min the controller's minimum, under which the ceiling never goes
   * @param now the controller's clock, in nanoseconds
   */
  void errorsAt(double cap, int min, long now) {
    double at = ceiling > 0 ? Math.min(ceiling, cap) : cap;
    ceiling = Math.max(min, at * MARGIN);
    sinceNanos = now;
  }

  /**
   * A window of the episode without errors: once a second has passed since the ceiling last
   * moved, it rises.
   *
   * @param now the controller's clock, in nanoseconds
   */
  void quietWindow(long now) {
    if (ceiling > 0 && now - sinceNanos >= SECOND_NANOS) {
      ceiling += Math.max(1, ceiling * RISE);
      sinceNanos = now;
    }
  }

  /** The gate had room: the episode is over, and what its errors taught goes with it. */
  void forget() {
    ceiling = 0;
  }

  /**
   * The decision's next cap, bounded: it may not grow past the ceiling (a cap above it may still
   * come down, or hold).
   *
   * @param cap the cap now
   * @param next the cap the decision proposes
   * @return {@code next}, or the larger of {@code cap} and the ceiling when {@code next} grows past
   *     both
   */
  double bound(double cap, double next) {
    return ceiling > 0 && next > cap && next > ceiling ? Math.max(cap, ceiling) : next;
  }
}
