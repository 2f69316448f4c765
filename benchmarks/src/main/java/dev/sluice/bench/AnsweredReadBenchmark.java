package dev.sluice.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
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
 * The read an outage answers: the flag is open, the bucket empty (one permit every 1,000 s, the
 * burst of two spent by a first read and by this one's first, which is kept), and every {@code executeQuery()} of a held prepared
 * statement over H2 is refused and answered from that kept result, its one row read and closed.
 * Time per answered read and its allocation: what the one door (issue 37) is to make cheaper,
 * since no refusal is built for a read that is answered.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar AnsweredReadBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnsweredReadBenchmark {

  private HikariDataSource pool;
  private RateLimitedDataSource dataSource;
  private Connection connection;
  private PreparedStatement statement;

  @Setup
  public void setUp() throws SQLException {
    pool = Targets.h2Pool(2);
    Properties answers = new Properties();
    answers.setProperty("sluice.stale.max-age", "1h");
    BreakerFlag.Manual flag = BreakerFlag.manual();
    dataSource = RateLimitedDataSource.builder(pool).name("bench-answered").budget(0.001)
        .burst(2).breakerFlag(flag).properties(answers).build();
    connection = dataSource.getConnection();
    flag.trip();
    try (PreparedStatement first = connection.prepareStatement("select 1")) {
      first.executeQuery().close(); // the first permit: limiting (and recording) begins
    }
    // prepared while recording: its parameters are recorded from its first read
    statement = connection.prepareStatement("select id, name from item where id = ?");
    read(); // the second permit: admitted, and kept
    long before = dataSource.stats().answered();
    String row = read();
    if (dataSource.stats().answered() != before + 1 || !"item-7".equals(row)) {
      throw new IllegalStateException("the second read was not answered: no answered read to"
          + " measure (" + dataSource.stats() + ")");
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    connection.close();
    dataSource.close();
    pool.close();
  }

  @Benchmark
  public String answeredExecuteQuery() throws SQLException {
    return read();
  }

  private String read() throws SQLException {
    statement.setInt(1, 7);
    try (ResultSet rs = statement.executeQuery()) {
      rs.next();
      String name = rs.getString(2);
      rs.next(); // read to the end: a result read only in part is not kept
      return name;
    }
  }
}
