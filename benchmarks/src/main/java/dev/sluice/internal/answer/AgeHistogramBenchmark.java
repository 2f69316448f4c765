package dev.sluice.internal.answer;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What counting an answer's age costs on the answered path
 * ({@code AnswerCounts.AgeHistogram.record}: one {@code AtomicLongArray} slot incremented), against
 * the {@code LongAdder} increment that counts the answer itself (the baseline of the same run), and
 * what a quantile costs when the stats, a meter or the summary read it (a scan of 2,801 slots,
 * never on a request path). Shared by the threads, as one budget's answers are.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar AgeHistogramBenchmark -t 2 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AgeHistogramBenchmark {
  private final AnswerCounts.AgeHistogram ages = new AnswerCounts.AgeHistogram();
  private final java.util.concurrent.atomic.LongAdder answered =
      new java.util.concurrent.atomic.LongAdder();
  private long age;

  /** The baseline: counting the answer ({@code Answers.answered}). */
  @Benchmark
  public void countAnswer() {
    answered.increment();
  }

  /** Counting it and its age, as {@code Answers} does. */
  @Benchmark
  public void countAnswerAndAge() {
    answered.increment();
    ages.record((age = age + 7 & 4095));
  }

  /** A quantile, as a stats read or a meter scrape asks. */
  @Benchmark
  public long p99() {
    return ages.quantile(0.99);
  }
}
