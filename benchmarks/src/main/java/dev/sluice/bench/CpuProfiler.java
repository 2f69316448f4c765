package dev.sluice.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports {@code cpu.time.norm}: the CPU time the benchmark's JVM spent per operation, all threads
 * (and the GC) together. On a shared machine, throughput measures what share of the cores this JVM
 * was given as much as what a call costs; CPU time per call does not depend on that share, so it
 * is the steadier figure to compare implementations by when other work runs beside the benchmark.
 * (Contention still shows: a failed CAS and its retry cost CPU time; a thread parked on a lock
 * does not, which is why the throughput is reported too.)
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar BucketBenchmark -prof dev.sluice.bench.CpuProfiler
 * </pre>
 */
public final class CpuProfiler implements InternalProfiler {
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "process CPU time per operation";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    cpuAtStart = os.getProcessCpuTime();
  }

  @Override
  public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmark,
      IterationParams iteration, IterationResult result) {
    long cpuNanos = os.getProcessCpuTime() - cpuAtStart;
    long ops = result.getMetadata().getAllOps();
    double perOp = ops == 0 ? Double.NaN : (double) cpuNanos / ops;
    return List.of(new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG));
  }
}
