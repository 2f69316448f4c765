package dev.sluice.internal.limit;

/**
 * {@code sluice.reserve}: how much of the bucket, and of the concurrency cap, each
 * {@link dev.sluice.Priority} sees, so that a flood of a lower priority can never take the top of
 * either from a higher one. {@link Bucket} and {@link ConcurrencyGate} compute each priority's
 * part with {@link #classBurst} when their rate, burst or cap is set, never per call.
 *
 * <h2>In the bucket</h2>
 *
 * <p>{@code CRITICAL} sees the whole burst {@code b}; the priority {@code k} steps below sees
 * {@code (1 - reserve)^k} of it, to the nearest whole permit and at least one ({@code b = 10},
 * reserve {@code 0.2}: 10, 8, 6), as its tolerance on the bucket's one {@code tat}. A flood of a
 * lower priority can push {@code tat} no further than its own tolerance, so the top of the bucket
 * &mdash; the last {@code b - b_low} permits, a time window of about {@code reserve * b / rate}
 * &mdash; stays within reach of the higher priorities only. Above the flood's edge, a higher
 * priority sees a bucket of its own, at the full rate and {@code b - b_low} deep: every permit
 * it takes pushes {@code tat} up and the flood waits, so it is admitted whenever its own demand
 * fits the rate and that depth. Nothing is wasted: with no higher demand, a lower priority takes
 * every permit as the rate frees it (its tolerance is at least one interval), so it gets the
 * whole rate, with a smaller burst.
 *
 * <p>The limit of the scheme is the depth: the reserve is a number of whole permits, so it only
 * holds when the burst leaves some. Arrivals that are random rather than evenly spaced (Poisson)
 * need a few permits of depth to be admitted 99&nbsp;% of the time. Measured on a fake clock
 * against a flood, with the higher demand at {@code reserve * rate}: at reserve 0.2, one permit
 * of depth admits 90.7&nbsp;%, two 99.2&nbsp;%, three 99.96&nbsp;%; at 0.5, four admit
 * 99.6&nbsp;%. So at the default 0.2 the burst must be at least 8 (the default burst, 100 ms of
 * the share, is from a share above 70/s). Below a burst of 3, {@code NORMAL} keeps the whole
 * burst and there is no reserve over it; with burst 1 every priority sees the one permit and
 * there is no reservation at all: the flood takes each permit as the rate frees it.
 *
 * <p>The cap is divided the same way, in places instead of permits ({@link ConcurrencyGate}).
 */
public final class Reserve {

  private Reserve() {}

  /**
   * The burst the priority of ordinal {@code k} sees: the whole burst for the highest, then
   * {@code (1 - reserve)^k} of it, to the nearest whole permit and at least one, so that every
   * priority can be admitted. Nearest, not down: a reserve of 0.2 of a burst of 2 is 0.4 of a
   * permit, and taking a whole one for it would halve what the calls below may take at once.
   *
   * @param burst the whole burst (or cap)
   * @param reserve {@code sluice.reserve}, {@code 0 <= reserve < 1}
   * @param k the priority's ordinal: {@code 0} is {@code CRITICAL}
   * @return the part the priority sees
   */
  public static int classBurst(int burst, double reserve, int k) {
    if (k == 0 || burst == 0) {
      return burst;
    }
    return (int) Math.max(1, Math.round(burst * Math.pow(1 - reserve, k)));
  }
}
