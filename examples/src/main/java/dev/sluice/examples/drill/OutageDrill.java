package dev.sluice.examples.drill;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The outage drill: the article's scenario at laptop scale, played twice — without Sluice and
 * with it — on H2 in memory and an in-process breaker flag.
 *
 * <p>A generator offers a steady load (20,000 reads/s) to a service of four instances whose cache
 * answers 99% of reads; the database was sized for the other 1% plus headroom, and that is the
 * budget given to Sluice (500 queries/s). At a fixed moment the cache dies, the breaker opens and
 * every read falls back to the database. Without Sluice the database takes what the instances'
 * threads can push at it and slows down for everyone; with Sluice it takes its budget and the rest
 * is rejected at once. The drill prints a row per second, and writes an SVG chart of the queries
 * that reached the database.
 *
 * <pre>  mvn -q -pl examples -am compile exec:exec
 *   mvn -q -pl examples -am compile exec:exec -Ddrill="--load 5000 --budget 200"</pre>
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
      err.println("error: " + e.getMessage());
      err.println("Run with --help to see the flags and their defaults.");
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
    describe(options, out);
    Summary without;
    Summary with;
    try (SimulatedDatabase db = SimulatedDatabase.start(options.dbCostMillis,
        options.dbCrowdingMillis)) {
      without = play(options, db, false, out);
      with = play(options, db, true, out);
    }
    Path chart = options.out.toAbsolutePath();
    SvgChart.write(chart, options, without, with);
    conclude(options, without, with, chart, out);
    return new Summary[] {without, with};
  }

  private static Summary play(DrillOptions options, SimulatedDatabase db, boolean withSluice,
      PrintStream out) throws Exception {
    String label = withSluice ? "with Sluice" : "without Sluice";
    out.println();
    out.println((withSluice ? "Run 2 of 2: " : "Run 1 of 2: ") + label);
    out.println(Table.header());
    Recorder recorder = new Run(options, db, withSluice).play(out);
    return Summary.of(label, recorder, options);
  }

  private static void describe(DrillOptions o, PrintStream out) {
    double misses = o.load * (1 - o.hitRatio);
    out.printf(Locale.ROOT, "Sluice outage drill: %,.0f reads/s offered to %d instance%s of a"
        + " service whose cache answers %s of them.%n", o.load, o.instances,
        o.instances == 1 ? "" : "s", percent(o.hitRatio));
    out.printf(Locale.ROOT, "The database was sized for the misses (%,.0f queries/s) plus headroom:"
        + " Sluice's budget is %,.0f queries/s, %s per instance.%n", misses, o.budget,
        number(o.budget / o.instances));
    out.printf(Locale.ROOT, "At %d s the cache dies for %d s: the breaker opens and every read falls"
        + " back to the database.%n", o.outageStart, o.outageLength);
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
    out.printf(Locale.ROOT, "While the cache was down (budget %,.0f queries/s):%n", o.budget);
    line(out, without);
    line(out, with);
    out.println();
    out.println("Chart: " + chart);
  }

  private static void line(PrintStream out, Summary s) {
    out.printf(Locale.ROOT, "  %-15s the database took up to %,6d queries/s (%,6.0f on average),"
        + " latency up to %5.1f ms; %,d reads rejected fast, %,d timed out%n", s.label() + ":",
        s.peakDatabase(), s.meanDatabase(), s.peakDbMillis(), s.rejected(), s.timedOut());
    if (s.failed() > 0) {
      out.printf(Locale.ROOT, "  %-15s %,d reads FAILED unexpectedly; the first: %s%n", "",
          s.failed(), s.firstFailure());
    }
  }

  private static String percent(double ratio) {
    return number(ratio * 100) + "%";
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%,.2f", value).replaceAll("0+$", "");
  }
}
