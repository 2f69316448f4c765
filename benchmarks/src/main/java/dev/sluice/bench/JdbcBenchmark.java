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
import org.openjdk.jmh.infra.Blackhole;

/**
 * JDBC overhead against H2 in memory: one whole unit of work per operation — borrow a connection
 * from HikariCP, prepare, execute, read one row, close everything — through each {@link Targets
 * target}, for {@code select 1} and for a keyed select on a 64-row table. Throughput in operations
 * per millisecond, all threads together; run at 1 and 2 threads, with allocation per operation:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar JdbcBenchmark -t 2 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class JdbcBenchmark {

  @Param({"raw", "sluice-closed", "sluice-open", "datasource-proxy", "p6spy"})
  public String target;

  @Param({"select1", "keyed"})
  public String query;

  private HikariDataSource pool;
  private DataSource dataSource;
  private boolean keyed;
  private String sql;

  /** Each thread walks the keys in turn. */
  @State(Scope.Thread)
  public static class Key {
    int next;

    int take() {
      return (next++ & 63) + 1;
    }
  }

  @Setup
  public void setUp() throws SQLException {
    pool = Targets.h2Pool(4);
    dataSource = Targets.over(target, pool);
    keyed = "keyed".equals(query);
    sql = keyed ? "select name from item where id = ?" : "select 1";
  }

  @TearDown
  public void tearDown() {
    pool.close();
  }

  @Benchmark
  public void borrowExecuteClose(Key key, Blackhole blackhole) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      if (keyed) {
        statement.setInt(1, key.take());
      }
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        blackhole.consume(keyed ? rows.getString(1) : rows.getInt(1));
      }
    }
  }
}
