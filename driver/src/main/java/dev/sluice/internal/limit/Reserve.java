package dev.sluice.internal.limit;

/**
 * {@code sluice.reserve}: how much of the bucket, and of the concurrency cap, each
 * {@link dev.sluice.Priority} sees, so that a flood of a lower priority can never take the top of
 * either from a higher one. {@link Bucket} and {@link ConcurrencyGate} compute each priority's
 * part with {@link #classBurst} when their rate, burst or cap is set, never per call.
 *
 * <p>{@code CRITICAL} sees the whole burst {@code b}; the priority {@code k} steps below sees
 * {@code (1 - reserve)^k} of it, to the nearest whole permit and at least one ({@code b = 10},
 * reserve {@code 0.2}: 10, 8, 6), as its tolerance on the bucket's one {@code tat}. A flood can push
 * {@code tat} no further than its own tolerance, so the top {@code b - b_low} permits stay for the
 * priorities above it; with no demand above, a lower priority still gets the whole rate, with a
 * smaller burst. The reserve is whole permits, so it needs depth: at the default 0.2 a burst of at
 * least 8, and with burst 1 there is no reservation at all. The cap is divided the same way, in
 * places instead of permits ({@link ConcurrencyGate}).
 *
 * <p>The long form, with the figures measured on a fake clock:
 * docs/how-it-works.md#the-reserves-depth.
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
