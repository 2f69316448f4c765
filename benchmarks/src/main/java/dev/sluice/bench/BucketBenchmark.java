package dev.sluice.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The bucket alone: one non-blocking {@code tryAcquire()} on {@code TokenBucket} against the peers
 * and against a bare one-{@code AtomicLong} GCRA (the floor), in two regimes — {@code admit}
 * (10<sup>9</sup> permits/s: nearly every call is admitted, so every call CASes) and {@code reject}
 * (1,000 permits/s: nearly every call is refused, so the calls only read).
 *
 * <p>Throughput in operations per microsecond, all threads together; run at 1, 2 and 8 threads
 * with allocation per call:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar BucketBenchmark -t 8 -prof gc
 * </pre>
 *
 * <p>(the suite, {@code benchmarks/run.sh}, runs it at each thread count and prints the ratios).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BucketBenchmark {

  @Param({"sluice", "gcra", "bucket4j", "resilience4j", "guava"})
  public String impl;

  @Param({"admit", "reject"})
  public String regime;

  private Permits permits;

  @Setup
  public void setUp() {
    permits = Permits.of(impl, rateOf(regime));
  }

  @Benchmark
  public boolean tryAcquire() {
    return permits.tryAcquire();
  }

  static double rateOf(String regime) {
    switch (regime) {
      case "admit":
        return 1e9;
      case "reject":
        return 1_000;
      default:
        throw new IllegalArgumentException("regime must be admit or reject, but was " + regime);
    }
  }
}
