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
import org.openjdk.jmh.annotations.Threads;

/**
 * The tail of one {@code tryAcquire()} under contention: 8 threads on one bucket, each call timed
 * (JMH's sample mode), for the p99.9. Target: {@code TokenBucket} at most 10 µs.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar BucketTailBenchmark -t 8
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(8)
public class BucketTailBenchmark {

  @Param({"sluice", "gcra", "bucket4j", "resilience4j", "guava"})
  public String impl;

  @Param({"admit", "reject"})
  public String regime;

  private Permits permits;

  @Setup
  public void setUp() {
    permits = Permits.of(impl, BucketBenchmark.rateOf(regime));
  }

  @Benchmark
  public boolean tryAcquire() {
    return permits.tryAcquire();
  }
}
