package dev.sluice.bench.overload;

import java.util.Arrays;

/**
 * What one policy did through the scenario: counts per phase, the latencies of the point reads (the
 * shape that is 95 % of the traffic until the mix changes) per phase and per 250 ms bin, and its
 * cap over time.
 */
final class Result {

  final String name;
  final long[] admitted;
  final long[] refused;
  final long[] completed;
  final long[] withinSlo;
  final long[] timedOut;
  private final long[][] latencies;
  private final int[] sizes;
  /** The cap at the end of each 250 ms bin (0: no cap). */
  final int[] limitByBin;
  /** Point-read latencies (nanos) ending in each 250 ms bin, for the settling time. */
  private final long[][] binLatencies;
  private final int[] binSizes;

  Result(String name, int phases) {
    this.name = name;
    admitted = new long[phases];
    refused = new long[phases];
    completed = new long[phases];
    withinSlo = new long[phases];
    timedOut = new long[phases];
    latencies = new long[phases][1024];
    sizes = new int[phases];
    long endNanos = OverloadHarness.PHASES.get(phases - 1).endNanos();
    int bins = (int) (endNanos / OverloadHarness.BIN_NANOS);
    limitByBin = new int[bins + 1];
    binLatencies = new long[bins + 1][64];
    binSizes = new int[bins + 1];
  }

  /** The statement's service-level bound: twice its shape's no-load p99. */
  static double sloNanos(int shape) {
    double base = shape == OverloadHarness.SCAN ? OverloadHarness.SCAN_NANOS
        : OverloadHarness.POINT_NANOS;
    return 2 * base * Math.exp(2.326 * OverloadHarness.SIGMA);
  }

  void admitted(int phase) {
    admitted[phase]++;
  }

  void refused(int phase) {
    refused[phase]++;
  }

  void completed(int phase, long now, int shape, long latencyNanos) {
    completed[phase]++;
    if (latencyNanos <= sloNanos(shape)) {
      withinSlo[phase]++;
    }
    if (shape == OverloadHarness.POINT) {
      record(phase, now, latencyNanos);
    }
  }

  void timedOut(int phase, long now, int shape) {
    timedOut[phase]++;
    if (shape == OverloadHarness.POINT) {
      record(phase, now, OverloadHarness.TIMEOUT_NANOS);
    }
  }

  void limitAt(long now, int limit) {
    limitByBin[(int) (now / OverloadHarness.BIN_NANOS)] = limit;
  }

  private void record(int phase, long now, long latencyNanos) {
    if (sizes[phase] == latencies[phase].length) {
      latencies[phase] = Arrays.copyOf(latencies[phase], sizes[phase] * 2);
    }
    latencies[phase][sizes[phase]++] = latencyNanos;
    int bin = (int) (now / OverloadHarness.BIN_NANOS);
    if (binSizes[bin] == binLatencies[bin].length) {
      binLatencies[bin] = Arrays.copyOf(binLatencies[bin], binSizes[bin] * 2);
    }
    binLatencies[bin][binSizes[bin]++] = latencyNanos;
  }

  /** The {@code q} quantile of point-read latencies (timeouts included) ending in [from, to). */
  double quantileNanos(double q, int from, int to) {
    int n = 0;
    for (int p = from; p < to; p++) {
      n += sizes[p];
    }
    long[] all = new long[n];
    int at = 0;
    for (int p = from; p < to; p++) {
      System.arraycopy(latencies[p], 0, all, at, sizes[p]);
      at += sizes[p];
    }
    return quantile(all, n, q);
  }

  double binQuantileNanos(int bin, double q) {
    return quantile(Arrays.copyOf(binLatencies[bin], binSizes[bin]), binSizes[bin], q);
  }

  private static double quantile(long[] values, int n, double q) {
    if (n == 0) {
      return Double.NaN;
    }
    Arrays.sort(values, 0, n);
    return values[Math.min(n - 1, (int) (n * q))];
  }

  /** Statements per second in phases [from, to); only those within the bound if {@code slo}. */
  double goodput(int from, int to, boolean slo) {
    long n = 0;
    for (int p = from; p < to; p++) {
      n += slo ? withinSlo[p] : completed[p];
    }
    double seconds = (OverloadHarness.PHASES.get(to - 1).endNanos()
        - OverloadHarness.PHASES.get(from).startNanos()) / 1e9;
    return n / seconds;
  }

  double refusedShare(int phase) {
    long asked = admitted[phase] + refused[phase];
    return asked == 0 ? 0 : (double) refused[phase] / asked;
  }

  /**
   * Seconds after the start of phase {@code phase} until every later 250 ms bin of it has its p99
   * within {@code boundNanos}; infinite if its last bin does not.
   */
  double settleSeconds(int phase, double boundNanos) {
    OverloadHarness.Phase p = OverloadHarness.PHASES.get(phase);
    int first = (int) (p.startNanos() / OverloadHarness.BIN_NANOS);
    int last = (int) (p.endNanos() / OverloadHarness.BIN_NANOS) - 1;
    for (int bin = last; bin >= first; bin--) {
      double p99 = binQuantileNanos(bin, 0.99);
      if (!(p99 <= boundNanos)) {
        return bin == last ? Double.POSITIVE_INFINITY
            : (bin + 1 - first) * OverloadHarness.BIN_NANOS / 1e9;
      }
    }
    return 0;
  }

  int limitAtSecond(double seconds) {
    return limitByBin[(int) (seconds * 1e9 / OverloadHarness.BIN_NANOS) - 1];
  }
}
