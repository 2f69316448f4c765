package dev.sluice.examples.drill;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The outage drill: the article's scenario at laptop scale, played twice — without Sluice and
 * with it — on H2 in memory and an in-process breaker flag.
 *
 * <p>A generator offers a steady load (20,000 reads/s) to a service of four instances that share a
 * cache-aside cache ({@link SimulatedCache}: 10,000 keys of skewed popularity, a 30 s TTL), warm
 * enough to answer 99% of the reads; the database was sized for the misses plus headroom, and that
 * is the budget given to Sluice (500 queries/s). At a fixed moment the cache dies, the breaker
 * opens and every read falls back to the database. A few seconds later the cache comes back
 * <em>empty</em> and the breaker closes: now every miss reads the database, and the cache refills
 * only from what the database answers — the second wave. Without Sluice the database takes what
 * the instances' threads can push at it, twice; with Sluice it takes its budget, and the rest is
 * rejected at once. The drill prints a row per second, the headline figures of both waves, and
 * writes an SVG chart of the queries that reached the database.
 *
 * <pre>  mvn -q -pl examples -am compile exec:java
 *   mvn -q -pl examples -am compile exec:java -Ddrill="--load 5000 --budget 200"</pre>
 */
public final class OutageDrill {

  private OutageDrill() {}

  /**
   * Runs the drill; exits with 0, or 2 for bad flags, or 1 if the drill failed.
   *
   * @param args the flags; {@code --help} lists them
   */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the drill, writing to the given streams.
   *
   * @param args the flags
   * @param out where the table and the summary go
   * @param err where errors go
   * @return the exit code: 0, 2 for bad flags, 1 if the drill failed
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Path defaultOut = Path.of(System.getProperty("sluice.drill.dir", "target"),
        "sluice-drill.svg");
    DrillOptions options;
    try {
      options = DrillOptions.parse(args, defaultOut);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage() + " (--help lists the flags)");
      return 2;
    }
    if (options.help) {
      out.println(DrillOptions.HELP);
      return 0;
    }
    try {
      drill(options, out);
      return 0;
    } catch (Exception e) {
      err.println("error: the drill failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }

  /**
   * Plays both runs, prints the summary and writes the chart.
   *
   * @param options the scenario
   * @param out where the table goes
   * @return both runs
   * @throws Exception if the database or a pool fails, or the chart cannot be written
   */
  static Summary[] drill(DrillOptions options, PrintStream out) throws Exception {
    long startNanos = System.nanoTime();
    describe(options, out);
    Summary without;
    Summary with;
    Summary auto = null;
    int runs = options.capacityDrop >= 0 ? 3 : 2;
    try (SimulatedDatabase db = SimulatedDatabase.start(options.keys, options.dbCostMillis,
        options.dbCrowdingMillis)) {
      without = play(options, new Run(options, db, false), "without Sluice", 1, runs, out);
      with = play(options, new Run(options, db, true), "with Sluice", 2, runs, out);
      if (runs == 3) {
        auto = play(options, new Run(options, db, true, true), "Sluice, auto", 3, runs, out);
      }
    }
    Path chart = options.out.toAbsolutePath();
    SvgChart.write(chart, options, without, with);
    conclude(options, without, with, chart, out);
    if (auto != null) {
      capacityLost(options, with, auto, out);
    }
    out.printf(Locale.ROOT, "%s runs took %.0f s.%n", runs == 2 ? "Both" : "The three",
        (System.nanoTime() - startNanos) / 1e9);
    return auto == null ? new Summary[] {without, with} : new Summary[] {without, with, auto};
  }

  private static Summary play(DrillOptions options, Run run, String label, int number, int runs,
      PrintStream out) throws Exception {
    out.println();
    out.println("Run " + number + " of " + runs + ": " + label
        + (number == 3 ? " (sluice.concurrency=auto)" : ""));
    out.println(Table.header(options));
    Recorder recorder = run.play(out);
    return Summary.of(label, recorder, options);
  }

  private static void describe(DrillOptions o, PrintStream out) {
    double hitRatio = Summary.warmHitRatio(o) + 0.01;
    out.printf(Locale.ROOT, "Sluice outage drill: %,.0f reads/s offered to %d instance%s of a"
        + " service whose cache answers %s of them when warm.%n", o.load, o.instances,
        o.instances == 1 ? "" : "s", percent(hitRatio));
    out.printf(Locale.ROOT, "The cache is cache-aside: %,d keys, key k read in proportion to"
        + " 1/k^%s, an entry lives %d s; a miss reads the database and stores what it answered.%n",
        o.keys, number(o.skew), o.ttlSeconds);
    out.printf(Locale.ROOT, "The database was sized for the misses (%,.0f queries/s) plus headroom:"
        + " Sluice's budget is %,.0f queries/s, %s per instance.%n", o.load * (1 - hitRatio),
        o.budget, number(o.budget / o.instances));
    out.printf(Locale.ROOT, "At %d s the cache dies for %d s: the breaker opens and every read"
        + " falls back to the database.%n", o.outageStart, o.outageLength);
    out.printf(Locale.ROOT, o.returnsEmpty
        ? "At %d s it comes back empty: the breaker closes, and every read misses until the"
            + " database's answers have refilled it.%n"
        : "At %d s it comes back with its entries (--cache-return warm) and the breaker closes.%n",
        o.outageEnd());
    out.printf(Locale.ROOT, "The database is H2 in memory, made to behave like a real one: a query"
        + " costs %s ms, plus %s ms for each query running beside it.%n", number(o.dbCostMillis),
        number(o.dbCrowdingMillis));
    out.println(o.redis == null
        ? "The breaker flag is in-process and the instance count fixed (add --redis URI to share"
            + " both through Redis)."
        : "With Sluice, the breaker flag and the instance count go through the Redis given with"
            + " --redis (sluice.flag=redis, sluice.instances=redis).");
    out.printf(Locale.ROOT, "Each instance has %d worker threads and %d pooled connections; a read"
        + " that waits %d ms for a thread times out.%n", o.threads, o.threads, o.timeoutMillis);
  }

  private static void conclude(DrillOptions o, Summary without, Summary with, Path chart,
      PrintStream out) {
    out.println();
    out.printf(Locale.ROOT, "While the cache was down (%d s to %d s; budget %,.0f queries/s):%n",
        o.outageStart, o.outageEnd(), o.budget);
    out.printf(Locale.ROOT, "  %-15s %11s %11s %16s %16s %10s %10s%n", "", "DB peak/s",
        "DB mean/s", "DB ms, worst s", "DB ms, slowest", "rejected", "timed out");
    outage(out, without);
    outage(out, with);
    out.println("  (DB ms, worst s: the mean latency of the worst second; DB ms, slowest: the"
        + " slowest single query)");
    out.println();
    out.printf(Locale.ROOT, "After it came back%s, until warm again (hit ratio %s or more):%n",
        o.returnsEmpty ? " empty" : "", percent(Summary.warmHitRatio(o)));
    out.printf(Locale.ROOT, "  %-15s %11s %11s %11s %16s %10s %10s%n", "", "warm after",
        "DB peak/s", "DB mean/s", "DB ms, worst s", "rejected", "timed out");
    recovery(out, without, o);
    recovery(out, with, o);
    long held = with.seconds().stream().filter(Recorder.Second::recovering).count();
    out.printf(Locale.ROOT, "  Sluice held the cap in %d second%s after the flag closed"
        + " (sluice.recovery.settle=%s s).%n", held, held == 1 ? "" : "s",
        number(o.settleMillis / 1000.0));
    if (o.criticalWrites > 0) {
      out.println();
      out.printf(Locale.ROOT, "CRITICAL writes (%s/s) and the SHEDDABLE reads, whole run:%n",
          number(o.criticalWrites));
      writes(out, without);
      writes(out, with);
    }
    failures(out, without);
    failures(out, with);
    out.println();
    out.println("Chart: " + chart);
  }

  /**
   * The database's latency from the loss of half its capacity to the end of the run: the budget
   * alone against the budget with {@code sluice.concurrency=auto}.
   */
  private static void capacityLost(DrillOptions o, Summary with, Summary auto, PrintStream out) {
    out.println();
    out.printf(Locale.ROOT, "After the database lost half its capacity (%d s to the end, %d s: a"
        + " query costs %s ms, plus %s ms for each query beside it):%n", o.capacityDrop,
        o.duration, number(2 * o.dbCostMillis), number(2 * o.dbCrowdingMillis));
    out.printf(Locale.ROOT, "  %-16s %10s %12s %15s %16s %10s %10s%n", "", "DB mean/s",
        "DB ms, mean", "DB ms, worst s", "DB ms, median s", "rejected", "timed out");
    Summary.Window healthy = Summary.Window.of(with.seconds(), o.outageStart, o.capacityDrop);
    if (healthy.seconds() > 0) {
      capacityRow(out, "(before: budget)", healthy, Double.NaN);
    }
    for (Summary s : new Summary[] {with, auto}) {
      capacityRow(out, s.label(), s.capacityLost(o), medianMillis(s.seconds(), o.capacityDrop));
    }
    out.println("  (DB ms, median s: the median of its seconds' mean latencies, where the latency"
        + " settled)");
  }

  /** The median of the mean database latencies of the seconds from {@code from} on. */
  private static double medianMillis(List<Recorder.Second> seconds, int from) {
    double[] millis = seconds.subList(from, seconds.size()).stream()
        .mapToDouble(Recorder.Second::dbMeanMillis).sorted().toArray();
    return millis.length == 0 ? 0 : millis[millis.length / 2];
  }

  private static void capacityRow(PrintStream out, String label, Summary.Window w,
      double lastMillis) {
    out.printf(Locale.ROOT, "  %-16s %,10.0f %12.1f %15.1f %16s %,10d %,10d%n", label,
        w.meanDatabase(), w.meanMillis(), w.worstMeanMillis(),
        Double.isNaN(lastMillis) ? "" : String.format(Locale.ROOT, "%.1f", lastMillis),
        w.rejected(), w.timedOut());
  }

  private static void writes(PrintStream out, Summary s) {
    long offered = 0;
    long served = 0;
    long refused = 0;
    for (Recorder.Second second : s.seconds()) {
      offered += second.writes();
      served += second.writesServed();
      refused += second.writesRefused();
    }
    out.printf(Locale.ROOT, "  %-15s writes: %,d offered, %,d served, %,d refused or timed out;"
        + " reads: %,d rejected fast, %,d timed out%n", s.label(), offered, served, refused,
        s.rejected(), s.timedOut());
  }

  private static void outage(PrintStream out, Summary s) {
    Summary.Window w = s.outage();
    out.printf(Locale.ROOT, "  %-15s %,11d %,11.0f %16.1f %16.1f %,10d %,10d%n", s.label(),
        w.peakDatabase(), w.meanDatabase(), w.worstMeanMillis(), w.slowestMillis(), w.rejected(),
        w.timedOut());
  }

  private static void recovery(PrintStream out, Summary s, DrillOptions o) {
    Summary.Window w = s.recovery();
    String warm = s.warmAfterSeconds() < 0
        ? "> " + (o.duration - o.outageEnd()) + " s" : s.warmAfterSeconds() + " s";
    if (w.seconds() == 0) {
      out.printf(Locale.ROOT, "  %-15s %11s   (warm at once: no recovery)%n", s.label(), warm);
      return;
    }
    out.printf(Locale.ROOT, "  %-15s %11s %,11d %,11.0f %16.1f %,10d %,10d%n", s.label(), warm,
        w.peakDatabase(), w.meanDatabase(), w.worstMeanMillis(), w.rejected(), w.timedOut());
  }

  private static void failures(PrintStream out, Summary s) {
    if (s.failed() > 0) {
      out.printf(Locale.ROOT, "  %s: %,d reads FAILED unexpectedly; the first: %s%n", s.label(),
          s.failed(), s.firstFailure());
    }
  }

  private static String percent(double ratio) {
    return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%,.2f", value).replaceAll("0+$", "");
  }
}
