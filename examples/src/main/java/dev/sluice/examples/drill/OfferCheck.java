package dev.sluice.examples.drill;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * Whether a run offered what the drill promised: the load, second by second, on time. A machine
 * too busy to run the load generator (a stalled JVM, two cores shared with other work) makes
 * seconds with no reads and seconds with a burst of the missed ones; the figures of such a run say
 * nothing about Sluice, so the drill calls it invalid, prints why and no headline, and exits with
 * 3.
 *
 * <p>Two checks, each with a set margin:
 *
 * <ul>
 *   <li>every second offered the reads (and CRITICAL writes) the schedule had for it within
 *       {@value #MARGIN_PERCENT}% (at least {@value #MIN_SLACK} either way, for a low load). A
 *       second off by a fifth can no longer be read as "this second's load"; a pause of up to
 *       200 ms across the end of a second still passes (its reads land, late, in the next);
 *   <li>the generator was never more than {@value #MAX_BEHIND_MILLIS} ms behind its schedule: a
 *       read due at 4.2 s and offered at 4.8 s arrives in a burst with thousands of others, a
 *       load no user made.
 * </ul>
 *
 * <p>Why these margins: the generator ticks every millisecond and catches up on what was due, so
 * a short pause only moves reads a little later. On two cores shared with seven other builds
 * (load average 30 to 35) the valid runs measured stayed within 6 to 13% per second and 160 to
 * 390 ms behind; the runs that printed garbage had stalls of 1.2 s and more (load average 45).
 * Tighter margins would reject runs whose figures are sound; looser ones would let a burst of
 * half a second's load pass as steady.
 *
 * <p>Stateless and threadsafe.
 */
final class OfferCheck {
  /** How far a second's count may be from its schedule, in percent of it. */
  static final int MARGIN_PERCENT = 20;
  /** The least slack either way, in reads: at 1 read/s a second holds 0 or 2 without a fault. */
  static final int MIN_SLACK = 2;
  /** How far behind its schedule the generator may fall. */
  static final int MAX_BEHIND_MILLIS = 500;
  /** How many faulty seconds a verdict lists before it counts the rest. */
  private static final int LISTED = 5;

  private OfferCheck() {}

  /**
   * What the run failed to offer, one line each; empty if it offered what was promised.
   *
   * @param seconds the run's seconds
   * @param options the scenario: the load and the writes per second
   * @return the problems, for the operator to read
   */
  static List<String> problems(List<Recorder.Second> seconds, DrillOptions options) {
    List<String> problems = new ArrayList<>();
    offeredPerSecond(problems, seconds, "reads", options.load, Recorder.Second::offered);
    if (options.criticalWrites > 0) {
      offeredPerSecond(problems, seconds, "CRITICAL writes", options.criticalWrites,
          Recorder.Second::writes);
    }
    behind(problems, seconds);
    return problems;
  }

  /**
   * The line that says how closely valid runs kept the schedule: the worst second's distance from
   * the load and how far the generator fell behind, against the margins.
   *
   * @param runs the runs, all valid
   * @param options the scenario
   * @return one sentence
   */
  static String kept(List<Summary> runs, DrillOptions options) {
    double worstOff = 0;
    double worstBehind = 0;
    for (Summary run : runs) {
      for (Recorder.Second s : run.seconds()) {
        worstOff = Math.max(worstOff, Math.abs(s.offered() - options.load) / options.load);
        worstBehind = Math.max(worstBehind, s.behindMillis());
      }
    }
    return String.format(Locale.ROOT, "Every run offered its load: each second within %s of"
        + " %,.0f reads, the generator at most %,.0f ms behind its schedule (a run is invalid"
        + " beyond %d%% or %d ms).", percent(worstOff), options.load, Math.ceil(worstBehind),
        MARGIN_PERCENT, MAX_BEHIND_MILLIS);
  }

  private static void offeredPerSecond(List<String> problems, List<Recorder.Second> seconds,
      String what, double perSecond, ToLongFunction<Recorder.Second> count) {
    double slack = Math.max(perSecond * MARGIN_PERCENT / 100.0, MIN_SLACK);
    int off = 0;
    for (Recorder.Second s : seconds) {
      long offered = count.applyAsLong(s);
      if (Math.abs(offered - perSecond) <= slack) {
        continue;
      }
      if (++off <= LISTED) {
        problems.add(String.format(Locale.ROOT, "second %d offered %,d %s instead of %,.0f"
            + " (%s off; the margin is %d%%)", s.t(), offered, what, perSecond,
            percent(Math.abs(offered - perSecond) / perSecond), MARGIN_PERCENT));
      }
    }
    if (off > LISTED) {
      problems.add(String.format(Locale.ROOT, "... and %d more seconds off their %s", off - LISTED,
          what));
    }
  }

  private static void behind(List<String> problems, List<Recorder.Second> seconds) {
    Recorder.Second worst = null;
    for (Recorder.Second s : seconds) {
      if (worst == null || s.behindMillis() > worst.behindMillis()) {
        worst = s;
      }
    }
    if (worst != null && worst.behindMillis() > MAX_BEHIND_MILLIS) {
      problems.add(String.format(Locale.ROOT, "the load generator fell %,.0f ms behind its"
          + " schedule in second %d (the limit is %d ms): what was due meanwhile arrived at once",
          worst.behindMillis(), worst.t(), MAX_BEHIND_MILLIS));
    }
  }

  private static String percent(double ratio) {
    return ratio < 0.1 ? String.format(Locale.ROOT, "%.1f%%", ratio * 100)
        : String.format(Locale.ROOT, "%.0f%%", ratio * 100);
  }
}
