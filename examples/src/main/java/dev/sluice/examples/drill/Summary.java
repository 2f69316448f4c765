package dev.sluice.examples.drill;

import java.util.List;

/**
 * The headline figures of one run, over the outage window.
 *
 * @param label what the run was ("without Sluice")
 * @param seconds the per-second figures
 * @param peakDatabase the most queries that reached the database in one second of the outage
 * @param meanDatabase queries per second that reached the database, averaged over the outage
 * @param peakDbMillis the highest per-second mean database latency during the outage
 * @param rejected reads rejected fast over the whole run
 * @param timedOut reads that timed out over the whole run
 * @param failed reads that failed for a reason the drill does not expect (should be 0)
 * @param firstFailure the first such failure, or {@code null}
 */
record Summary(String label, List<Recorder.Second> seconds, long peakDatabase,
    double meanDatabase, double peakDbMillis, long rejected, long timedOut, long failed,
    Exception firstFailure) {

  static Summary of(String label, Recorder recorder, DrillOptions options) {
    List<Recorder.Second> seconds = recorder.seconds();
    long peak = 0;
    long sum = 0;
    int n = 0;
    double peakMillis = 0;
    long rejected = 0;
    long timedOut = 0;
    for (Recorder.Second s : seconds) {
      rejected += s.rejected();
      timedOut += s.timedOut();
      if (options.outageAt(s.t() + 0.5)) {
        peakMillis = Math.max(peakMillis, s.dbMeanMillis());
        peak = Math.max(peak, s.database());
        sum += s.database();
        n++;
      }
    }
    return new Summary(label, seconds, peak, n == 0 ? 0 : (double) sum / n, peakMillis, rejected,
        timedOut, recorder.failed(), recorder.firstFailure());
  }
}
