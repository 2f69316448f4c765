package dev.sluice.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One gated {@code execute*} call and nothing else, flag closed: a connection and its statements
 * are borrowed once (HikariCP over the stub driver), then each operation is one call — a
 * statement sent as text ({@code execute(String)}, generated from {@code GenerateWrappers.GATED}),
 * a prepared one ({@code executeUpdate()}, generated too) and {@code executeQuery()} (written by
 * hand in {@code ConnectionWrapper}). Compare {@code sluice-closed} with {@code raw} of the same
 * run; CPU time per call with {@code -prof dev.sluice.bench.CpuProfiler}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar GatedExecuteBenchmark -prof dev.sluice.bench.CpuProfiler
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GatedExecuteBenchmark {

  @Param({"raw", "sluice-closed"})
  public String target;

  private HikariDataSource pool;
  private Connection connection;
  private Statement statement;
  private PreparedStatement prepared;

  @Setup
  public void setUp() throws SQLException {
    pool = Targets.stubPool(1);
    connection = Targets.over(target, pool).getConnection();
    statement = connection.createStatement();
    prepared = connection.prepareStatement("update accounts set balance = 0 where id = ?");
  }

  @TearDown
  public void tearDown() throws SQLException {
    connection.close();
    pool.close();
  }

  @Benchmark
  public boolean text() throws SQLException {
    return statement.execute("update accounts set balance = balance - 1 where id = 1");
  }

  @Benchmark
  public int preparedUpdate() throws SQLException {
    return prepared.executeUpdate();
  }

  @Benchmark
  public Object preparedQuery() throws SQLException {
    return prepared.executeQuery();
  }
}
