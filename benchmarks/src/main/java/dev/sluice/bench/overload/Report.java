package dev.sluice.bench.overload;

import static dev.sluice.bench.overload.OverloadHarness.format;

import java.util.Comparator;
import java.util.List;

/** Prints the comparison and the verdict on each target as markdown. */
final class Report {

  private static final int LIGHT = 0;
  private static final int OVERLOAD = 1;
  private static final int STEP = 2;
  private static final int MIX = 4;

  private final long seed;
  private final double noLoadP99Nanos;

  Report(long seed, double noLoadP99Nanos) {
    this.seed = seed;
    this.noLoadP99Nanos = noLoadP99Nanos;
  }

  void print(List<Result> results) {
    Result best = results.stream().filter(r -> r.name.startsWith("fixed "))
        .max(Comparator.comparingDouble(r -> r.goodput(OVERLOAD, STEP + 1, true))).orElseThrow();
    System.out.println(format("### Adaptive cap: the overload harness (seed %d)%n", seed));
    System.out.println(format("No-load p99 of a point read: %.2f ms. A statement is within its "
        + "bound when it takes at most twice its shape's no-load p99. Goodput over the overload "
        + "and step phases (10–40 s); latencies are the point reads' at the database, timeouts "
        + "included; settle: after the step at 25 s, until every 250 ms bin has a point-read p99 "
        + "≤ 2 × its no-load p99.%n", noLoadP99Nanos / 1e6));
    System.out.println("| policy | goodput/s | within bound/s | p50 ms (10–40 s) "
        + "| p99 ms (overload) | p99 ms (step) | settle s | refused, light "
        + "| refused, mix (false) | cap at 24 / 39 / 59 s |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      if (r.name.startsWith("fixed ") && r != best && !isNeighbour(r, best)) {
        continue;
      }
      System.out.println(row(r, r == best));
    }
    System.out.println();
    System.out.println("Fixed caps swept (within bound/s over 10–40 s): " + sweep(results));
    System.out.println();
    verdicts(results, best);
    System.out.println();
    System.out.println(
        "The adaptive caps at the end of each second (phases change at 10, 25, 40, 45 s):");
    System.out.println();
    for (String name : List.of("Sluice auto", "Netflix Gradient2", "Netflix Vegas")) {
      Result r = find(results, name);
      StringBuilder caps = new StringBuilder();
      for (int second = 1; second <= 60; second++) {
        caps.append(second == 1 ? "" : " ").append(r.limitAtSecond(second));
      }
      System.out.println("- " + name + ": " + caps);
    }
  }

  private String row(Result r, boolean best) {
    return format("| %s%s | %,.0f | %,.0f | %.2f | %.2f | %.2f | %s | %.2f %% | %.2f %% | %s |",
        r.name, best ? " (best fixed)" : "",
        r.goodput(OVERLOAD, STEP + 1, false), r.goodput(OVERLOAD, STEP + 1, true),
        r.quantileNanos(0.5, OVERLOAD, STEP + 1) / 1e6,
        r.quantileNanos(0.99, OVERLOAD, OVERLOAD + 1) / 1e6,
        r.quantileNanos(0.99, STEP, STEP + 1) / 1e6, settle(r),
        100 * r.refusedShare(LIGHT), 100 * r.refusedShare(MIX),
        r.limitAtSecond(24) == 0 ? "—"
            : r.limitAtSecond(24) + " / " + r.limitAtSecond(39) + " / " + r.limitAtSecond(59));
  }

  private String settle(Result r) {
    double s = r.settleSeconds(STEP, 2 * noLoadP99Nanos);
    return Double.isInfinite(s) ? "never" : format("%.2f", s);
  }

  private static boolean isNeighbour(Result r, Result best) {
    int cap = Integer.parseInt(r.name.substring(6));
    int bestCap = Integer.parseInt(best.name.substring(6));
    return cap == bestCap * 2 || cap == bestCap / 2;
  }

  private static String sweep(List<Result> results) {
    StringBuilder out = new StringBuilder();
    for (Result r : results) {
      if (r.name.startsWith("fixed ")) {
        out.append(out.length() == 0 ? "" : ", ")
            .append(format("%s → %,.0f", r.name.substring(6), r.goodput(OVERLOAD, STEP + 1, true)));
      }
    }
    return out.toString();
  }

  private void verdicts(List<Result> results, Result best) {
    Result sluice = find(results, "Sluice auto");
    double bound = sluice.goodput(OVERLOAD, STEP + 1, true);
    System.out.println("| target | measured | met |");
    System.out.println("|---|---|---|");
    verdict(format("goodput ≥ 0.9 × best fixed (%s)", best.name),
        format("%.3f ×", sluice.goodput(OVERLOAD, STEP + 1, false)
            / best.goodput(OVERLOAD, STEP + 1, false)),
        sluice.goodput(OVERLOAD, STEP + 1, false) >= 0.9 * best.goodput(OVERLOAD, STEP + 1, false));
    verdict("within-bound goodput ≥ 0.9 × best fixed",
        format("%.3f ×", bound / best.goodput(OVERLOAD, STEP + 1, true)),
        bound >= 0.9 * best.goodput(OVERLOAD, STEP + 1, true));
    double p99 = sluice.quantileNanos(0.99, OVERLOAD, OVERLOAD + 1);
    verdict("p99 ≤ 2 × no-load p99 under 3× overload",
        format("%.2f ×", p99 / noLoadP99Nanos), p99 <= 2 * noLoadP99Nanos);
    double settle = sluice.settleSeconds(STEP, 2 * noLoadP99Nanos);
    verdict("settles within 5 s after the step", settle(sluice), settle <= 5);
    verdict("false refusals after the mix change ≤ 1 %",
        format("%.3f %%", 100 * sluice.refusedShare(MIX)), sluice.refusedShare(MIX) <= 0.01);
    verdict("no refusals under light load (≤ 0.1 %)",
        format("%.3f %%", 100 * sluice.refusedShare(LIGHT)), sluice.refusedShare(LIGHT) <= 0.001);
    for (String peer : List.of("Netflix Gradient2", "Netflix Vegas")) {
      double theirs = find(results, peer).goodput(OVERLOAD, STEP + 1, true);
      verdict("within-bound goodput ahead of " + peer,
          format("%.2f ×", bound / theirs), bound > theirs);
    }
  }

  /** The same policies when the flood starts before anything is known (no light first phase). */
  void printCold(List<Result> results) {
    System.out.println();
    System.out.println("Without the light first phase (the flood starts at 0 s; phases otherwise "
        + "the same; goodput over 0–40 s):");
    System.out.println();
    System.out.println("| policy | goodput/s | within bound/s | p99 ms (0–10 s) | p99 ms (10–25 s) "
        + "| p99 ms (step) | cap at 9 / 24 / 39 s |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (Result r : results) {
      System.out.println(format("| %s | %,.0f | %,.0f | %.2f | %.2f | %.2f | %d / %d / %d |",
          r.name, r.goodput(LIGHT, STEP + 1, false), r.goodput(LIGHT, STEP + 1, true),
          r.quantileNanos(0.99, LIGHT, LIGHT + 1) / 1e6,
          r.quantileNanos(0.99, OVERLOAD, OVERLOAD + 1) / 1e6,
          r.quantileNanos(0.99, STEP, STEP + 1) / 1e6,
          r.limitAtSecond(9), r.limitAtSecond(24), r.limitAtSecond(39)));
    }
  }

  private static void verdict(String target, String measured, boolean met) {
    System.out.println(format("| %s | %s | %s |", target, measured, met ? "yes" : "**NO**"));
  }

  private static Result find(List<Result> results, String name) {
    return results.stream().filter(r -> r.name.equals(name)).findFirst().orElseThrow();
  }
}
