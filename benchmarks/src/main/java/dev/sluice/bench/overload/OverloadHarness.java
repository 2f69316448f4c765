package dev.sluice.bench.overload;

import dev.sluice.internal.limit.AdaptiveConcurrency;
import dev.sluice.internal.limit.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The adaptive cap against its peers on one simulated database, in virtual time: no cap, every
 * fixed cap of a sweep, Sluice's {@code AdaptiveConcurrency}, and Netflix concurrency-limits'
 * Gradient2 and Vegas, each driving the same {@code ConcurrencyGate} through the same scenario.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.sluice.bench.overload.OverloadHarness [--seed 1]
 * </pre>
 *
 * <p>The scenario (virtual seconds; open-loop Poisson arrivals, a refused statement is gone):
 *
 * <ol>
 *   <li>0&ndash;10 s, <b>light</b>: half the database's capacity, 95 % point reads (1 ms alone) and
 *       5 % range scans (20 ms alone);
 *   <li>10&ndash;25 s, <b>overload</b>: three times its capacity, same mix;
 *   <li>25&ndash;40 s, <b>step</b>: the database loses half its cores (and its knee halves), same
 *       arrivals: six times its capacity;
 *   <li>40&ndash;45 s, <b>recovered</b>: full capacity, half of it asked;
 *   <li>45&ndash;60 s, <b>mix</b>: 50 % range scans, arrivals lowered so that the work asked stays
 *       at half the capacity: nothing is overloaded, so every refusal is a false one.
 * </ol>
 *
 * <p>A second, shorter table runs the same policies through {@link #COLD}: the flood from 0 s.
 *
 * <p>Every statement has a 1 s statement timeout; one that reaches it is cancelled and counts as an
 * overload error ({@code 57014}) for the policies. A statement's work is its shape's no-load
 * latency times a log-normal factor (&sigma; = 0.25). Everything random comes from one
 * {@link SplittableRandom} seeded by {@code --seed}, drawn identically whatever the policy decides,
 * so every policy faces the same arrivals. (Vegas draws its probe jitter from
 * {@code ThreadLocalRandom}; its rows may move slightly between runs.)
 *
 * <p>This class is not threadsafe; it is a main.
 */
public final class OverloadHarness {

  static final double CORES = 16;
  static final double KNEE = 32;
  static final double SIGMA = 0.25;
  static final long TIMEOUT_NANOS = 1_000_000_000L;
  static final double POINT_NANOS = 1e6;
  static final double SCAN_NANOS = 20e6;
  static final int POINT = AdaptiveConcurrency.shapeOf("SELECT name FROM users WHERE id = ?");
  static final int SCAN =
      AdaptiveConcurrency.shapeOf("SELECT count(*) FROM orders WHERE created BETWEEN ? AND ?");
  static final int[] FIXED_CAPS = {4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40, 48, 64, 128};
  static final long SECOND = 1_000_000_000L;
  static final long BIN_NANOS = 250_000_000L;

  /** One phase of the scenario. */
  record Phase(String name, long startNanos, long endNanos, double load, double scanShare,
      double coreShare) {
    double meanWorkNanos() {
      return (1 - scanShare) * POINT_NANOS + scanShare * SCAN_NANOS;
    }

    /** Arrivals per nanosecond: {@code load} times what the full database completes. */
    double arrivalsPerNano() {
      return load * CORES / meanWorkNanos();
    }
  }

  static final List<Phase> PHASES = List.of(
      new Phase("light", 0, 10 * SECOND, 0.5, 0.05, 1),
      new Phase("overload", 10 * SECOND, 25 * SECOND, 3, 0.05, 1),
      new Phase("step", 25 * SECOND, 40 * SECOND, 3, 0.05, 0.5),
      new Phase("recovered", 40 * SECOND, 45 * SECOND, 0.5, 0.05, 1),
      new Phase("mix", 45 * SECOND, 60 * SECOND, 0.5, 0.5, 1));

  /**
   * The same scenario without the light first phase: the flood starts at 0 s, before anything is
   * known of the database. The baseline a controller learns then is a crowded one.
   */
  static final List<Phase> COLD = List.of(
      new Phase("flood", 0, 10 * SECOND, 3, 0.05, 1),
      PHASES.get(1), PHASES.get(2), PHASES.get(3), PHASES.get(4));

  private OverloadHarness() {}

  /**
   * Runs the comparison and prints the report as markdown.
   *
   * @param args {@code --seed N} (default 1)
   */
  public static void main(String[] args) {
    long seed = 1;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--seed")) {
        seed = Long.parseLong(args[i + 1]);
      }
    }
    Report report = new Report(seed, noLoadP99(seed, 0));
    report.print(runAll(seed, PHASES));
    report.printCold(List.of(run(seed, COLD, clock -> Policy.fixed(16)),
        run(seed, COLD, Policy::sluice), run(seed, COLD, clock -> Policy.gradient2()),
        run(seed, COLD, clock -> Policy.vegas())));
  }

  static List<Result> runAll(long seed, List<Phase> phases) {
    List<Result> results = new ArrayList<>();
    results.add(run(seed, phases, clock -> Policy.none()));
    for (int cap : FIXED_CAPS) {
      results.add(run(seed, phases, clock -> Policy.fixed(cap)));
    }
    results.add(run(seed, phases, Policy::sluice));
    results.add(run(seed, phases, clock -> Policy.gradient2()));
    results.add(run(seed, phases, clock -> Policy.vegas()));
    return results;
  }

  /** The p99 of a statement's latency alone on the database, for a mix with {@code scanShare}. */
  static double noLoadP99(long seed, double scanShare) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    double[] latencies = new double[200_000];
    for (int i = 0; i < latencies.length; i++) {
      boolean scan = random.nextDouble() < scanShare;
      latencies[i] = (scan ? SCAN_NANOS : POINT_NANOS) * Math.exp(SIGMA * gaussian(random));
    }
    Arrays.sort(latencies);
    return latencies[(int) (latencies.length * 0.99)];
  }

  /** One policy through the whole scenario. */
  static Result run(long seed, List<Phase> phases, Function<Ticker, Policy> policyOn) {
    long[] clock = new long[1];
    Policy policy = policyOn.apply(() -> clock[0]);
    SplittableRandom random = new SplittableRandom(seed);
    SimulatedDatabase db = new SimulatedDatabase(CORES, KNEE);
    ArrayDeque<SimulatedDatabase.Statement> byTimeout = new ArrayDeque<>();
    Result result = new Result(policy.name(), phases.size());
    int phaseIndex = 0;
    Phase phase = phases.get(0);
    long nextArrival = exponential(random, phase.arrivalsPerNano());
    while (true) {
      long nextEnd = db.nextEndNanos();
      long nextTimeout = byTimeout.isEmpty()
          ? Long.MAX_VALUE : byTimeout.peekFirst().admittedNanos + TIMEOUT_NANOS;
      long now = Math.min(Math.min(nextEnd, nextTimeout), Math.min(nextArrival, phase.endNanos));
      db.advanceTo(now);
      clock[0] = now;
      if (now == phase.endNanos) {
        if (++phaseIndex == phases.size()) {
          break;
        }
        phase = phases.get(phaseIndex);
        db.resize(CORES * phase.coreShare, KNEE * phase.coreShare);
        nextArrival = now + exponential(random, phase.arrivalsPerNano());
      } else if (now == nextEnd) {
        SimulatedDatabase.Statement done = db.end();
        long latency = now - done.admittedNanos;
        policy.onEnd(done, latency, false);
        result.completed(phaseIndex, now, done.shape, latency);
      } else if (now == nextTimeout) {
        SimulatedDatabase.Statement late = byTimeout.pollFirst();
        if (!late.over) {
          db.cancel(late);
          policy.onEnd(late, TIMEOUT_NANOS, true);
          result.timedOut(phaseIndex, now, late.shape);
        }
      } else {
        boolean scan = random.nextDouble() < phase.scanShare;
        double work = (scan ? SCAN_NANOS : POINT_NANOS) * Math.exp(SIGMA * gaussian(random));
        if (policy.tryAcquire()) {
          SimulatedDatabase.Statement s =
              new SimulatedDatabase.Statement(now, scan ? SCAN : POINT, db.running() + 1);
          db.admit(s, work);
          byTimeout.addLast(s);
          result.admitted(phaseIndex);
        } else {
          result.refused(phaseIndex);
        }
        nextArrival = now + exponential(random, phase.arrivalsPerNano());
      }
      result.limitAt(now, policy.limit());
    }
    return result;
  }

  private static long exponential(SplittableRandom random, double perNano) {
    return 1 + (long) (-Math.log(1 - random.nextDouble()) / perNano);
  }

  private static double gaussian(SplittableRandom random) {
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }
}
