package dev.sluice.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
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
 * The same unit of work as {@link JdbcBenchmark} — borrow, prepare, execute, read one row, close —
 * over HikariCP on a stub driver that does nothing ({@code dev.sluice.bench.stub.StubDriver}), so
 * that what is left is the pool and the wrappers. Time per operation; Sluice's added cost is its
 * time minus {@code raw}'s. Target: flag closed adds at most 40 ns.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar StubJdbcBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StubJdbcBenchmark {

  @Param({"raw", "sluice-closed", "sluice-open", "datasource-proxy", "p6spy"})
  public String target;

  private HikariDataSource pool;
  private DataSource dataSource;

  @Setup
  public void setUp() {
    pool = Targets.stubPool(4);
    dataSource = Targets.over(target, pool);
  }

  @TearDown
  public void tearDown() {
    pool.close();
  }

  @Benchmark
  public int borrowExecuteClose() throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement("select 1");
        ResultSet rows = statement.executeQuery()) {
      rows.next();
      return rows.getInt(1);
    }
  }
}
