package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.WrapperFixture;
import dev.sluice.internal.limit.Decisions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A unit of work is never cut in half: on a real database (H2 in memory), the switch to manual
 * commit is the transaction's door; its statements are then charged but never refused until
 * {@code commit} or {@code rollback}. The limiter has one permit a second, burst 1, on a fake
 * clock, so "drained" stays drained.
 */
class TransactionRuleTest {
  private final WrapperFixture limiter = new WrapperFixture();
  private Connection raw;
  private Connection connection;

  @BeforeEach
  void openDatabase() throws SQLException {
    raw = DriverManager.getConnection("jdbc:h2:mem:");
    try (Statement ddl = raw.createStatement()) {
      ddl.execute("create table t(id int)");
    }
  }

  @AfterEach
  void closeDatabase() throws SQLException {
    raw.close();
  }

  private Statement wrapped() throws SQLException {
    connection = Connections.wrap(raw, limiter.gate());
    return connection.createStatement();
  }

  @Test
  void setAutoCommitFalse_bucketEmpty_isRefusedAndTheConnectionKeepsAutoCommitting()
      throws SQLException {
    wrapped();
    limiter.trip().drain();
    int before = ((ConnectionWrapper) connection).state();

    assertThrows(RateLimitExceededException.class, () -> connection.setAutoCommit(false));

    assertThat(raw.getAutoCommit()).isTrue();
    assertThat(((ConnectionWrapper) connection).state()).isEqualTo(before);
    assertThat(limiter.stats().rejected()).isEqualTo(1);
  }

  /** A refusal is told to the tracing library once, however deep the door that made it. */
  @Test
  void theNextTransactionsDoor_refused_isToldOnce() throws SQLException {
    Statement statement = wrapped();
    List<Priority> refused = new CopyOnWriteArrayList<>();
    limiter.gate().decisions(new Decisions() {
      @Override
      public void admitted(Priority priority) {}

      @Override
      public void shadowRefused(Priority priority) {}

      @Override
      public void refused(Priority priority, RateLimitExceededException refusal) {
        refused.add(priority);
      }

      @Override
      public void answered(Priority priority, long ageMillis, boolean joined) {}
    });
    limiter.trip();
    connection.setAutoCommit(false); // takes the only permit
    connection.commit(); // the next statement is the next transaction's door

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (1)"));

    assertThat(refused).containsExactly(Priority.NORMAL);
    assertThat(limiter.stats().rejected()).isEqualTo(1);
  }

  @Test
  void admittedTransaction_bucketEmpty_statementsAreChargedNeverRefused() throws SQLException {
    Statement statement = wrapped();
    limiter.trip();
    connection.setAutoCommit(false); // takes the only permit

    for (int i = 0; i < 5; i++) {
      statement.executeUpdate("insert into t values (" + i + ")");
    }
    try (PreparedStatement insert = connection.prepareStatement("insert into t values (?)")) {
      insert.setInt(1, 9);
      insert.addBatch();
      insert.executeBatch();
    }
    connection.commit();

    assertThat(count()).isEqualTo(6);
    assertThat(limiter.stats().admitted()).isEqualTo(1);
    assertThat(limiter.stats().forced()).isEqualTo(5); // the first statement was prepaid
    assertThat(limiter.stats().rejected()).isZero();
  }

  @Test
  void commit_endsTheTransaction_soTheNextStatementIsTheNextDoor() throws SQLException {
    Statement statement = wrapped();
    limiter.trip();
    connection.setAutoCommit(false);
    statement.executeUpdate("insert into t values (1)");

    connection.commit();

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (2)"));
    limiter.advanceSeconds(1);
    statement.executeUpdate("insert into t values (3)");
    statement.executeUpdate("insert into t values (4)"); // inside the new transaction: charged
    connection.commit();
    assertThat(count()).isEqualTo(3);
    assertThat(limiter.stats().rejected()).isEqualTo(1);
    assertThat(limiter.stats().forced()).isEqualTo(1);
  }

  @Test
  void rollback_endsTheTransaction_butRollbackToASavepointDoesNot() throws SQLException {
    Statement statement = wrapped();
    limiter.trip();
    connection.setAutoCommit(false);
    statement.executeUpdate("insert into t values (1)");
    Savepoint savepoint = connection.setSavepoint();
    statement.executeUpdate("insert into t values (2)");

    connection.rollback(savepoint);
    statement.executeUpdate("insert into t values (3)"); // still inside: charged, not refused
    connection.rollback();

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (4)"));
    assertThat(count()).isZero();
  }

  @Test
  void endingCalls_bucketEmpty_areNeverRefused() throws SQLException {
    wrapped();
    limiter.trip();
    connection.setAutoCommit(false);
    limiter.drain();

    connection.commit();
    connection.rollback();
    connection.setAutoCommit(true);
    connection.setAutoCommit(true);

    assertThat(raw.getAutoCommit()).isTrue();
    assertThat(limiter.stats().rejected()).isZero();
  }

  @Test
  void poolDefaultManualCommit_firstStatementIsTheDoor() throws SQLException {
    raw.setAutoCommit(false); // as a pool with autoCommit=false hands it out
    Statement statement = wrapped();
    limiter.trip().drain();

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (1)"));
    limiter.advanceSeconds(1);
    statement.executeUpdate("insert into t values (2)"); // the door: takes the permit
    statement.executeUpdate("insert into t values (3)"); // charged, never refused
    statement.executeUpdate("insert into t values (4)");
    connection.commit();

    assertThat(count()).isEqualTo(3);
    assertThat(limiter.stats().admitted()).isEqualTo(1);
    assertThat(limiter.stats().forced()).isEqualTo(2);
  }

  @Test
  void transactionStartedWhileFlagClosed_flagOpensMidway_isChargedNotRefused()
      throws SQLException {
    Statement statement = wrapped();
    connection.setAutoCommit(false);
    statement.executeUpdate("insert into t values (1)");

    limiter.trip().drain();
    statement.executeUpdate("insert into t values (2)");
    statement.executeUpdate("insert into t values (3)");
    connection.commit();

    assertThat(count()).isEqualTo(3);
    assertThat(limiter.stats().rejected()).isZero();
  }

  @Test
  void refusedDoor_thenRetried_admitsTheTransaction() throws SQLException {
    Statement statement = wrapped();
    limiter.trip().drain();
    assertThrows(RateLimitExceededException.class, () -> connection.setAutoCommit(false));

    limiter.advanceSeconds(1);
    connection.setAutoCommit(false);
    statement.executeUpdate("insert into t values (1)");
    connection.rollback();

    assertThat(raw.getAutoCommit()).isFalse();
    assertThat(count()).isZero();
    assertThat(limiter.stats().admitted()).isEqualTo(1);
  }

  private long count() throws SQLException {
    try (Statement query = raw.createStatement();
        java.sql.ResultSet rows = query.executeQuery("select count(*) from t")) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
