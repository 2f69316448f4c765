package dev.sluice.it.answers;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.StaleResultWarning;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One budget for one attack on answers: a HikariCP pool of its own over the real PostgreSQL,
 * Sluice around it (decorator mode) with a manual flag, a budget that never refills during the
 * test ({@code 0.001}/s), a burst of 200 of which {@code NORMAL} sees 20 ({@code sluice.reserve}
 * 0.9). {@link #trip()} opens the flag and spends {@code NORMAL}'s part: from then on a
 * {@code NORMAL} read is refused by the rate — and answered, when Sluice finds an answer — while
 * {@link #critical} calls are admitted. So each attack has one caller admitted and the others
 * refused, on the real clock and without waiting on it.
 *
 * <p>Not threadsafe: one test thread.
 */
final class AttackBench implements AutoCloseable {
  private static final AtomicInteger NEXT = new AtomicInteger();
  final BreakerFlag.Manual flag = BreakerFlag.manual();
  final HikariDataSource pool;
  final RateLimitedDataSource sluice;
  private final List<Connection> open = new ArrayList<>();
  private Connection spare;

  AttackBench(String jdbcUrl) {
    this(jdbcUrl, "it-attack-" + NEXT.incrementAndGet(), new Properties());
  }

  /**
   * One instance of the budget {@code name}, with {@code extra} settings over
   * {@link #properties()}: two benches of one name and {@code sluice.stale.share} are two
   * instances of one budget sharing over Redis.
   */
  AttackBench(String jdbcUrl, String name, Properties extra) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name + "-" + NEXT.incrementAndGet());
    config.setJdbcUrl(jdbcUrl);
    config.setMaximumPoolSize(8);
    config.setMinimumIdle(0);
    config.setAutoCommit(true);
    pool = new HikariDataSource(config);
    sluice = RateLimitedDataSource.builder(pool).name(name).budget(0.001).burst(200)
        .breakerFlag(flag).properties(with(properties(), extra)).build();
  }

  static Properties properties() {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "60s");
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.reserve", "0.9");
    return p;
  }

  private static Properties with(Properties base, Properties extra) {
    base.putAll(extra);
    return base;
  }

  /** A connection of the budget, held until {@link #close()}. */
  Connection connection() throws SQLException {
    Connection c = sluice.getConnection();
    open.add(c);
    return c;
  }

  /** Opens the flag and spends NORMAL's part of the burst: a NORMAL read is refused from now. */
  void trip() throws SQLException {
    flag.trip();
    if (spare == null) {
      spare = connection();
    }
    drain(spare);
  }

  /**
   * Runs reads at NORMAL on {@code c} until the rate refuses one: each a text of its own
   * ({@code select 1}, {@code select 2}…), so that none is answered from an earlier one.
   */
  static void drain(Connection c) throws SQLException {
    for (int i = 0; i < 1_000; i++) {
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select " + i)) {
        r.next();
      } catch (RateLimitExceededException refused) {
        return;
      }
    }
    throw new AssertionError("the rate never refused a NORMAL read");
  }

  /** Closes the flag and ends limiting: what runs now runs live. */
  void closeFlag() {
    flag.reset();
    sluice.stats(); // limiting ends here (settle 0): the kept results go
  }

  /** Runs {@code work} at {@code CRITICAL}: admitted while NORMAL is refused. */
  static <T> T critical(SqlCall<T> work) throws SQLException {
    try {
      return Priority.CRITICAL.call(work::call);
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static void criticalRun(Connection c, String... sql) throws SQLException {
    critical(() -> {
      try (Statement s = c.createStatement()) {
        for (String each : sql) {
          s.execute(each);
        }
      }
      return null;
    });
  }

  /** What one caller got: refused, an error of the database, or rows (answered or live). */
  record Outcome(boolean refused, boolean answered, String sqlState, String rows) {
    static Outcome of(ReadCall read) {
      try {
        return read.call();
      } catch (RateLimitExceededException e) {
        return new Outcome(true, false, null, null);
      } catch (SQLException e) {
        return new Outcome(false, false, e.getSQLState(), null);
      }
    }

    /** The same as what the caller's own connection reads live, ignoring how it came. */
    boolean sameAs(Outcome live) {
      return java.util.Objects.equals(sqlState, live.sqlState)
          && java.util.Objects.equals(rows, live.rows);
    }

    @Override
    public String toString() {
      return refused ? "refused" : sqlState != null ? "error " + sqlState
          : (answered ? "answered " : "live ") + rows;
    }
  }

  /** Reads {@code sql} with {@code params} on {@code c} as a prepared statement (at NORMAL). */
  static Outcome read(Connection c, String sql, Object... params) {
    return Outcome.of(() -> {
      try (PreparedStatement p = c.prepareStatement(sql)) {
        for (int i = 0; i < params.length; i++) {
          p.setObject(i + 1, params[i]);
        }
        try (ResultSet r = p.executeQuery()) {
          return rows(r);
        }
      }
    });
  }

  /** Reads {@code sql} on {@code c} as text ({@code Statement.executeQuery}, at NORMAL). */
  static Outcome readText(Connection c, String sql) {
    return Outcome.of(() -> {
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
        return rows(r);
      }
    });
  }

  static Outcome rows(ResultSet r) throws SQLException {
    boolean answered = r.getWarnings() instanceof StaleResultWarning;
    StringBuilder b = new StringBuilder("[");
    int columns = r.getMetaData().getColumnCount();
    while (r.next()) {
      b.append(b.length() > 1 ? "; " : "");
      for (int i = 1; i <= columns; i++) {
        b.append(i > 1 ? "," : "").append(r.getString(i));
      }
    }
    return new Outcome(false, answered, null, b.append(']').toString());
  }

  /**
   * The attack's verdict for one refused caller: it was refused (as without answers), or what it
   * got is exactly what its own connection reads live now.
   */
  static void assertNoLie(String who, Outcome got, Outcome live) {
    assertThat(got.refused() || got.sameAs(live))
        .as("%s got %s; its own connection reads %s", who, got, live).isTrue();
  }

  @Override
  public void close() {
    flag.reset();
    for (Connection c : open) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing
      }
    }
    try {
      sluice.close(); // and the pool
    } catch (SQLException e) {
      pool.close();
    }
  }

  interface SqlCall<T> {
    T call() throws SQLException;
  }

  interface ReadCall {
    Outcome call() throws SQLException;
  }
}
