package dev.sluice.it.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.Rig;
import dev.sluice.it.support.Servers;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 10, item 5, on PostgreSQL in both modes: a transaction Sluice believed open outlived its
 * real end. A {@code commit()} that failed on a deferred constraint (no {@code rollback()} after
 * it) left Sluice's state "in transaction", and the next transaction ran its statements with no
 * door; {@code COMMIT}, {@code END}, {@code ROLLBACK} or {@code ABORT} sent as statements were not
 * seen at all. The budget is 0.01 permits/s with a burst of 1: after the door of the first
 * transaction nothing more is admitted, so a statement that passes was taken for part of an
 * admitted transaction, and one refused was taken for a door.
 */
class TransactionOutlivesItsEndTest {
  private static final AtomicInteger TABLES = new AtomicInteger();

  @BeforeAll
  static void schema() {
    Servers.postgres().execute(
        "create table if not exists it_tx_end_parent (id int primary key)",
        "create table if not exists it_tx_end_child (id int, parent_id int references it_tx_end_parent"
            + " deferrable initially deferred)",
        "create table if not exists it_tx_end_rows (id int)");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void commitFailingOnADeferredConstraint_endsTheTransaction_soTheNextOneHasADoor(Mode mode)
      throws Exception {
    try (Rig rig = Rig.of(mode, "failed-commit", 0.01, 1, Scope.STATEMENT, 1)) {
      rig.openFlag();
      try (Connection c = rig.dataSource().getConnection(); Statement s = c.createStatement()) {
        c.setAutoCommit(false); // the door: the only permit
        s.executeUpdate("insert into it_tx_end_child values (1, -1)"); // no such parent: deferred

        SQLException failed = assertThrows(SQLException.class, c::commit);
        assertThat(failed.getSQLState()).isEqualTo("23503");
        // PostgreSQL has rolled the transaction back; the application does not call rollback()

        assertThrows(RateLimitExceededException.class, () -> s.execute("select 1"));
        c.setAutoCommit(true);
      }
    }
  }

  static Stream<Arguments> endingTexts() {
    List<Arguments> cases = new ArrayList<>();
    for (Mode mode : Mode.values()) {
      cases.add(Arguments.of(mode, "COMMIT", true));
      cases.add(Arguments.of(mode, "commit work", true));
      cases.add(Arguments.of(mode, "END", true));
      cases.add(Arguments.of(mode, "ROLLBACK", false));
      cases.add(Arguments.of(mode, "ROLLBACK TRANSACTION", false));
      cases.add(Arguments.of(mode, "ABORT", false));
    }
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("endingTexts")
  void endingSentAsText_endsTheTransaction_soTheNextStatementIsADoor(Mode mode, String sql,
      boolean commits) throws Exception {
    int id = TABLES.incrementAndGet();
    try (Rig rig = Rig.of(mode, "text-end", 0.01, 1, Scope.STATEMENT, 1)) {
      rig.openFlag();
      try (Connection c = rig.dataSource().getConnection(); Statement s = c.createStatement()) {
        c.setAutoCommit(false); // the door: the only permit
        s.executeUpdate("insert into it_tx_end_rows values (" + id + ")");

        s.execute(sql); // never refused, though the bucket is empty

        assertThat(Servers.postgres().queryLong(
            "select count(*) from it_tx_end_rows where id = " + id)).isEqualTo(commits ? 1 : 0);
        assertThrows(RateLimitExceededException.class, () -> s.execute("select 1"));
        c.rollback();
        c.setAutoCommit(true);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void rollbackToSavepointSentAsText_staysInTheTransaction(Mode mode) throws Exception {
    try (Rig rig = Rig.of(mode, "savepoint", 0.01, 1, Scope.STATEMENT, 1)) {
      rig.openFlag();
      try (Connection c = rig.dataSource().getConnection(); Statement s = c.createStatement()) {
        c.setAutoCommit(false);
        s.execute("SAVEPOINT s1");
        s.execute("ROLLBACK TO SAVEPOINT s1");

        s.execute("select 1"); // still inside the admitted transaction: charged, not refused

        c.commit();
        c.setAutoCommit(true);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void commitSentAsTextWhileTheFlagIsClosed_isSeen_soOnceLimitingTheNextStatementIsADoor(
      Mode mode) throws Exception {
    int id = TABLES.incrementAndGet();
    try (Rig rig = Rig.of(mode, "closed-text-end", 0.01, 1, Scope.STATEMENT, 2)) {
      try (Connection c = rig.dataSource().getConnection(); Statement s = c.createStatement()) {
        c.setAutoCommit(false); // flag closed: admitted uncounted
        s.executeUpdate("insert into it_tx_end_rows values (" + id + ")");
        s.execute("COMMIT");

        rig.openFlag();
        try (Connection other = rig.dataSource().getConnection();
            Statement spend = other.createStatement()) {
          spend.execute("select 1"); // the only permit
        }

        assertThrows(RateLimitExceededException.class, () -> s.execute("select 1"));
        c.setAutoCommit(true);
      }
    }
  }
}
