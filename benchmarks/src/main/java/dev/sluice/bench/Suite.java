package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark and the accuracy check, and prints one markdown report: the tables, each
 * peer's ratio against the baseline measured in the same run, and every target cell with its
 * verdict. Scores are the median over forks.
 *
 * <pre>
 * benchmarks/run.sh            # quick pass: 1 fork, short iterations, under 10 minutes on 2 cores
 * benchmarks/run.sh --full     # careful: 3 interleaved forks per cell (about 30 minutes on 2 cores)
 * java -cp benchmarks/target/benchmarks.jar dev.sluice.bench.Suite [--full] [--only bucket,tail,limiter,gate,jdbc,stub,reject,accuracy]
 * </pre>
 *
 * <p>The report is also written to {@code benchmarks/target/report.md}.
 *
 * <p>Verdicts are judged on CPU time per operation ({@link CpuProfiler}), paired round by round:
 * the machine these run on is shared, and wall-clock throughput there measures the share of the
 * cores the fork was given as much as the code. Throughput is printed beside every ratio.
 */
public final class Suite {
  private static final List<String> ALL =
      List.of("bucket", "tail", "limiter", "gate", "jdbc", "stub", "reject", "accuracy");

  private final boolean full;
  private final StringBuilder report = new StringBuilder();
  private final List<String> verdicts = new ArrayList<>();

  private Suite(boolean full) {
    this.full = full;
  }

  public static void main(String[] args) throws Exception {
    List<String> argList = Arrays.asList(args);
    boolean full = argList.contains("--full");
    int at = argList.indexOf("--only");
    List<String> parts = at >= 0 ? Arrays.asList(args[at + 1].split(",")) : ALL;
    Suite suite = new Suite(full);
    suite.header();
    for (String part : parts) {
      suite.run(part.trim());
    }
    suite.footer();
  }

  private void run(String part) throws Exception {
    switch (part) {
      case "bucket" -> bucket();
      case "tail" -> tail();
      case "limiter" -> limiter();
      case "gate" -> gate();
      case "jdbc" -> jdbc();
      case "stub" -> stub();
      case "reject" -> reject();
      case "accuracy" -> accuracy();
      default -> throw new IllegalArgumentException("--only takes a comma-separated list of "
          + ALL + ", but was " + part);
    }
    Path out = Path.of("benchmarks", "target", "report.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report + verdictsText());
  }

  // --- the parts ---

  private void bucket() throws RunnerException {
    List<String> impls = List.of("sluice", "gcra", "bucket4j", "resilience4j", "guava");
    int[] threadCounts = {1, 2, 8};
    Map<Integer, Collection<RunResult>> byThreads = new java.util.TreeMap<>();
    for (int threads : threadCounts) {
      byThreads.put(threads, runJmh(BucketBenchmark.class, threads, true));
    }
    for (String regime : List.of("admit", "reject")) {
      section("The bucket alone, " + regime + " regime (" + (regime.equals("admit")
          ? "10^9/s: nearly every call admitted" : "1,000/s: nearly every call rejected")
          + "): ops/µs all threads together [CPU ns per call]; B/op");
      row("impl", "1 thread", "2 threads", "8 threads", "B/op (1/2/8)");
      rule(5);
      for (String impl : impls) {
        List<String> cells = new ArrayList<>(List.of(impl));
        List<String> alloc = new ArrayList<>();
        for (int threads : threadCounts) {
          RunResult r = find(byThreads.get(threads), "impl", impl, "regime", regime);
          cells.add(r == null ? "-" : fmt(median(r)) + " [" + fmt(cpu(r)) + "]");
          alloc.add(r == null ? "-" : fmt0(allocation(r)));
        }
        cells.add(String.join(" / ", alloc));
        row(cells.toArray(String[]::new));
      }
      report.append('\n');
      row("Sluice ÷ (throughput× / CPU-time×)", "1 thread", "2 threads", "8 threads");
      rule(4);
      for (String peer : impls.subList(1, impls.size())) {
        List<String> cells = new ArrayList<>(List.of(peer));
        for (int threads : threadCounts) {
          RunResult ours = find(byThreads.get(threads), "impl", "sluice", "regime", regime);
          RunResult theirs = find(byThreads.get(threads), "impl", peer, "regime", regime);
          if (ours == null || theirs == null) {
            cells.add("-");
            continue;
          }
          double ratio = ratio(ours, theirs);
          double cpuRatio = cpuSpeedRatio(ours, theirs);
          cells.add(fmt(ratio) + " / " + fmt(cpuRatio));
          boolean floor = peer.equals("gcra");
          verdict("TokenBucket " + regime + ", " + threads + " thread(s), vs " + peer,
              "CPU time " + fmt(cpuRatio) + "× (throughput " + fmt(ratio) + "×)",
              floor ? ">= 0.9× the floor" : "> 1× (faster)",
              floor ? cpuRatio >= 0.9 : cpuRatio > 1.0);
        }
        row(cells.toArray(String[]::new));
      }
      for (int threads : threadCounts) {
        RunResult ours = find(byThreads.get(threads), "impl", "sluice", "regime", regime);
        if (ours != null) {
          double bytes = allocation(ours);
          verdict("TokenBucket " + regime + ", " + threads + " thread(s), allocation",
              fmt0(bytes) + " B/op", "0 B/op", bytes < 0.5);
        }
      }
    }
  }

  private void tail() throws RunnerException {
    Collection<RunResult> results = runJmh(BucketTailBenchmark.class, 8, false);
    section("Tail of one tryAcquire() under 8 threads (SampleTime), ns");
    row("impl", "regime", "p50", "p99", "p99.9", "p99.99", "max");
    rule(7);
    for (RunResult r : sorted(results)) {
      var stats = r.getAggregatedResult().getPrimaryResult().getStatistics();
      String impl = r.getParams().getParam("impl");
      String regime = r.getParams().getParam("regime");
      row(impl, regime, fmt0(stats.getPercentile(50)), fmt0(stats.getPercentile(99)),
          fmt0(stats.getPercentile(99.9)), fmt0(stats.getPercentile(99.99)), fmt0(stats.getMax()));
      if (impl.equals("sluice")) {
        double p999 = stats.getPercentile(99.9);
        verdict("TokenBucket p99.9, 8 threads, " + regime, fmt0(p999) + " ns", "<= 10,000 ns",
            p999 <= 10_000);
      }
    }
  }

  private void limiter() throws RunnerException {
    Collection<RunResult> results = runJmh(dev.sluice.LimiterBenchmark.class, 1, true);
    section("The limiter's decision alone (no JDBC wrappers), 1 thread: ns per gated call"
        + " [CPU ns], B/op");
    row("path", "ns/op [CPU ns/op]", "B/op");
    rule(3);
    for (String path : List.of("closed", "admit", "reject")) {
      RunResult r = find(results, "path", path);
      if (r != null) {
        row(path, fmt(median(r)) + " [" + fmt(cpu(r)) + "]", fmt0(allocation(r)));
      }
    }
  }

  private void gate() throws RunnerException {
    for (int threads : new int[] {1, 2}) {
      Collection<RunResult> results =
          runJmh(dev.sluice.ConcurrencyGateBenchmark.class, threads, true);
      section("The concurrency cap on the admit path, " + threads + " thread(s): ns per call"
          + " [CPU ns], added over today's admit path (CPU) and CPU time × that path, B/op");
      row("path", "ns/op [CPU ns/op]", "added CPU ns", "CPU ×", "B/op");
      rule(5);
      RunResult admit = find(results, "path", "admit");
      for (String path : List.of("admit", "admit+gate", "admit+gate+adaptive", "gate", "sample")) {
        RunResult r = find(results, "path", path);
        if (r != null) {
          boolean onAdmit = admit != null && path.startsWith("admit");
          row(path, fmt(median(r)) + " [" + fmt(cpu(r)) + "]",
              onAdmit ? fmt(cpu(r) - cpu(admit)) : "—",
              onAdmit ? fmt(cpu(r) / cpu(admit)) + "×" : "—", fmt0(allocation(r)));
        }
      }
      RunResult gated = find(results, "path", "admit+gate");
      if (admit != null && gated != null) {
        double added = cpu(gated) - cpu(admit);
        verdict("concurrency gate added to the admit path, " + threads + " thread(s)",
            "CPU " + fmt(added) + " ns, " + fmt0(allocation(gated)) + " B/op",
            "<= 25 ns, 0 B/op", added <= 25 && allocation(gated) < 1);
      }
    }
  }

  private void jdbc() throws RunnerException {
    List<String> targets = List.of(Targets.RAW, Targets.SLUICE_CLOSED, Targets.SLUICE_OPEN,
        Targets.DATASOURCE_PROXY, Targets.P6SPY);
    Map<Integer, Collection<RunResult>> byThreads = new java.util.TreeMap<>();
    for (int threads : new int[] {1, 2}) {
      byThreads.put(threads, runJmh(JdbcBenchmark.class, threads, true));
    }
    section("JDBC over HikariCP and H2 in memory: borrow, prepare, execute, read, close;"
        + " ops/ms (throughput× / CPU-time× raw), B/op at 1 thread (+ over raw)");
    row("target", "select 1, 1 t", "select 1, 2 t", "keyed, 1 t", "keyed, 2 t", "B/op select 1",
        "B/op keyed");
    rule(7);
    for (String target : targets) {
      List<String> cells = new ArrayList<>(List.of(target));
      List<String> alloc = new ArrayList<>();
      for (String query : List.of("select1", "keyed")) {
        for (int threads : byThreads.keySet()) {
          RunResult r = find(byThreads.get(threads), "target", target, "query", query);
          RunResult raw = find(byThreads.get(threads), "target", Targets.RAW, "query", query);
          if (r == null || raw == null) {
            cells.add("-");
            continue;
          }
          double ratio = ratio(r, raw);
          double cpuRatio = cpuSpeedRatio(r, raw);
          cells.add(fmt(median(r)) + " (" + fmt(ratio) + "× / " + fmt(cpuRatio) + "×)");
          double extra = allocation(r) - allocation(raw);
          if (threads == 1) {
            alloc.add(fmt0(allocation(r)) + " (+" + fmt0(extra) + ")");
          }
          String cell = query + ", " + threads + " thread(s)";
          if (target.equals(Targets.SLUICE_CLOSED)) {
            verdict("flag closed, " + cell, "CPU time " + fmt(cpuRatio) + "× raw (throughput "
                + fmt(ratio) + "×)", ">= 0.97× raw", cpuRatio >= 0.97);
            verdict("allocation flag closed, " + cell, "+" + fmt0(extra) + " B/op",
                "<= +128 B/op", extra <= 128);
          } else if (target.equals(Targets.SLUICE_OPEN)) {
            verdict("flag open (admit), " + cell, "CPU time " + fmt(cpuRatio)
                + "× raw (throughput " + fmt(ratio) + "×)", ">= 0.95× raw", cpuRatio >= 0.95);
            verdict("allocation flag open, " + cell, "+" + fmt0(extra) + " B/op",
                "<= +128 B/op", extra <= 128);
          }
        }
      }
      cells.addAll(alloc);
      row(cells.toArray(String[]::new));
    }
  }

  private void stub() throws RunnerException {
    Collection<RunResult> results = runJmh(StubJdbcBenchmark.class, 1, true);
    section("JDBC over HikariCP on the stub driver, 1 thread: ns per borrow–execute–close"
        + " [CPU ns], added over raw, B/op (+ over raw)");
    row("target", "ns/op [CPU ns/op]", "added ns [added CPU ns]", "B/op", "added B/op");
    rule(5);
    RunResult raw = find(results, "target", Targets.RAW);
    for (RunResult r : sorted(results)) {
      String target = r.getParams().getParam("target");
      double added = raw == null ? Double.NaN : median(r) - median(raw);
      double addedCpu = raw == null ? Double.NaN : cpu(r) - cpu(raw);
      double extra = raw == null ? Double.NaN : allocation(r) - allocation(raw);
      row(target, fmt(median(r)) + " [" + fmt(cpu(r)) + "]",
          fmt(added) + " [" + fmt(addedCpu) + "]", fmt0(allocation(r)), fmt0(extra));
      if (target.equals(Targets.SLUICE_CLOSED)) {
        verdict("stub driver, flag closed, added cost", "CPU " + fmt(addedCpu) + " ns (wall "
            + fmt(added) + " ns)", "<= 40 ns", addedCpu <= 40);
      }
    }
  }

  private void reject() throws RunnerException {
    Collection<RunResult> results = runJmh(RejectBenchmark.class, 1, true);
    section("Reject path, 1 thread: one rejected executeQuery(), exception included");
    row("ns/op [CPU ns/op]", "B/op");
    rule(2);
    if (results.isEmpty()) {
      row("not measured: the benchmark refused to run (see its output)", "");
      verdict("reject path, 1 thread", "not measured", "<= 300 ns", false);
      return;
    }
    RunResult r = results.iterator().next();
    row(fmt(median(r)) + " [CPU " + fmt(cpu(r)) + "]", fmt0(allocation(r)));
    verdict("reject path, 1 thread", "CPU " + fmt(cpu(r)) + " ns (wall " + fmt(median(r))
        + " ns), " + fmt0(allocation(r)) + " B/op", "<= 300 ns", cpu(r) <= 300);
  }

  private void accuracy() throws Exception {
    for (boolean bucketOnly : new boolean[] {true, false}) {
      List<Accuracy.Outcome> outcomes = Accuracy.run(bucketOnly, 5);
      report.append("\n## ").append(Accuracy.table(outcomes, bucketOnly).replaceFirst("\n", "\n"));
      String path = bucketOnly ? "TokenBucket" : "RateLimitedDataSource";
      for (Accuracy.Outcome o : outcomes) {
        verdict("accuracy " + path + " " + fmt0(o.budget()) + "/s", String.format(Locale.ROOT,
            "%.4f, max window %d of %.0f", o.ratio(), o.maxInWindow(), o.windowBound()),
            "0.98–1.00, window <= bound", o.met());
      }
      System.out.print(Accuracy.table(outcomes, bucketOnly));
    }
  }

  // --- running JMH ---

  /**
   * Runs {@code benchmark} once per round, one fork per cell per round, so that the cells of a
   * round are measured close together in time and a busy spell on a shared machine touches every
   * cell of one round rather than all forks of one cell. Returns, per cell, its forks in round
   * order.
   */
  private Collection<RunResult> runJmh(Class<?> benchmark, int threads, boolean gc)
      throws RunnerException {
    Map<String, List<BenchmarkResult>> forksByCell = new java.util.LinkedHashMap<>();
    Map<String, org.openjdk.jmh.infra.BenchmarkParams> paramsByCell = new java.util.HashMap<>();
    for (int round = 0; round < rounds(); round++) {
      for (RunResult r : new Runner(options(benchmark, threads, gc)).run()) {
        String cell = r.getParams().id();
        paramsByCell.putIfAbsent(cell, r.getParams());
        forksByCell.computeIfAbsent(cell, k -> new ArrayList<>()).addAll(r.getBenchmarkResults());
      }
    }
    List<RunResult> merged = new ArrayList<>();
    forksByCell.forEach((cell, forks) -> merged.add(new RunResult(paramsByCell.get(cell), forks)));
    return merged;
  }

  private int rounds() {
    return full ? 3 : 1;
  }

  private org.openjdk.jmh.runner.options.Options options(Class<?> benchmark, int threads,
      boolean gc) {
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include("\\." + benchmark.getSimpleName() + "\\.")
        .threads(threads)
        .forks(1)
        .jvmArgsAppend("-Xms1g", "-Xmx1g")
        .shouldFailOnError(false);
    if (full) {
      options.warmupIterations(3).warmupTime(TimeValue.seconds(1))
          .measurementIterations(5).measurementTime(TimeValue.seconds(1));
    } else {
      options.warmupIterations(2).warmupTime(TimeValue.milliseconds(500))
          .measurementIterations(3).measurementTime(TimeValue.milliseconds(500));
    }
    if (gc) {
      options.addProfiler(GCProfiler.class).addProfiler(CpuProfiler.class);
    }
    return options.build();
  }

  /**
   * Our score over theirs: the median of the ratios round by round when both have one fork per
   * round (neighbours in time, so a busy spell cancels out), else the ratio of the medians.
   */
  private static double ratio(RunResult ours, RunResult theirs) {
    double[] a = scores(ours);
    double[] b = scores(theirs);
    if (a.length != b.length) {
      return median(ours) / median(theirs);
    }
    double[] ratios = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      ratios[i] = a[i] / b[i];
    }
    return medianOf(ratios);
  }

  private static double[] scores(RunResult r) {
    return r.getBenchmarkResults().stream().mapToDouble(b -> b.getPrimaryResult().getScore())
        .toArray();
  }

  /**
   * The median of {@code values}, the mean of the middle two for an even count.
   *
   * @param values at least one value; not modified
   * @return their median
   */
  public static double medianOf(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The median over forks of the primary score. */
  private static double median(RunResult r) {
    return medianOf(scores(r));
  }

  /** Bytes allocated per operation, median over forks, or NaN without the GC profiler. */
  private static double allocation(RunResult r) {
    double[] bytes = secondary(r, "gc.alloc.rate.norm");
    return bytes.length == 0 ? Double.NaN : medianOf(bytes);
  }

  /** CPU nanoseconds per operation ({@link CpuProfiler}), median over forks, or NaN. */
  private static double cpu(RunResult r) {
    double[] nanos = secondary(r, "cpu.time.norm");
    return nanos.length == 0 ? Double.NaN : medianOf(nanos);
  }

  /** Their CPU time per call over ours, round by round as {@link #ratio}: above 1, we are faster. */
  private static double cpuSpeedRatio(RunResult ours, RunResult theirs) {
    double[] a = secondary(ours, "cpu.time.norm");
    double[] b = secondary(theirs, "cpu.time.norm");
    if (a.length == 0 || b.length == 0) {
      return Double.NaN;
    }
    if (a.length != b.length) {
      return medianOf(b) / medianOf(a);
    }
    double[] ratios = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      ratios[i] = b[i] / a[i];
    }
    return medianOf(ratios);
  }

  /** One secondary result per fork, in round order. */
  private static double[] secondary(RunResult r, String key) {
    return r.getBenchmarkResults().stream()
        .map(b -> (Result<?>) b.getSecondaryResults().get(key)) // JMH's map holds raw Results
        .filter(Objects::nonNull)
        .mapToDouble(Result::getScore).toArray();
  }

  private static RunResult find(Collection<RunResult> results, String... keyValues) {
    for (RunResult r : results) {
      boolean all = true;
      for (int i = 0; i < keyValues.length; i += 2) {
        all &= keyValues[i + 1].equals(r.getParams().getParam(keyValues[i]));
      }
      if (all) {
        return r;
      }
    }
    return null;
  }

  private static List<RunResult> sorted(Collection<RunResult> results) {
    List<RunResult> list = new ArrayList<>(results);
    list.sort(RunResult.DEFAULT_SORT_COMPARATOR);
    return list;
  }

  // --- the report ---

  private void header() {
    report.append("# Sluice benchmarks (").append(full ? "full" : "quick").append(" pass)\n\n")
        .append("- date: ").append(Instant.now()).append('\n')
        .append("- machine: ").append(Runtime.getRuntime().availableProcessors())
        .append(" cores, ").append(System.getProperty("java.vm.name")).append(' ')
        .append(System.getProperty("java.runtime.version")).append(", ")
        .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch"))
        .append('\n')
        .append("- load average at start: ").append(loadAverage()).append('\n')
        .append("- JMH: ").append(full
            ? "3 rounds of one fork per cell (3 forks, interleaved in time), 3 × 1 s warm-up,"
            + " 5 × 1 s measurement" : "1 fork, 2 × 0.5 s warm-up, 3 × 0.5 s measurement")
        .append("; scores are medians over forks, ratios medians of round-by-round ratios\n");
  }

  private void footer() throws IOException {
    report.append("\n- load average at end: ").append(loadAverage()).append('\n');
    String text = report + verdictsText();
    Path out = Path.of("benchmarks", "target", "report.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, text);
    System.out.println();
    System.out.println(text);
  }

  private String verdictsText() {
    StringBuilder out = new StringBuilder("\n## Targets\n\n| cell | measured | target | met |\n"
        + "|---|---|---|---|\n");
    verdicts.forEach(out::append);
    return out.toString();
  }

  private void verdict(String cell, String measured, String target, boolean met) {
    verdicts.add("| " + cell + " | " + measured + " | " + target + " | " + (met ? "yes" : "**NO**")
        + " |\n");
  }

  private void section(String title) {
    report.append("\n## ").append(title).append("\n\n");
  }

  private void row(String... cells) {
    report.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  private void rule(int columns) {
    report.append("|").append("---|".repeat(columns)).append('\n');
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return String.format(Locale.ROOT, "%.2f",
          java.lang.management.ManagementFactory.getOperatingSystemMXBean()
              .getSystemLoadAverage());
    }
  }

  private static String fmt(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.3g", value);
  }

  private static String fmt0(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
  }

}
