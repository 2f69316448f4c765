package dev.sluice;

import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import java.sql.SQLException;
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
 * What {@code sluice.concurrency} adds to the limiter's decision for one statement, as the JDBC
 * wrappers drive it (the decision, then the report when the statement ends), without
 * {@code sluice.concurrency} ({@code none}), with a fixed cap and with {@code auto}:
 * {@code closed} is the flag-closed path on a connection whose auto-commit is unread (with
 * {@code auto}: one statement in {@code ConnectionState.SAMPLE_EVERY} timed and sampled),
 * {@code open} the
 * admit path with the flag open and a budget that never refuses (a permit, and with a cap a place
 * in flight taken and given back; with {@code auto}, one statement in the controller's sample
 * stride timed and sampled, which at this rate is one in {@code ConnectionState.SAMPLE_EVERY}).
 * The differences to {@code none}, in one run, are the cost.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ConcurrencyAdmitBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConcurrencyAdmitBenchmark {
  private static final String SQL = "select id, name from users where id = ?";
  private static final int REPORTED = ConnectionState.HELD | ConnectionState.SAMPLED;

  @Param({"none", "8", "auto"})
  public String concurrency;

  private Limiter closedLimiter;
  private Limiter openLimiter;
  private int closedState = ConnectionState.UNREAD | ConnectionState.RAN;

  @Setup
  public void setUp() {
    closedLimiter = limiter(BreakerFlag.manual());
    openLimiter = limiter(BreakerFlag.alwaysOpen());
  }

  private Limiter limiter(BreakerFlag flag) {
    Properties settings = new Properties();
    if (!concurrency.equals("none")) {
      settings.setProperty("sluice.concurrency", concurrency);
    }
    return RateLimitedDataSource.builder(new dev.sluice.bench.NoConnections())
        .name("bench-" + concurrency).budget(1e9).breakerFlag(flag).properties(settings).build()
        .limiter();
  }

  @Benchmark
  public int closed() throws SQLException {
    int next = closedLimiter.beforeStatement(closedState, null);
    closedState = next & ~REPORTED;
    return report(closedLimiter, next);
  }

  @Benchmark
  public int open() throws SQLException {
    return report(openLimiter, openLimiter.beforeStatement(ConnectionState.AUTO_COMMIT, null));
  }

  /**
   * A checkout's state, the flag closed: with {@code auto}, a random phase for the sample count
   * (the thread's own {@code ThreadLocalRandom}); otherwise the constant.
   */
  @Benchmark
  public int checkout() {
    return closedLimiter.places().checkedOut(0);
  }

  /**
   * As the connection wrapper does: a clock read at admission for a sampled statement only, the
   * report at the end.
   */
  private static int report(Limiter limiter, int next) {
    int held = next & REPORTED;
    if (held != 0) {
      long start = (held & ConnectionState.SAMPLED) != 0 ? limiter.places().startNanos() : 0;
      limiter.places().afterStatement(held, start, SQL, null);
    }
    return next;
  }
}
