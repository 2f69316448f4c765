package dev.sluice;

import dev.sluice.internal.limit.AdaptiveConcurrency;
import dev.sluice.internal.limit.ConcurrencyGate;
import dev.sluice.internal.limit.ConnectionState;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Ticker;
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
 * What the concurrency cap adds to today's admit path (the baseline of the same run): the limiter's
 * decision with the flag open and an unreachable budget ({@code admit}), then the same plus the
 * gate's {@code tryAcquire()} and {@code release()} ({@code admit+gate}), then plus the adaptive
 * controller's sample &mdash; two clock reads for the latency and {@code onSample} &mdash;
 * ({@code admit+gate+adaptive}); and the gate alone ({@code gate}). The gate's cap (1,000) is never
 * reached, so every call is admitted. {@code sample} is {@code onSample} alone, with a constant
 * latency: the controller's own share of {@code admit+gate+adaptive}, the rest being the clock.
 * The state is shared: at 2 threads both contend on one gate and one controller. The parts are put
 * together by hand and every call is sampled; {@code ConcurrencyAdmitBenchmark} measures the cap as
 * the limiter wires it (one admitted statement sampled in the controller's stride).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ConcurrencyGateBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConcurrencyGateBenchmark {

  private static final int SHAPE =
      AdaptiveConcurrency.shapeOf("SELECT name FROM users WHERE id = ?");

  @Param({"admit", "admit+gate", "admit+gate+adaptive", "gate", "sample"})
  public String path;

  private int mode;
  private Limiter limiter;
  private ConcurrencyGate gate;
  private AdaptiveConcurrency controller;
  private final Ticker ticker = Ticker.system();

  @Setup
  public void setUp() {
    mode = java.util.List.of("admit", "admit+gate", "admit+gate+adaptive", "gate", "sample")
        .indexOf(path);
    limiter = RateLimitedDataSource.builder(new NoDataSource()).name("bench").budget(1e9)
        .breakerFlag(BreakerFlag.alwaysOpen()).build().limiter();
    gate = new ConcurrencyGate(1_000);
    controller = new AdaptiveConcurrency(gate, 1_000, 1_000, ticker);
  }

  @Benchmark
  public boolean call() throws RateLimitExceededException {
    switch (mode) { // an int: a switch on the String would cost every path a comparison
      case 0:
        door();
        return true;
      case 1:
        door();
        return gatedStatement();
      case 2:
        door();
        return sampledStatement();
      case 3:
        return gatedStatement();
      default:
        controller.onSample(SHAPE, 1_000_000, false);
        return true;
    }
  }

  private boolean gatedStatement() {
    if (!gate.tryAcquire()) {
      return false;
    }
    gate.release();
    return true;
  }

  private boolean sampledStatement() {
    if (!gate.tryAcquire()) {
      return false;
    }
    long start = ticker.read();
    gate.release();
    controller.onSample(SHAPE, ticker.read() - start, false);
    return true;
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
