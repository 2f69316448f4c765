package dev.sluice.examples.drill;

import java.util.Locale;

/**
 * Formats the per-second table: "database" counts the queries that reached it, "answered" the
 * reads Sluice answered instead of refusing them. Stateless and threadsafe.
 */
final class Table {
  private Table() {}

  static String header() {
    return String.format(Locale.ROOT, "%5s %-7s %9s %9s %6s %9s %9s %9s %9s %8s %8s  %s", "s",
        "cache", "offered", "cache", "hit %", "database", "answered", "rejected", "timed out",
        "DB ms", "DB max", "Sluice");
  }

  /** The header, with the CRITICAL writes' columns when {@code --critical-writes} is set. */
  static String header(DrillOptions options) {
    return options.criticalWrites > 0
        ? header() + String.format(Locale.ROOT, "   %7s %7s %7s", "writes", "served", "refused")
        : header();
  }

  /**
   * One second's row.
   *
   * @param s the second
   * @param options the scenario, for the outage window
   * @param warmHitRatio the hit ratio from which the cache is warm
   * @param withSluice whether the run has Sluice (else its column stays empty)
   * @return the row
   */
  static String row(Recorder.Second s, DrillOptions options, double warmHitRatio,
      boolean withSluice) {
    String row = readsRow(s, options, warmHitRatio, withSluice);
    return options.criticalWrites > 0
        ? String.format(Locale.ROOT, "%-" + header().length() + "s   %,7d %,7d %,7d", row,
            s.writes(), s.writesServed(), s.writesRefused())
        : row;
  }

  private static String readsRow(Recorder.Second s, DrillOptions options, double warmHitRatio,
      boolean withSluice) {
    double hit = s.hitRatio();
    return String.format(Locale.ROOT,
        "%5d %-7s %,9d %,9d %6s %,9d %,9d %,9d %,9d %8.1f %8.1f  %s",
        s.t(), cacheState(s, options, warmHitRatio), s.offered(), s.cache(),
        Double.isNaN(hit) ? "-" : String.format(Locale.ROOT, "%.1f", hit * 100), s.database(),
        s.answered(), s.rejected(), s.timedOut(), s.dbMeanMillis(), s.dbMaxMillis(),
        withSluice ? sluiceState(s) : "");
  }

  /** {@code DOWN} during the outage, {@code cold} after it until warm again, else {@code up}. */
  private static String cacheState(Recorder.Second s, DrillOptions options, double warm) {
    if (options.outageAt(s.t() + 0.5)) {
      return "DOWN";
    }
    return s.t() >= options.outageEnd() && !(s.hitRatio() >= warm) ? "cold" : "up";
  }

  /** {@code holds} while recovering, {@code limits} while the flag is open, else {@code off}. */
  private static String sluiceState(Recorder.Second s) {
    return s.recovering() ? "holds" : s.limiting() ? "limits" : "off";
  }
}
