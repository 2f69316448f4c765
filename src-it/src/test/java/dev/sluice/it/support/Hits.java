package dev.sluice.it.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The table the load tests insert into, and what PostgreSQL says about it: each row is stamped
 * with {@code clock_timestamp()} by the database when the insert runs, so the rates read here are
 * what the database took.
 */
public final class Hits {
  private Hits() {}

  /** Creates the table if needed. */
  public static void create(Postgres pg) {
    pg.execute("create table if not exists it_hits(run int not null, worker int not null,"
        + " at timestamptz not null default clock_timestamp())",
        "create index if not exists it_hits_run on it_hits(run, at)");
  }

  /** Rows per whole second of wall-clock time for {@code run}, first to last second, gaps as 0. */
  public static List<Long> perSecond(Postgres pg, int run) {
    String sql = "select s, count(h.at) from generate_series("
        + " (select floor(extract(epoch from min(at)))::bigint from it_hits where run = ?),"
        + " (select floor(extract(epoch from max(at)))::bigint from it_hits where run = ?)) s"
        + " left join it_hits h on h.run = ? and floor(extract(epoch from h.at))::bigint = s"
        + " group by s order by s";
    List<Long> counts = new ArrayList<>();
    try (Connection c = pg.admin(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, run);
      ps.setInt(2, run);
      ps.setInt(3, run);
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          counts.add(r.getLong(2));
        }
      }
      return counts;
    } catch (SQLException e) {
      throw new IllegalStateException("could not count it_hits: " + e.getMessage(), e);
    }
  }

  /**
   * The mean of the whole seconds: all but the first and the last, which the run covers only in
   * part (threads starting, threads stopping).
   */
  public static double interiorMean(List<Long> perSecond) {
    if (perSecond.size() < 3) {
      throw new AssertionError("a run too short to judge: " + perSecond);
    }
    return perSecond.subList(1, perSecond.size() - 1).stream()
        .mapToLong(Long::longValue).average().orElse(0);
  }

  /** Rows of {@code run} stamped in [{@code fromEpochMillis}, {@code toEpochMillis}). */
  public static long between(Postgres pg, int run, long fromEpochMillis, long toEpochMillis) {
    String sql = "select count(*) from it_hits where run = ? and at >= to_timestamp(? / 1000.0)"
        + " and at < to_timestamp(? / 1000.0)";
    try (Connection c = pg.admin(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, run);
      ps.setLong(2, fromEpochMillis);
      ps.setLong(3, toEpochMillis);
      try (ResultSet r = ps.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not count it_hits: " + e.getMessage(), e);
    }
  }

  /** Total rows of {@code run} and the seconds between its first and last row. */
  public static Span span(Postgres pg, int run) {
    String sql = "select count(*), coalesce(extract(epoch from max(at) - min(at)), 0)"
        + " from it_hits where run = ?";
    try (Connection c = pg.admin(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, run);
      try (ResultSet r = ps.executeQuery()) {
        r.next();
        return new Span(r.getLong(1), r.getDouble(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not count it_hits: " + e.getMessage(), e);
    }
  }

  /**
   * A run's total as the database saw it.
   *
   * @param rows rows inserted
   * @param seconds from the first row to the last
   */
  public record Span(long rows, double seconds) {
    public double rate() {
      return seconds > 0 ? rows / seconds : 0;
    }
  }

  /** A run id unlikely to clash with an earlier run against the same server. */
  public static int newRun() {
    return (int) (System.nanoTime() & 0x3fffffff);
  }
}
