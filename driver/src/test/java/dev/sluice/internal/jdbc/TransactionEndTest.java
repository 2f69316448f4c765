package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.WrapperFixture;
import dev.sluice.internal.jdbc.StubJdbc.Recorder;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A transaction Sluice believes open never outlives its real end (issue 10, item 5). A
 * {@code commit()} that threw (a deferred constraint on PostgreSQL) left the state "in
 * transaction", and the next transaction ran with no door; {@code COMMIT}, {@code ROLLBACK},
 * {@code END} and {@code ABORT} sent as statements were not seen at all. Here the limiter has one
 * permit a second, burst 1, on a fake clock, so an emptied bucket stays empty: a statement that is
 * a door is refused, one inside an admitted transaction is charged and passes.
 */
class TransactionEndTest {
  private static final SQLException DEFERRED_CONSTRAINT =
      new SQLException("violates foreign key constraint", "23503");

  private final WrapperFixture limiter = new WrapperFixture();
  private final Recorder recorder = new Recorder();
  private final Connection connection =
      Connections.wrap(StubJdbc.connection(recorder, true), limiter.gate());

  /** Opens the flag and a transaction, which takes the only permit; the statement is ready. */
  private Statement admittedTransaction() throws SQLException {
    Statement statement = connection.createStatement();
    limiter.trip();
    connection.setAutoCommit(false);
    statement.executeUpdate("insert into t values (1)"); // prepaid by the door
    statement.executeUpdate("insert into t values (2)"); // charged
    return statement;
  }

  @Test
  void failedCommit_endsTheTransaction_soTheNextStatementIsADoor() throws SQLException {
    Statement statement = admittedTransaction();
    recorder.endFailure = DEFERRED_CONSTRAINT;

    assertThrows(SQLException.class, connection::commit);

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (3)"));
    assertThat(limiter.stats().rejected()).isEqualTo(1);
  }

  @Test
  void failedRollback_endsTheTransaction_soTheNextStatementIsADoor() throws SQLException {
    Statement statement = admittedTransaction();
    recorder.endFailure = new SQLException("I/O error", "08006");

    assertThrows(SQLException.class, connection::rollback);

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (3)"));
  }

  @Test
  void failedSwitchToAutoCommit_endsTheTransaction_andTheModeIsReadAgain() throws SQLException {
    Statement statement = admittedTransaction();
    recorder.endFailure = DEFERRED_CONSTRAINT;

    assertThrows(SQLException.class, () -> connection.setAutoCommit(true));

    assertThat(connection.getAutoCommit()).isFalse(); // the stub stayed in manual commit
    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (3)"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"COMMIT", "commit work", "ROLLBACK", "ROLLBACK TRANSACTION", "END",
      "ABORT", "/* by hand */ COMMIT;"})
  void endingText_endsTheTransaction_soTheNextStatementIsADoor(String sql) throws SQLException {
    Statement statement = admittedTransaction();

    statement.execute(sql);

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (3)"));
  }

  @Test
  void endingText_endsTheTransactionThroughEveryTextMethod() throws SQLException {
    Statement statement = admittedTransaction();
    statement.executeUpdate("COMMIT");
    assertThrows(RateLimitExceededException.class, () -> statement.execute("select 1"));
    payTheDebtOfTheSecondStatement();
    statement.executeQuery("select 1"); // the next transaction's door
    statement.executeLargeUpdate("END", Statement.NO_GENERATED_KEYS);
    assertThrows(RateLimitExceededException.class, () -> statement.execute("select 1"));
    limiter.advanceSeconds(10); // burst 1: one permit (that transaction owed nothing)
    statement.execute("select 1");
    statement.execute("ROLLBACK", new String[] {"id"});

    assertThrows(RateLimitExceededException.class, () -> statement.executeQuery("select 1"));
  }

  /**
   * Burst 1: the transaction's second statement found no room and is owed by its priority; time
   * pays it (issue 35: it used to take a refused door), and the next door passes.
   */
  private void payTheDebtOfTheSecondStatement() {
    limiter.advanceSeconds(10);
  }

  @Test
  void endingText_whoseStatementFails_stillEndsTheTransaction() throws SQLException {
    Connection failing = Connections.wrap(failingCommitText(), limiter.gate());
    Statement statement = failing.createStatement();
    limiter.trip();
    failing.setAutoCommit(false);
    statement.executeUpdate("insert into t values (1)");

    assertThrows(SQLException.class, () -> statement.execute("COMMIT"));

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (2)"));
  }

  @Test
  void rollbackToSavepointText_staysInTheTransaction() throws SQLException {
    Statement statement = admittedTransaction();
    limiter.drain();

    statement.execute("ROLLBACK TO SAVEPOINT s1");
    statement.executeUpdate("insert into t values (3)");

    assertThat(limiter.stats().rejected()).isZero();
    assertThat(limiter.stats().forced()).isEqualTo(3); // the savepoint rollback is charged too
  }

  @Test
  void endingText_bucketEmpty_isNeverRefusedNorCharged() throws SQLException {
    Statement statement = admittedTransaction();
    limiter.drain();
    long forced = limiter.stats().forced();

    statement.execute("COMMIT");
    statement.execute("ROLLBACK"); // manual commit, no transaction open: nothing to end

    assertThat(limiter.stats().rejected()).isZero();
    assertThat(limiter.stats().forced()).isEqualTo(forced);
  }

  @Test
  void endingTextWhileFlagClosed_isSeen_soTheFirstStatementOnceLimitingIsADoor()
      throws SQLException {
    Connection manual =
        Connections.wrap(StubJdbc.connection(recorder, false), limiter.gate());
    Statement statement = manual.createStatement();
    statement.executeUpdate("insert into t values (1)"); // flag closed: a transaction begins
    statement.execute("COMMIT"); // ... and ends, unseen by the driver's own commit()

    limiter.trip().drain();

    assertThrows(RateLimitExceededException.class,
        () -> statement.executeUpdate("insert into t values (2)"));
  }

  @Test
  void transactionBegunWhileFlagClosed_withoutAnEnd_isStillNeverCut() throws SQLException {
    Connection manual =
        Connections.wrap(StubJdbc.connection(recorder, false), limiter.gate());
    Statement statement = manual.createStatement();
    statement.executeUpdate("insert into t values (1)");
    statement.execute("ROLLBACK TO SAVEPOINT s1");

    limiter.trip().drain();
    statement.executeUpdate("insert into t values (2)");

    assertThat(limiter.stats().rejected()).isZero();
    assertThat(limiter.stats().forced()).isEqualTo(1);
  }

  @Test
  void commitTextUnderAutoCommit_isAnOrdinaryStatement() throws SQLException {
    Statement statement = connection.createStatement();
    limiter.trip();
    statement.execute("select 1"); // the only permit; auto-commit now known

    assertThrows(RateLimitExceededException.class, () -> statement.execute("COMMIT"));
  }

  @Test
  void connectionScope_endingTextChangesNothing() throws SQLException {
    WrapperFixture checkouts = new WrapperFixture(Scope.CONNECTION, false);
    Connection wrapped =
        Connections.wrap(StubJdbc.connection(recorder, false), checkouts.gate());
    int before = ((ConnectionWrapper) wrapped).state();

    wrapped.createStatement().execute("COMMIT");

    assertThat(((ConnectionWrapper) wrapped).state()).isEqualTo(before);
  }

  /** A manual-commit stub whose statements fail on {@code COMMIT}, as PostgreSQL's may. */
  private Connection failingCommitText() {
    Recorder failing = new Recorder();
    failing.endFailure = DEFERRED_CONSTRAINT;
    failing.failingText = "COMMIT";
    return StubJdbc.connection(failing, true);
  }
}
