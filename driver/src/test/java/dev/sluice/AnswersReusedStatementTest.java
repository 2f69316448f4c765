package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A prepared statement reused across calls is kept and answered as a fresh statement per call
 * is: prepared once before limiting began (a loop over keys, jOOQ's {@code keepStatement},
 * MyBatis' reuse executor, a long-lived statement), its parameters are recorded from its first
 * execution while limiting, and its reads are kept and answered once every parameter has been
 * set again. A parameter set before limiting and never again keeps it unanswered: its value is
 * not known. Over a real H2, budget 0.01/s and burst 1 on a fake clock (the next permit 100 s
 * later).
 */
class AnswersReusedStatementTest {
  private static final String BY_ID = "SELECT id, name FROM items WHERE id = ?";
  private static final Duration REFILL = Duration.ofSeconds(100);
  private static int budgets;

  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private Connection keepAlive;
  private RateLimitedDataSource ds;

  @BeforeEach
  void start() throws SQLException {
    String name = "reused-" + ++budgets;
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20), team INT)");
      s.execute("INSERT INTO items VALUES (1, 'one', 7), (2, 'two', 7), (3, 'three', 8)");
    }
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.recovery.settle", "0");
    ds = RateLimitedDataSource.builder(AnswersSeenTest.plain(url)).name(name).budget(0.01)
        .burst(1).breakerFlag(flag).properties(p).ticker(ticker).build();
  }

  @AfterEach
  void stop() throws Exception {
    ds.close();
    keepAlive.close();
  }

  /** One execution: the rows, an answer's age, or "refused". */
  private static String read(PreparedStatement ps, int id) throws SQLException {
    ps.setInt(1, id);
    try (ResultSet rs = ps.executeQuery()) {
      StringBuilder rows = new StringBuilder();
      while (rs.next()) {
        rows.append(rs.getInt(1)).append(':').append(rs.getString(2));
      }
      return rows + (rs.getWarnings() instanceof StaleResultWarning w
          ? " (" + w.ageMillis() + " ms old)" : "");
    } catch (RateLimitExceededException refused) {
      return "refused";
    }
  }

  /** The outage's calls, each through {@code statement.next()}; what each call saw. */
  private List<String> outage(StatementSource statement) throws SQLException {
    List<String> seen = new ArrayList<>();
    flag.trip();
    seen.add(read(statement.next(), 3)); // the burst's permit: admitted
    seen.add(read(statement.next(), 3)); // refused; not kept before (fresh) or unseen (reused)
    ticker.advance(REFILL);
    seen.add(read(statement.next(), 1)); // admitted, kept
    ticker.advance(Duration.ofMillis(700));
    seen.add(read(statement.next(), 1)); // refused: answered
    seen.add(read(statement.next(), 2)); // refused: nothing kept
    ticker.advance(REFILL);
    seen.add(read(statement.next(), 2)); // admitted, kept
    ticker.advance(Duration.ofMillis(300));
    seen.add(read(statement.next(), 2)); // answered
    seen.add(read(statement.next(), 1)); // answered, older
    return seen;
  }

  private interface StatementSource {
    PreparedStatement next() throws SQLException;
  }

  /** What every call of {@link #outage} sees, however its statements were prepared. */
  private static final List<String> SEEN = List.of("3:three", "refused", "1:one",
      "1:one (700 ms old)", "refused", "2:two", "2:two (300 ms old)", "refused");

  @Test
  void oneStatementPreparedBeforeLimiting_andReused_isAnsweredAsAFreshStatementPerCall()
      throws SQLException {
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(BY_ID)) {
      assertThat(read(ps, 3)).isEqualTo("3:three"); // before the flag opens
      assertThat(outage(() -> ps)).isEqualTo(SEEN);
    }
    assertThat(ds.stats().answered()).isEqualTo(2);
  }

  @Test
  void aFreshStatementPerCall_theComparison() throws SQLException {
    List<PreparedStatement> opened = new ArrayList<>();
    try (Connection c = ds.getConnection()) {
      assertThat(outage(() -> {
        PreparedStatement ps = c.prepareStatement(BY_ID);
        opened.add(ps);
        return ps;
      })).isEqualTo(SEEN);
      for (PreparedStatement ps : opened) {
        ps.close();
      }
    }
    assertThat(ds.stats().answered()).isEqualTo(2);
  }

  /**
   * A parameter set before limiting and not since: its value is unknown, so the statement's
   * reads are neither kept nor answered — another statement of the same text with another
   * value there must never be answered with this one's rows.
   */
  @Test
  void aParameterSetBeforeLimiting_andNeverAgain_keepsTheStatementUnanswered()
      throws SQLException {
    String byTeam = "SELECT id, name FROM items WHERE id = ? AND team = ?";
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(byTeam)) {
      ps.setInt(2, 8); // set once, before limiting
      flag.trip();
      assertThat(read(ps, 3)).isEqualTo("3:three");
      ticker.advance(REFILL);
      assertThat(read(ps, 3)).as("admitted, not kept: team unseen").isEqualTo("3:three");
      assertThat(read(ps, 3)).isEqualTo("refused");
      assertThat(ds.stats().answersKept()).isZero();

      ps.clearParameters(); // from here every value is seen
      ps.setInt(2, 8);
      ticker.advance(REFILL);
      assertThat(read(ps, 3)).isEqualTo("3:three");
      assertThat(read(ps, 3)).isEqualTo("3:three (0 ms old)");
      try (PreparedStatement other = c.prepareStatement(byTeam)) {
        other.setInt(2, 7); // the same text, another team: never answered with team 8's rows
        assertThat(read(other, 3)).isEqualTo("refused");
      }
    }
  }
}
