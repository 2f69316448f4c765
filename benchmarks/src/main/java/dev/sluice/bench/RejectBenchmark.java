package dev.sluice.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The reject path: the flag is open and the bucket is empty (one permit every 1,000 s, already
 * spent), so every {@code executeQuery()} on a held prepared statement fails at once with a
 * {@link RateLimitExceededException}. Time per rejected call, exception included, and its
 * allocation. Target: at most 300 ns at one thread.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar RejectBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RejectBenchmark {

  private HikariDataSource pool;
  private Connection connection;
  private PreparedStatement statement;

  @Setup
  public void setUp() throws SQLException {
    pool = Targets.stubPool(2);
    RateLimitedDataSource dataSource = RateLimitedDataSource.builder(pool).name("bench")
        .budget(0.001).burst(1).breakerFlag(BreakerFlag.alwaysOpen()).build();
    connection = dataSource.getConnection();
    statement = connection.prepareStatement("select 1");
    statement.executeQuery().close(); // spends the one permit
    if (rejected() == null) {
      throw new IllegalStateException("executeQuery() was not rejected on an empty bucket: the"
          + " JDBC wrappers are not in this build, so there is no reject path to measure");
    }
  }

  @TearDown
  public void tearDown() throws SQLException {
    connection.close();
    pool.close();
  }

  @Benchmark
  public RateLimitExceededException rejectedExecuteQuery() throws SQLException {
    return rejected();
  }

  private RateLimitExceededException rejected() throws SQLException {
    try {
      statement.executeQuery().close();
      return null;
    } catch (RateLimitExceededException e) {
      return e;
    }
  }
}
