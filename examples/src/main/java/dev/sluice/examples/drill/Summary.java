package dev.sluice.examples.drill;

import java.util.List;

/**
 * The headline figures of one run: over the outage, and over the recovery — from the cache's
 * return until it is warm again.
 *
 * <p>The cache is <em>warm again</em> from the first second after its return whose hit ratio is
 * within one point of the model's steady hit ratio ({@link #warmHitRatio}); the seconds before
 * that are the recovery.
 *
 * @param kind which run it was
 * @param seconds the per-second figures
 * @param outage the figures of the seconds the cache was down
 * @param recovery the figures of the seconds after its return until it was warm again (empty if
 *     it came back warm)
 * @param warmAfterSeconds seconds from the cache's return until it was warm again, or -1 if it
 *     was not warm again before the run ended
 * @param rejected reads rejected fast over the whole run
 * @param timedOut reads that timed out over the whole run
 * @param failed reads that failed for a reason the drill does not expect (should be 0)
 * @param firstFailure the first such failure, or {@code null}
 * @param answerP99Millis the age under which 99% of Sluice's answers were, in milliseconds, or
 *     -1 if Sluice answered no read
 */
record Summary(RunKind kind, List<Recorder.Second> seconds, Window outage, Window recovery,
    int warmAfterSeconds, long rejected, long timedOut, long failed, Exception firstFailure,
    long answerP99Millis) {

  static Summary of(RunKind kind, Recorder recorder, DrillOptions options) {
    return of(kind, recorder.seconds(), recorder.failed(), recorder.firstFailure(),
        recorder.answerAgeMillis(0.99), options);
  }

  /** The summary of a run's seconds, however they were recorded. */
  static Summary of(RunKind kind, List<Recorder.Second> seconds, long failed,
      Exception firstFailure, long answerP99Millis, DrillOptions options) {
    int warm = firstWarmSecond(seconds, options);
    int recoveryEnd = warm < 0 ? seconds.size() : warm;
    long rejected = 0;
    long timedOut = 0;
    for (Recorder.Second s : seconds) {
      rejected += s.rejected();
      timedOut += s.timedOut();
    }
    return new Summary(kind, seconds,
        Window.of(seconds, options.outageStart, options.outageEnd()),
        Window.of(seconds, options.outageEnd(), recoveryEnd),
        warm < 0 ? -1 : warm - options.outageEnd(), rejected, timedOut, failed, firstFailure,
        answerP99Millis);
  }

  /** What the table and the summary call the run ("with Sluice"). */
  String label() {
    return kind.label();
  }

  /**
   * The figures from the loss of half the database's capacity ({@code --capacity-drop}) to the
   * end of the run (it is never given back); empty without the option.
   *
   * @param options the scenario
   * @return the window
   */
  Window capacityLost(DrillOptions options) {
    return options.capacityDrop < 0 ? Window.of(seconds, 0, 0)
        : Window.of(seconds, options.capacityDrop, seconds.size());
  }

  /**
   * The hit ratio from which the cache counts as warm: one point under what the model answers in a
   * steady state (the measured ratio wanders by a few tenths of a point from second to second).
   *
   * @param options the scenario
   * @return the threshold, from 0 to 1
   */
  static double warmHitRatio(DrillOptions options) {
    return Math.max(0, model(options).steadyHitRatio(options.load) - 0.01);
  }

  /** The scenario's cache as a model, for what it predicts (no clock: nothing is stored). */
  static SimulatedCache model(DrillOptions options) {
    return new SimulatedCache(options.keys, options.skew, options.ttlSeconds * 1_000_000_000L, 0);
  }

  /** The first second after the cache's return with a warm hit ratio, or -1. */
  private static int firstWarmSecond(List<Recorder.Second> seconds, DrillOptions options) {
    double warm = warmHitRatio(options);
    for (int t = options.outageEnd(); t < seconds.size(); t++) {
      if (seconds.get(t).hitRatio() >= warm) {
        return t;
      }
    }
    return -1;
  }

  /**
   * The database's figures over seconds {@code [from, to)} of a run.
   *
   * @param seconds how many seconds the window has (0 if empty)
   * @param peakDatabase the most queries that reached the database in one of its seconds
   * @param meanDatabase queries per second that reached the database, on average
   * @param worstMeanMillis the highest of its seconds' mean database latency
   * @param meanMillis the mean database latency over the window, each second weighted by its
   *     queries
   * @param slowestMillis the slowest single query in it
   * @param rejected reads rejected fast in it
   * @param timedOut reads that timed out in it
   * @param offered reads offered in it
   * @param reachedUser the reads offered in it that were answered to their users (by the
   *     cache, the database or Sluice), then or later
   * @param answered reads Sluice answered in it instead of refusing them
   */
  record Window(int seconds, long peakDatabase, double meanDatabase, double worstMeanMillis,
      double meanMillis, double slowestMillis, long rejected, long timedOut, long offered,
      long reachedUser, long answered) {

    /** The share of the reads offered in it that were answered to their users, from 0 to 1. */
    double answeredShare() {
      return offered == 0 ? Double.NaN : (double) reachedUser / offered;
    }

    static Window of(List<Recorder.Second> rows, int from, int to) {
      long peak = 0;
      long sum = 0;
      double worstMean = 0;
      double weightedMillis = 0;
      double slowest = 0;
      long rejected = 0;
      long timedOut = 0;
      long offered = 0;
      long reachedUser = 0;
      long answered = 0;
      int end = Math.min(to, rows.size());
      for (int t = Math.max(0, from); t < end; t++) {
        Recorder.Second s = rows.get(t);
        peak = Math.max(peak, s.database());
        sum += s.database();
        worstMean = Math.max(worstMean, s.dbMeanMillis());
        weightedMillis += s.dbMeanMillis() * s.database();
        slowest = Math.max(slowest, s.dbMaxMillis());
        rejected += s.rejected();
        timedOut += s.timedOut();
        offered += s.offered();
        reachedUser += s.reachedUser();
        answered += s.answered();
      }
      int n = Math.max(0, end - Math.max(0, from));
      return new Window(n, peak, n == 0 ? 0 : (double) sum / n, worstMean,
          sum == 0 ? 0 : weightedMillis / sum, slowest, rejected, timedOut, offered, reachedUser,
          answered);
    }
  }
}
