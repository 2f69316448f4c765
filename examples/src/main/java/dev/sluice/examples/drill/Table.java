package dev.sluice.examples.drill;

import java.util.Locale;

/** Formats the per-second table. Stateless and threadsafe. */
final class Table {
  private Table() {}

  static String header() {
    return String.format(Locale.ROOT, "%5s %-6s %9s %9s %9s %9s %9s %8s %8s", "s", "cache",
        "offered", "cache", "database", "rejected", "timed out", "DB ms", "DB max");
  }

  static String row(Recorder.Second s, DrillOptions options) {
    return String.format(Locale.ROOT, "%5d %-6s %,9d %,9d %,9d %,9d %,9d %8.1f %8.1f", s.t(),
        options.outageAt(s.t() + 0.5) ? "DOWN" : "up", s.offered(), s.cache(), s.database(),
        s.rejected(), s.timedOut(), s.dbMeanMillis(), s.dbMaxMillis());
  }
}
