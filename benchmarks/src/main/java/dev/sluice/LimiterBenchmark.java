package dev.sluice;

import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.util.Properties;
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
 * The limiter's own decision, without the JDBC wrappers around it: what one gated call costs in
 * the core when the flag is closed, when it is open and the call is admitted, when it is open
 * and the call is rejected (exception built and thrown included), and when the flag has closed and
 * the limiter is recovering (demand counted, the call admitted). It lives in package
 * {@code dev.sluice} to reach the package-private {@code Limiter}, as the core's tests do.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar LimiterBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LimiterBenchmark {

  @Param({"closed", "admit", "reject", "recovering"})
  public String path;

  private Limiter limiter;

  @Setup
  public void setUp() {
    RateLimitedDataSource.Builder builder = RateLimitedDataSource.builder(new NoDataSource())
        .name("bench");
    switch (path) {
      case "closed":
        builder.budget(1e9).breakerFlag(BreakerFlag.manual());
        break;
      case "admit":
        builder.budget(1e9).breakerFlag(BreakerFlag.alwaysOpen());
        break;
      case "reject":
        builder.budget(0.001).burst(1).breakerFlag(BreakerFlag.alwaysOpen());
        break;
      case "recovering":
        builder.budget(1e9).breakerFlag(BreakerFlag.manual()).properties(longRecovery());
        break;
      default:
        throw new IllegalArgumentException(
            "path must be closed, admit, reject or recovering, but was " + path);
    }
    limiter = builder.build().limiter();
    if (path.equals("reject")) {
      limiter.bucket().tryAcquire(); // spends the one permit
    }
    if (path.equals("recovering")) {
      BreakerFlag.Manual flag = (BreakerFlag.Manual) limiter.hold().flag();
      flag.trip();
      limiter.isLimiting();
      flag.reset();
      if (!limiter.isLimiting()) {
        throw new IllegalStateException("not recovering");
      }
    }
  }

  /** A settle longer than any run: the limiter stays in recovery throughout. */
  private static Properties longRecovery() {
    Properties p = new Properties();
    p.setProperty("sluice.recovery.settle", "1h");
    return p;
  }

  @Benchmark
  public Object admit() {
    try {
      door();
      return null;
    } catch (RateLimitExceededException e) {
      return e;
    }
  }

  /** A data source that is never asked for a connection here. */
  private static final class NoDataSource extends dev.sluice.bench.NoConnections {}

  /** A statement under auto-commit at the limiter's door: a permit while limiting, or a refusal. */
  private void door() throws RateLimitExceededException {
    try {
      limiter.beforeStatement(ConnectionState.AUTO_COMMIT, null);
    } catch (RateLimitExceededException e) {
      throw e;
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("an auto-commit door never asks the driver", e);
    }
  }
}
