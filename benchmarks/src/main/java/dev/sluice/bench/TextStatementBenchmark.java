package dev.sluice.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * Statements sent as text ({@code Statement.execute(String)} and its family), whose text Sluice
 * may look at for a transaction's end ({@code COMMIT}, {@code ROLLBACK}...), over HikariCP on the
 * stub driver so that only the pool and the wrappers remain. Two cycles: borrow, one text query,
 * close; and borrow, a manual-commit transaction of three text statements, {@code commit()},
 * back to auto-commit, close. Compare Sluice's rows with {@code raw}'s of the same run.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar TextStatementBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TextStatementBenchmark {

  @Param({"raw", "sluice-closed", "sluice-open"})
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
  public int borrowTextQueryClose() throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("select 1")) {
      rows.next();
      return rows.getInt(1);
    }
  }

  @Benchmark
  public boolean borrowTextTransactionClose() throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      boolean result = statement.execute("update accounts set balance = balance - 1 where id = 1");
      result &= statement.execute("update accounts set balance = balance + 1 where id = 2");
      result &= statement.execute("select balance from accounts where id = 1");
      connection.commit();
      connection.setAutoCommit(true);
      return result;
    }
  }
}
