package dev.sluice.examples.drill;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The outage drill: the article's scenario at laptop scale, played three times — without Sluice,
 * with it, and with it answering the reads it would refuse ({@code sluice.stale.max-age}) — on H2
 * in memory and an in-process breaker flag.
 *
 * <p>A generator offers a steady load (20,000 reads/s) to a service of four instances that share a
 * cache-aside cache ({@link SimulatedCache}: 10,000 keys of skewed popularity, a 30 s TTL), warm
 * enough to answer 99% of the reads; the database was sized for the misses plus headroom, and that
 * is the budget given to Sluice (500 queries/s). At a fixed moment the cache dies, the breaker
 * opens and every read falls back to the database. A few seconds later the cache comes back
 * <em>empty</em> and the breaker closes: now every miss reads the database, and the cache refills
 * only from what the database answers — the second wave. Without Sluice the database takes what
 * the instances' threads can push at it, twice; with Sluice it takes its budget, and the rest is
 * rejected at once, or, in the answering run, answered from the result of an identical read at
 * most 5 s old. The drill prints a row per second, the headline figures of both waves — what
 * reached the database and what share of the reads reached their users — and writes an SVG chart.
 *
 * <p>A run whose load generator did not offer what was promised ({@link OfferCheck}: a machine too
 * busy to drive the load) is invalid: the drill says why, prints no headline and exits with 3.
 *
 * <pre>  mvn -q -pl examples -am compile exec:java
 *   mvn -q -pl examples -am compile exec:java -Ddrill="--load 5000 --budget 200"</pre>
 */
public final class OutageDrill {

  private OutageDrill() {}

  /**
   * Runs the drill; exits with 0, or 2 for bad flags, 3 for an invalid run, or 1 if the drill
   * failed.
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
   * @return the exit code: 0, 2 for bad flags, 3 for an invalid run, 1 if the drill failed
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, LockSupport::parkNanos);
  }

  /** {@link #run(String[], PrintStream, PrintStream)} with the generator's pause between ticks. */
  static int run(String[] args, PrintStream out, PrintStream err, LongConsumer pause) {
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
      drill(options, out, pause);
      return 0;
    } catch (InvalidRunException e) {
      out.flush();
      err.println(e.getMessage());
      return 3;
    } catch (Exception e) {
      err.println("error: the drill failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }

  /**
   * Plays the runs, prints the summary and writes the chart.
   *
   * @param options the scenario
   * @param out where the table goes
   * @return the runs, in the order of {@link DrillOptions#runs()}
   * @throws InvalidRunException if a run did not offer what was promised (no later run is played)
   * @throws Exception if the database or a pool fails, or the chart cannot be written
   */
  static Summary[] drill(DrillOptions options, PrintStream out) throws Exception {
    return drill(options, out, LockSupport::parkNanos);
  }

  /** {@link #drill(DrillOptions, PrintStream)} with the generator's pause between ticks. */
  static Summary[] drill(DrillOptions options, PrintStream out, LongConsumer pause)
      throws Exception {
    long startNanos = System.nanoTime();
    describe(options, out);
    List<RunKind> kinds = options.runs();
    List<Summary> runs = new ArrayList<>();
    try (SimulatedDatabase db = SimulatedDatabase.start(options);
        Pools pools = new Pools(db, options.instances, options.threads)) {
      for (RunKind kind : kinds) {
        runs.add(play(options, new Run(options, db, pools, kind, pause), runs.size() + 1,
            kinds.size(), out));
      }
    }
    Path chart = options.out.toAbsolutePath();
    SvgChart.write(chart, options, runs);
    for (Summary run : runs) {
      if (run.kind().answers()) {
        DashboardChart.write(dashboardOf(chart), options, run);
      }
    }
    conclude(options, runs, chart, out);
    if (options.capacityDrop >= 0) {
      capacityLost(options, find(runs, RunKind.WITH_SLUICE), find(runs, RunKind.SLUICE_AUTO), out);
    }
    out.println(OfferCheck.kept(runs, options));
    out.printf(Locale.ROOT, "The %d runs took %.0f s.%n", runs.size(),
        (System.nanoTime() - startNanos) / 1e9);
    return runs.toArray(new Summary[0]);
  }

  private static Summary play(DrillOptions options, Run run, int number, int runs,
      PrintStream out) throws Exception {
    out.println();
    out.println("Run " + number + " of " + runs + ": " + run.kind().label()
        + (run.kind().auto() ? " (sluice.concurrency=auto)" : "")
        + (run.kind().answers() ? " (sluice.stale.max-age=" + number(options.staleMaxAgeMillis
            / 1000.0) + "s" + (options.staleShare ? ", sluice.stale.share=true" : "") + ")"
            : ""));
    out.println(Table.header(options));
    Summary summary = Summary.of(run.kind(), run.play(out), options);
    List<String> problems = OfferCheck.problems(summary.seconds(), options);
    if (!problems.isEmpty()) {
      throw new InvalidRunException(summary.label(), number, problems);
    }
    return summary;
  }

  private static Summary find(List<Summary> runs, RunKind kind) {
    return runs.stream().filter(s -> s.kind() == kind).findFirst().orElseThrow();
  }

  /**
   * A run did not offer the load it promised: its figures (and any headline drawn from them) would
   * describe the machine, not Sluice.
   */
  static final class InvalidRunException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidRunException(String label, int number, List<String> problems) {
      super(String.format(Locale.ROOT, "error: run %d (%s) is INVALID: the load generator did not"
          + " offer what the drill promised, so its figures say nothing about Sluice%n  %s%n"
          + "The machine was too busy to drive the load (or the JVM stalled). No headline, no"
          + " chart. Run it again on a quieter machine, or ask for less (--load, --instances).",
          number, label, String.join(String.format("%n  "), problems)));
    }
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
    out.printf(Locale.ROOT, "The database is %s, made to behave like a real one under load: a"
        + " query costs %s ms, plus %s ms for each query running beside it.%n",
        o.database == null ? "H2 in memory" : "MariaDB (--database)", number(o.dbCostMillis),
        number(o.dbCrowdingMillis));
    out.println(o.redis == null
        ? "The breaker flag is in-process and the instance count fixed (add --redis URI to share"
            + " both through Redis)."
        : "With Sluice, the breaker flag and the instance count go through the Redis given with"
            + " --redis (sluice.flag=redis, sluice.instances=redis).");
    out.printf(Locale.ROOT, "Each instance has %d worker threads and %d pooled connections; a read"
        + " that waits %d ms for a thread times out.%n", o.threads, o.threads, o.timeoutMillis);
    if (o.answers()) {
      out.printf(Locale.ROOT, "In the answering run, a read Sluice would refuse is answered"
          + " instead from an identical read's result at most %s s old; the service sees the"
          + " warning on it and does not cache it.%n", number(o.staleMaxAgeMillis / 1000.0));
      if (o.staleShare) {
        out.printf(Locale.ROOT, "Its instances share the results they keep through %s"
            + " (sluice.stale.share=true; --stale-share off answers each from its own).%n",
            o.redis == null ? "a Redis the drill starts from Maven" : "the Redis of --redis");
      }
    }
  }

  /** Where the dashboard view goes: beside the chart, {@code -dashboard} before its extension. */
  static Path dashboardOf(Path chart) {
    String name = chart.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return chart.resolveSibling(dot < 0 ? name + "-dashboard"
        : name.substring(0, dot) + "-dashboard" + name.substring(dot));
  }

  private static void conclude(DrillOptions o, List<Summary> runs, Path chart, PrintStream out) {
    out.println();
    out.printf(Locale.ROOT, "While the cache was down (%d s to %d s; budget %,.0f queries/s):%n",
        o.outageStart, o.outageEnd(), o.budget);
    out.printf(Locale.ROOT, "  %-16s %10s %10s %15s %15s %10s %10s %9s %10s%n", "",
        "DB peak/s", "DB mean/s", "DB ms, worst s", "DB ms, slowest", "rejected", "timed out",
        "answered", "age p99");
    runs.forEach(s -> outage(out, s));
    out.println("  (DB ms, worst s: the mean latency of the worst second; DB ms, slowest: the"
        + " slowest single query;");
    out.println("   answered: the share of the reads offered that reached their users, from the"
        + " database or Sluice; age p99: of Sluice's answers)");
    out.println();
    out.printf(Locale.ROOT, "After it came back%s, until warm again (hit ratio %s or more):%n",
        o.returnsEmpty ? " empty" : "", percent(Summary.warmHitRatio(o)));
    out.printf(Locale.ROOT, "  %-16s %10s %10s %10s %15s %10s %10s %9s%n", "", "warm after",
        "DB peak/s", "DB mean/s", "DB ms, worst s", "rejected", "timed out", "answered");
    runs.forEach(s -> recovery(out, s, o));
    out.println("  (answered: the share of the reads offered that reached their users, from the"
        + " cache, the database or Sluice)");
    List<Summary> withSluice = runs.stream().filter(s -> s.kind().sluice()).toList();
    withSluice.forEach(s -> held(out, s, o, withSluice.size() > 1));
    runs.stream().filter(s -> s.kind().answers()).forEach(s -> answers(out, s, o));
    if (o.criticalWrites > 0) {
      out.println();
      out.printf(Locale.ROOT, "CRITICAL writes (%s/s) and the SHEDDABLE reads, whole run:%n",
          number(o.criticalWrites));
      runs.forEach(s -> writes(out, s));
    }
    runs.forEach(s -> failures(out, s));
    out.println();
    out.println("Chart: " + chart);
    if (runs.stream().anyMatch(s -> s.kind().answers())) {
      out.println("Through the outage dashboard: " + dashboardOf(chart));
    }
  }

  /** How long Sluice kept limiting after the flag closed, in a run with Sluice. */
  private static void held(PrintStream out, Summary s, DrillOptions o, boolean name) {
    long held = s.seconds().stream().filter(Recorder.Second::recovering).count();
    out.printf(Locale.ROOT, "  %sSluice kept limiting for %d second%s after the flag closed"
        + " (sluice.recovery.settle=%s s).%n", name ? s.label() + ": " : "", held,
        held == 1 ? "" : "s", number(o.settleMillis / 1000.0));
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
    out.printf(Locale.ROOT, "  %-16s writes: %,d offered, %,d served, %,d refused or timed out;"
        + " reads: %,d rejected fast, %,d timed out%n", s.label(), offered, served, refused,
        s.rejected(), s.timedOut());
  }

  private static void outage(PrintStream out, Summary s) {
    Summary.Window w = s.outage();
    out.printf(Locale.ROOT, "  %-16s %,10d %,10.0f %15.1f %15.1f %,10d %,10d %9s %10s%n",
        s.label(), w.peakDatabase(), w.meanDatabase(), w.worstMeanMillis(), w.slowestMillis(),
        w.rejected(), w.timedOut(), share(w), age(s));
  }

  /** The share of a window's reads answered to their users, as {@code 92.1%}. */
  private static String share(Summary.Window w) {
    return Double.isNaN(w.answeredShare()) ? "-" : percent(w.answeredShare());
  }

  private static String age(Summary s) {
    return s.answerP99Millis() < 0 ? "-"
        : String.format(Locale.ROOT, "%,d ms", s.answerP99Millis());
  }

  /** What Sluice answered instead of refusing, in the answering run. */
  private static void answers(PrintStream out, Summary s, DrillOptions o) {
    long answered = 0;
    long joined = 0;
    for (Recorder.Second second : s.seconds()) {
      answered += second.answered();
      joined += second.joined();
    }
    out.printf(Locale.ROOT, "  %s: %,d reads answered instead of refused (%,d of them by joining"
        + " an identical read in flight), at most %s s old (sluice.stale.max-age), 99%% of them"
        + " at most %s.%n", s.label(), answered, joined, number(o.staleMaxAgeMillis / 1000.0),
        age(s));
    SimulatedCache model = Summary.model(o);
    double maxAge = o.staleMaxAgeMillis / 1000.0;
    String alone = percent(model.answerCeiling(o.load / o.instances, o.budget / o.instances,
        o.outageLength, maxAge));
    String shared = percent(model.answerCeiling(o.load, o.budget, o.outageLength, maxAge));
    if (o.staleShare) {
      out.printf(Locale.ROOT, "  The most answers can reach here, on the drill's model: %s of the"
          + " reads during the outage (every instance answers from the %s reads/s the budget"
          + " admits, shared through Redis, from empty stores when the cache died); each"
          + " answering from its own %s reads/s alone (--stale-share off): %s.%n", shared,
          number(o.budget), number(o.budget / o.instances), alone);
    } else {
      out.printf(Locale.ROOT, "  The most answers can reach here, on the drill's model: %s of the"
          + " reads during the outage (each instance answers from the %s reads/s it admits, from"
          + " an empty store when the cache died); shared by the instances (--stale-share on):"
          + " %s.%n", alone, number(o.budget / o.instances), shared);
    }
  }

  private static void recovery(PrintStream out, Summary s, DrillOptions o) {
    Summary.Window w = s.recovery();
    String warm = s.warmAfterSeconds() < 0
        ? "> " + (o.duration - o.outageEnd()) + " s" : s.warmAfterSeconds() + " s";
    if (w.seconds() == 0) {
      out.printf(Locale.ROOT, "  %-16s %10s   (warm at once: no recovery)%n", s.label(), warm);
      return;
    }
    out.printf(Locale.ROOT, "  %-16s %10s %,10d %,10.0f %15.1f %,10d %,10d %9s%n", s.label(),
        warm, w.peakDatabase(), w.meanDatabase(), w.worstMeanMillis(), w.rejected(),
        w.timedOut(), share(w));
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
