package dev.sluice;

import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
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
 * What reading a statement's text for a transaction's end adds to the gate's decision on the
 * flag-closed path, in its worst case: a connection whose auto-commit is unread and which has run
 * a statement (so it may be inside a transaction, and the text is read). {@code decision} is the
 * decision without the text, as for a prepared statement; {@code textDecision} the same with the
 * text. Their difference, in one run, is the added cost. In package {@code dev.sluice} to reach the
 * package-private {@code Limiter}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar TextGateBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TextGateBenchmark {
  private static final int UNREAD_AND_RAN = ConnectionState.UNREAD | ConnectionState.RAN;

  @Param({"select id, name from users where id = ?", "  update accounts set balance = 0",
      "COMMIT"})
  public String sql;

  private Limiter limiter;

  @Setup
  public void setUp() {
    limiter = RateLimitedDataSource.builder(new dev.sluice.bench.NoConnections())
        .name("bench").budget(1e9).breakerFlag(BreakerFlag.manual()).build().limiter();
  }

  @Benchmark
  public int decision() throws java.sql.SQLException {
    return limiter.beforeStatement(UNREAD_AND_RAN, null);
  }

  @Benchmark
  public int textDecision() throws java.sql.SQLException {
    return limiter.beforeStatement(UNREAD_AND_RAN, null, sql);
  }
}
