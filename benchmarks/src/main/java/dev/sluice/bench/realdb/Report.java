package dev.sluice.bench.realdb;

import dev.sluice.bench.Suite;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The real-database harness's report: the table per host variant (goodput over the
 * overload phases against the best fixed cap, p99 under 3&times; and at light load, refusals at
 * light load before and after, settling after the halving), the targets' verdicts for
 * {@code auto}, whether any fixed cap met the goodput and the p99 target together, the per-bin
 * traces as CSV and the caps as an SVG chart.
 *
 * <p>This class is not threadsafe.
 */
final class Report {
  private static final Map<String, String> COLOURS = Map.of(
      "Sluice auto", "#d62728", "Netflix Gradient2", "#2ca02c", "Netflix Vegas", "#1f77b4");

  private final List<RealDatabaseHarness.Phase> phases;
  private final StringBuilder text = new StringBuilder();

  Report(List<RealDatabaseHarness.Phase> phases) {
    this.phases = phases;
  }

  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  void calibrated(int size, double targetMillis, double capacity, double load) {
    line("# Real-database harness, %s", Instant.now());
    line("");
    line("- statement: `%s`, series of %,d for about %.0f ms alone at best (0.6-1.4x per statement)",
        RealDatabaseHarness.SQL, size, targetMillis);
    line("- capacity C: %.0f statements/s (closed loop, 8 in flight); pool %d; deadline %d ms",
        capacity, RealDatabaseHarness.pool, RealDatabaseHarness.DEADLINE_MILLIS);
    StringBuilder p = new StringBuilder();
    for (RealDatabaseHarness.Phase phase : phases) {
      p.append(String.format(Locale.ROOT, " %s %.0f s at %.1fC%s;", phase.name(), phase.seconds(),
          phase.load(), phase.cost() == 1 ? "" : String.format(Locale.ROOT,
              " (cost x%.0f)", phase.cost())));
    }
    line("- phases:%s", p);
    line("- cores: %d; load average (1 min) at the start: %.2f",
        Runtime.getRuntime().availableProcessors(), load);
    System.out.print(text);
    System.out.flush();
  }

  /** Records auto's maximum: {@code sluice.concurrency.max}'s default over this pool. */
  void autoMax(int max) {
    line("- auto's max: %s", max > 0 ? max + " (sluice.concurrency.max's default: the pool's size,"
        + " read from HikariCP)" : "100 (the pool's size could not be read: Sluice WARNs at start)");
  }

  /**
   * Prints and writes the report: each round's tables, then, over several rounds, the means the
   * targets are judged on; the chart shows the last round.
   */
  void finish(List<List<Tally>> rounds, double load, Path out) throws IOException {
    int start = text.length();
    line("- load average (1 min) at the end: %.2f", load);
    for (int r = 0; r < rounds.size(); r++) {
      for (String variant : List.of("quiet", "noisy")) {
        String round = rounds.size() == 1 ? "" : "round " + (r + 1) + ", ";
        table(round, variant, of(rounds.get(r), variant));
      }
    }
    if (rounds.size() > 1) {
      for (String variant : List.of("quiet", "noisy")) {
        List<List<Tally>> of = new ArrayList<>();
        for (List<Tally> round : rounds) {
          of.add(of(round, variant));
        }
        aggregate(variant, of);
      }
    }
    System.out.print(text.substring(start));
    List<Tally> last = rounds.get(rounds.size() - 1);
    Files.writeString(out.resolve("report.md"), text);
    Files.writeString(out.resolve("traces.csv"), csv(rounds));
    Files.writeString(out.resolve("caps.svg"), Chart.svg(phases, last, COLOURS));
    System.out.println();
    System.out.println("written: " + out.toAbsolutePath() + "/{report.md,traces.csv,caps.svg}");
  }

  private static String heading(String variant) {
    return variant + " host" + (variant.equals("noisy")
        ? " (" + RealDatabaseHarness.NEIGHBOURS + " busy threads beside the database)" : "");
  }

  /**
   * The rounds of one host side by side: each gate's mean goodput, and the best fixed cap chosen by
   * its mean rather than by one round's luck (the best of four noisy cells is biased upwards).
   */
  private void aggregate(String variant, List<List<Tally>> rounds) {
    int n = rounds.size();
    line("");
    line("## over %d rounds, %s", n, heading(variant));
    line("");
    List<Summary> summaries = new ArrayList<>();
    Summary best = null;
    for (Tally first : rounds.get(0)) {
      Summary summary = Summary.of(first.gate, rounds);
      summaries.add(summary);
      if (first.gate.startsWith("fixed") && (best == null || summary.goodput > best.goodput)) {
        best = summary;
      }
    }
    line("| gate | goodput /s, mean | rounds | x best fixed | timed out in overload, mean |"
        + " p99 3x / light, median | refused light, most | of it past the first 250 ms after,"
        + " most | settled after halving <= 5 s | mean cap 3x | mean cap halved |");
    line("|---|---|---|---|---|---|---|---|---|---|---|");
    Summary auto = null;
    Summary gradient2 = null;
    for (Summary g : summaries) {
      boolean capped = !g.gate.equals("no cap");
      line("| %s%s | %.0f | %s | %.2f | %.1f %% | %.2f | %.1f %% | %.1f %% | %d of %d | %s | %s |",
          g.gate, g == best ? " (best fixed)" : "", g.goodput, g.each, g.goodput / best.goodput,
          g.timedOut, g.p99, g.refused, g.refusedPastDrain, g.settled, n,
          capped ? String.format(Locale.ROOT, "%.1f", g.cap3) : "-",
          capped ? String.format(Locale.ROOT, "%.1f", g.capHalved) : "-");
      auto = g.gate.equals("Sluice auto") ? g : auto;
      gradient2 = g.gate.equals("Netflix Gradient2") ? g : gradient2;
    }
    if (auto != null && gradient2 != null) {
      double ratio = auto.goodput / best.goodput;
      double toGradient2 = auto.goodput / gradient2.goodput;
      line("");
      line("`auto` over the rounds: mean goodput %.2fx the best fixed cap's (>= 0.9: %s) and %.2fx"
          + " Gradient2's (>= 1: %s); median p99 3x / light %.2f (<= 2: %s); refused at light"
          + " load %.1f %% in the worst round (<= 1 %%: %s; past the first 250 ms after the"
          + " overload: %.1f %%); settled within 5 s of the halving in %d of %d rounds (every"
          + " round: %s).", ratio, pass(ratio >= 0.9), toGradient2,
          pass(toGradient2 >= 1), auto.p99, pass(auto.p99 <= 2), auto.refused,
          pass(auto.refused <= 1), auto.refusedPastDrain, auto.settled, n,
          pass(auto.settled == n));
    }
    List<Fixed> fixed = new ArrayList<>();
    for (Summary g : summaries) {
      if (g.gate.startsWith("fixed")) {
        fixed.add(new Fixed(g.gate, g.goodput / best.goodput, g.p99));
      }
    }
    frontier(fixed, " over the rounds (mean goodput, median p99)");
  }

  /** One gate over the rounds: the means, medians and worst cases the aggregate table shows. */
  private record Summary(String gate, double goodput, String each, double timedOut, double p99,
      double refused, double refusedPastDrain, int settled, double cap3, double capHalved) {

    static Summary of(String gate, List<List<Tally>> rounds) {
      int n = rounds.size();
      StringBuilder each = new StringBuilder();
      double goodput = 0;
      double timedOut = 0;
      double[] p99 = new double[n];
      double refused = 0;
      double refusedPastDrain = 0;
      int settled = 0;
      double cap3 = 0;
      double capHalved = 0;
      for (int r = 0; r < n; r++) {
        Tally t = find(rounds.get(r), gate);
        double good = Report.goodput(t); // the record's accessor hides the static method
        each.append(r == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", good));
        goodput += good / n;
        timedOut += timedOutPercent(t) / n;
        p99[r] = p99Ratio(t);
        refused = Math.max(refused, lightRefused(t));
        refusedPastDrain = Math.max(refusedPastDrain, Report.refusedPastDrain(t));
        settled += settledWithinFive(t) ? 1 : 0;
        cap3 += t.meanCap(RealDatabaseHarness.THREE_X) / n;
        capHalved += t.meanCap(RealDatabaseHarness.HALVED) / n;
      }
      return new Summary(gate, goodput, each.toString(), timedOut, Suite.medianOf(p99), refused,
          refusedPastDrain, settled, cap3, capHalved);
    }
  }

  /** The share refused at light load, before or after the overload, whichever is more. */
  private static double lightRefused(Tally t) {
    return Math.max(refusedPercent(t, RealDatabaseHarness.LIGHT),
        refusedPercent(t, RealDatabaseHarness.LIGHT_AGAIN));
  }

  /**
   * The share of the light load after the overload refused past its first bin: while the gate
   * still holds the overload's statements, every gate that caps refuses the light load's first
   * arrivals (a cap of 24 full of twice as costly statements takes about 120 ms to drain on 2
   * cores); what is refused after that is the cap's own doing.
   */
  private static double refusedPastDrain(Tally t) {
    int phase = RealDatabaseHarness.LIGHT_AGAIN;
    int from = t.firstBin(phase);
    int refused = t.sum(t.refused, phase) - t.refused.get(from);
    int arrivals = t.sum(t.arrivals, phase) - t.arrivals.get(from);
    return 100.0 * refused / Math.max(1, arrivals);
  }

  private static double p99Ratio(Tally t) {
    return t.quantileMillis(RealDatabaseHarness.THREE_X, 0.99)
        / t.quantileMillis(RealDatabaseHarness.LIGHT, 0.99);
  }

  private void table(String round, String variant, List<Tally> tallies) {
    line("");
    line("## %s%s", round, heading(variant));
    line("");
    Tally best = bestFixed(tallies);
    double bestGoodput = goodput(best);
    line("| gate | goodput over overload /s | x best fixed | timed out in overload |"
        + " p99 light ms | p99 3x ms | 3x / light | refused light before | refused light after |"
        + " of it past the first 250 ms | settled after halving | mean cap 3x | mean cap halved |");
    line("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Tally t : tallies) {
      double p99Light = t.quantileMillis(RealDatabaseHarness.LIGHT, 0.99);
      double p99Three = t.quantileMillis(RealDatabaseHarness.THREE_X, 0.99);
      line("| %s%s | %.0f | %.2f | %.1f %% | %.1f | %.1f | %.2f | %.1f %% | %.1f %% | %.1f %% | %s"
              + " | %s | %s |",
          t.gate, t == best ? " (best fixed)" : "", goodput(t), goodput(t) / bestGoodput,
          timedOutPercent(t), p99Light, p99Three, p99Three / p99Light,
          refusedPercent(t, RealDatabaseHarness.LIGHT),
          refusedPercent(t, RealDatabaseHarness.LIGHT_AGAIN), refusedPastDrain(t), settled(t),
          cap(t, RealDatabaseHarness.THREE_X), cap(t, RealDatabaseHarness.HALVED));
    }
    verdicts(tallies, bestGoodput);
    List<Fixed> fixed = new ArrayList<>();
    for (Tally t : tallies) {
      if (t.gate.startsWith("fixed")) {
        fixed.add(new Fixed(t.gate, goodput(t) / bestGoodput, p99Ratio(t)));
      }
    }
    frontier(fixed, "");
  }

  /** A fixed cap's goodput (x the best fixed cap's) and p99 under 3x / at light load. */
  private record Fixed(String gate, double goodput, double p99) {
    boolean meetsBoth() {
      return goodput >= 0.9 && p99 <= 2;
    }
  }

  /**
   * Whether any fixed cap met the goodput and the p99 target together: where none did, the two
   * targets conflict on this host, and a gate can only trade one for the other.
   */
  private void frontier(List<Fixed> fixed, String over) {
    List<String> each = new ArrayList<>();
    List<String> both = new ArrayList<>();
    for (Fixed f : fixed) {
      each.add(String.format(Locale.ROOT, "%s %.2fx, %.2f", f.gate, f.goodput, f.p99));
      if (f.meetsBoth()) {
        both.add(f.gate);
      }
    }
    line("");
    line("Fixed caps meeting both the goodput (>= 0.9x the best fixed) and the p99 target (3x /"
        + " light <= 2)%s: %s (%s).", over, both.isEmpty() ? "**none**" : String.join(", ", both),
        String.join("; ", each));
  }

  private void verdicts(List<Tally> tallies, double bestGoodput) {
    Tally auto = find(tallies, "Sluice auto");
    Tally gradient2 = find(tallies, "Netflix Gradient2");
    if (auto == null || gradient2 == null) {
      return;
    }
    double ratio = goodput(auto) / bestGoodput;
    double p99 = p99Ratio(auto);
    double refused = lightRefused(auto);
    line("");
    line("`auto` against the targets: goodput %.2fx best fixed (>= 0.9: %s) and %.2fx"
            + " Gradient2's (>= 1: %s); p99 3x / light %.2f (<= 2: %s); refused at light load"
            + " %.1f %% at most (<= 1 %%: %s; past the first 250 ms after the overload: %.1f %%);"
            + " settled after the halving: %s (<= 5 s: %s).",
        ratio, pass(ratio >= 0.9), goodput(auto) / goodput(gradient2),
        pass(goodput(auto) >= goodput(gradient2)), p99, pass(p99 <= 2), refused,
        pass(refused <= 1), refusedPastDrain(auto), settled(auto),
        pass(settledWithinFive(auto)));
  }

  private static String pass(boolean met) {
    return met ? "met" : "**not met**";
  }

  private static Tally find(List<Tally> tallies, String gate) {
    return tallies.stream().filter(t -> t.gate.equals(gate)).findFirst().orElse(null);
  }

  private static Tally bestFixed(List<Tally> tallies) {
    Tally best = null;
    for (Tally t : tallies) {
      if (t.gate.startsWith("fixed") && (best == null || goodput(t) > goodput(best))) {
        best = t;
      }
    }
    return best;
  }

  /** Statements answered within the deadline a second, over the overload phases. */
  static double goodput(Tally t) {
    double good = 0;
    double seconds = 0;
    for (int p : RealDatabaseHarness.OVERLOAD) {
      good += t.sum(t.good, p);
      seconds += t.phases.get(p).seconds();
    }
    return good / seconds;
  }

  private static double timedOutPercent(Tally t) {
    double late = 0;
    double arrivals = 0;
    for (int p : RealDatabaseHarness.OVERLOAD) {
      late += t.sum(t.late, p);
      arrivals += t.sum(t.arrivals, p);
    }
    return 100 * late / Math.max(1, arrivals);
  }

  private static double refusedPercent(Tally t, int phase) {
    return 100.0 * t.sum(t.refused, phase) / Math.max(1, t.sum(t.arrivals, phase));
  }

  private static boolean settledWithinFive(Tally t) {
    double s = t.settlingSeconds(RealDatabaseHarness.HALVED);
    return s < t.phases.get(RealDatabaseHarness.HALVED).seconds() && s <= 5;
  }

  private static String settled(Tally t) {
    double s = t.settlingSeconds(RealDatabaseHarness.HALVED);
    double length = t.phases.get(RealDatabaseHarness.HALVED).seconds();
    return s >= length ? "never" : String.format(Locale.ROOT, "%.2f s", s);
  }

  private static String cap(Tally t, int phase) {
    return t.gate.equals("no cap") ? "-" : String.format(Locale.ROOT, "%.1f", t.meanCap(phase));
  }

  private static String csv(List<List<Tally>> rounds) {
    StringBuilder csv =
        new StringBuilder("round,variant,gate,second,arrivals,refused,good,late,errors,cap\n");
    for (int r = 0; r < rounds.size(); r++) {
      for (Tally t : rounds.get(r)) {
        for (int b = 0; b < t.caps.length; b++) {
          csv.append(String.format(Locale.ROOT, "%d,%s,%s,%.2f,%d,%d,%d,%d,%d,%d%n", r + 1,
              t.variant, t.gate, b / (double) Tally.BINS_PER_SECOND, t.arrivals.get(b),
              t.refused.get(b), t.good.get(b), t.late.get(b), t.errors.get(b), t.caps[b]));
        }
      }
    }
    return csv.toString();
  }

  private void line(String format, Object... args) {
    text.append(String.format(Locale.ROOT, format, args)).append('\n');
  }

  static List<Tally> of(List<Tally> tallies, String variant) {
    List<Tally> of = new ArrayList<>();
    for (Tally t : tallies) {
      if (t.variant.equals(variant)) {
        of.add(t);
      }
    }
    return of;
  }
}
