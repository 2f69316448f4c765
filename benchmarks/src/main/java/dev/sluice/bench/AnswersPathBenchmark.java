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
 * What answers instead of refusals ({@code sluice.stale.max-age}) cost the calls that are not
 * refused: borrow, prepare, set one parameter, execute, read one row, close, over HikariCP on
 * the stub driver (no database work), as {@link StubJdbcBenchmark} but through the setter and
 * the prepared {@code executeQuery} the answers wire into. Ratios within one run:
 *
 * <ul>
 *   <li>{@code closed} vs {@code closed-answers}: the flag-closed path with answers off and on
 *       (on, nothing refused yet: nothing recorded, no parameter kept);
 *   <li>{@code open} vs {@code open-answers}: the admit path (flag open, a budget never reached)
 *       with answers off and on;
 *   <li>each minus {@code raw}: Sluice's whole cost.
 * </ul>
 *
 * <p>Recording a result while limiting and answering one are priced without a database by
 * {@code dev.sluice.internal.answer.AnswerBenchmark}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar AnswersPathBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnswersPathBenchmark {

  @Param({"raw", "closed", "closed-answers", "open", "open-answers"})
  public String target;

  private HikariDataSource pool;
  private DataSource dataSource;

  @Setup
  public void setUp() {
    pool = Targets.stubPool(4);
    Properties answers = new Properties();
    answers.setProperty("sluice.stale.max-age", "5s");
    answers.setProperty("sluice.jmx", "false");
    Properties off = new Properties();
    off.setProperty("sluice.jmx", "false");
    switch (target) {
      case "raw":
        dataSource = pool;
        break;
      case "closed":
      case "closed-answers":
        dataSource = RateLimitedDataSource.builder(pool).name("bench")
            .budget(Targets.UNREACHABLE_BUDGET).breakerFlag(BreakerFlag.manual())
            .properties(target.endsWith("answers") ? answers : off).build();
        break;
      case "open":
      case "open-answers":
        dataSource = RateLimitedDataSource.builder(pool).name("bench")
            .budget(Targets.UNREACHABLE_BUDGET).breakerFlag(BreakerFlag.alwaysOpen())
            .properties(target.endsWith("answers") ? answers : off).build();
        break;
      default:
        throw new IllegalArgumentException("target must be raw, closed, closed-answers, open or"
            + " open-answers, but was " + target);
    }
  }

  @TearDown
  public void tearDown() {
    pool.close();
  }

  @Benchmark
  public int borrowSetExecuteClose() throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement("select name from item where id = ?")) {
      statement.setInt(1, 7);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }
}
