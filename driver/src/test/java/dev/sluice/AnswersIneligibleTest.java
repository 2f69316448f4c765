package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.answer.Ineligible;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Why a read was neither kept nor answered is counted by reason (issue 39, item 6), in
 * {@link Stats#notEligible(String)} and the meter {@code sluice.answers.ineligible}: each
 * admitted read below is not kept for one reason, and is counted under it and nowhere else.
 * With the flag closed nothing is looked at, so nothing is counted. Over a real H2, with a
 * burst of 50 on a fake clock (every read here admitted).
 */
class AnswersIneligibleTest {
  private static int budgets;

  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private Connection keepAlive;
  private RateLimitedDataSource ds;

  @BeforeEach
  void start() throws SQLException {
    String name = "ineligible-" + ++budgets;
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20), price DOUBLE)");
      s.execute("INSERT INTO items VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', 3.5)");
    }
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.stale.max-rows", "2");
    p.setProperty("sluice.recovery.settle", "0");
    ds = RateLimitedDataSource.builder(AnswersSeenTest.plain(url)).name(name).budget(0.01)
        .burst(50).breakerFlag(flag).properties(p).ticker(ticker).build();
  }

  @AfterEach
  void stop() throws Exception {
    ds.close();
    keepAlive.close();
  }

  private Map<String, Long> counts() {
    Stats stats = ds.stats();
    Map<String, Long> counts = new LinkedHashMap<>();
    for (String reason : Ineligible.words()) {
      if (stats.notEligible(reason) != 0) {
        counts.put(reason, stats.notEligible(reason));
      }
    }
    return counts;
  }

  private static void readAll(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  @Test
  void eachReadNotKept_isCountedUnderItsOneReason() throws SQLException {
    try (Connection c = ds.getConnection()) {
      PreparedStatement early = c.prepareStatement("SELECT name FROM items WHERE id = ?");
      early.setInt(1, 1); // set before limiting: never seen
      flag.trip();
      try (Statement s = c.createStatement()) {
        readAll(s, "SELECT 1"); // the session is read; kept
        assertThat(counts()).as("a plain read is kept").isEmpty();

        readAll(s, "SELECT id FROM items WHERE id = 1 FOR UPDATE");
        assertThat(counts()).isEqualTo(Map.of("locking", 1L));
        readAll(s, "SELECT id FROM items ORDER BY id"); // 3 rows, max-rows 2
        assertThat(counts()).containsEntry("rows", 1L).hasSize(2);
        readAll(s, "SELECT price FROM items WHERE id = 1"); // DOUBLE: H2's not answered
        assertThat(counts()).containsEntry("type", 1L).hasSize(3);
        try (ResultSet rs = s.executeQuery("SELECT id FROM items WHERE id < 3 ORDER BY id")) {
          rs.next(); // and closed before its end
        }
        assertThat(counts()).containsEntry("unfinished", 1L).hasSize(4);
      }
      try (Statement scrolling = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE,
          ResultSet.CONCUR_READ_ONLY)) {
        readAll(scrolling, "SELECT 2");
      }
      assertThat(counts()).containsEntry("statement", 1L).hasSize(5);
      try (ResultSet rs = early.executeQuery()) {
        rs.next();
        rs.next();
      }
      early.close();
      assertThat(counts()).containsEntry("parameters", 1L).hasSize(6);
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        readAll(s, "SELECT 3");
      }
      c.commit();
      c.setAutoCommit(true);
      assertThat(counts()).containsEntry("transaction", 1L).hasSize(7);
    }
    assertThat(ds.stats().notEligible("no such reason")).isZero();
  }

  @Test
  void withTheFlagClosed_nothingIsLookedAt_norCounted() throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      readAll(s, "SELECT id FROM items WHERE id = 1 FOR UPDATE");
      readAll(s, "SELECT id FROM items ORDER BY id");
      readAll(s, "SELECT price FROM items");
    }
    assertThat(counts()).isEmpty();
  }
}
