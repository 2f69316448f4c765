package dev.sluice.bench.realdb;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What one variant did through one scenario: per bin of {@link #BIN_NANOS} (by arrival time)
 * the arrivals, the refusals, the statements that answered within the deadline and those that did
 * not, the cap the gate had, and per phase the latency of every admitted statement.
 *
 * <p>This class is threadsafe: counters are atomic, each latency slot is written once.
 */
final class Tally {
  static final long BIN_NANOS = 250_000_000L;
  static final int BINS_PER_SECOND = 4;

  final String variant;
  final String gate;
  final List<RealDatabaseHarness.Phase> phases;
  final AtomicIntegerArray arrivals;
  final AtomicIntegerArray refused;
  final AtomicIntegerArray good;
  final AtomicIntegerArray late;
  final AtomicIntegerArray errors;
  final int[] caps;
  private final long[][] latencies;
  private final AtomicIntegerArray latencyCounts;

  Tally(String variant, String gate, List<RealDatabaseHarness.Phase> phases, int[] arrivalsPerPhase) {
    this.variant = variant;
    this.gate = gate;
    this.phases = phases;
    int bins = binOf(RealDatabaseHarness.durationNanos(phases) + BIN_NANOS - 1);
    arrivals = new AtomicIntegerArray(bins);
    refused = new AtomicIntegerArray(bins);
    good = new AtomicIntegerArray(bins);
    late = new AtomicIntegerArray(bins);
    errors = new AtomicIntegerArray(bins);
    caps = new int[bins];
    latencies = new long[phases.size()][];
    for (int p = 0; p < phases.size(); p++) {
      latencies[p] = new long[arrivalsPerPhase[p]];
    }
    latencyCounts = new AtomicIntegerArray(phases.size());
  }

  static int binOf(long offsetNanos) {
    return (int) (offsetNanos / BIN_NANOS);
  }

  void refused(long offsetNanos) {
    arrivals.incrementAndGet(binOf(offsetNanos));
    refused.incrementAndGet(binOf(offsetNanos));
  }

  /** An admitted statement ended {@code elapsedNanos} after it arrived; {@code good}: in time. */
  void admitted(long offsetNanos, int phase, long elapsedNanos, boolean inTime, boolean error) {
    int bin = binOf(offsetNanos);
    arrivals.incrementAndGet(bin);
    (inTime ? good : late).incrementAndGet(bin);
    if (error) {
      errors.incrementAndGet(bin);
    }
    int i = latencyCounts.getAndIncrement(phase);
    latencies[phase][i] = elapsedNanos;
  }

  // --- what the report reads, once the run is over ---

  int sum(AtomicIntegerArray counts, int phase) {
    int total = 0;
    for (int b = firstBin(phase); b < firstBin(phase + 1); b++) {
      total += counts.get(b);
    }
    return total;
  }

  int firstBin(int phase) {
    long start = 0;
    for (int p = 0; p < phase; p++) {
      start += phases.get(p).nanos();
    }
    return binOf(start);
  }

  /** The {@code q} quantile of the admitted statements' latency in a phase, in milliseconds. */
  double quantileMillis(int phase, double q) {
    int n = latencyCounts.get(phase);
    if (n == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(latencies[phase], n);
    Arrays.sort(sorted);
    return sorted[Math.min(n - 1, (int) Math.ceil(q * n) - 1)] / 1e6;
  }

  /** The mean cap over a phase's bins. */
  double meanCap(int phase) {
    double total = 0;
    int from = firstBin(phase);
    int to = firstBin(phase + 1);
    for (int b = from; b < to; b++) {
      total += caps[b];
    }
    return total / Math.max(1, to - from);
  }

  /**
   * Seconds from a phase's start to the end of its last bin with a statement that missed its
   * deadline; 0 when none did, the phase's length when its last bin still had one.
   */
  double settlingSeconds(int phase) {
    int from = firstBin(phase);
    int last = -1;
    for (int b = from; b < firstBin(phase + 1); b++) {
      if (late.get(b) > 0) {
        last = b;
      }
    }
    return last < 0 ? 0 : (last + 1 - from) / (double) BINS_PER_SECOND;
  }
}
