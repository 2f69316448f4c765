package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which statement texts end a transaction: the forms PostgreSQL, MySQL, H2 and others accept. */
class TransactionTextTest {

  @ParameterizedTest
  @ValueSource(strings = {"COMMIT", "commit", "Commit;", "COMMIT WORK", "COMMIT TRANSACTION",
      "COMMIT AND NO CHAIN", "COMMIT AND CHAIN", "  \n\tcommit", "/* tx */ COMMIT",
      "-- end it\nCOMMIT", "ROLLBACK", "rollback;", "ROLLBACK WORK", "ROLLBACK TRANSACTION",
      "ROLLBACK TRAN", "ROLLBACK AND CHAIN", "END", "end;", "END WORK", "END TRANSACTION",
      "ABORT", "abort transaction", "COMMIT; BEGIN", "ROLLBACK/* x */",
      "-- PostgreSQL ends this comment at a carriage return\rCOMMIT",
      "/* a /* nested */ comment */ COMMIT", "ROLLBACK -- to s1"})
  void ends_transactionEndingText_isAnEnd(String sql) {
    assertThat(TransactionText.ends(sql)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ROLLBACK TO SAVEPOINT s1", "rollback to s1", "ROLLBACK WORK TO s1",
      "ROLLBACK TRANSACTION TO SAVEPOINT s1", "ROLLBACK  /* x */ TO s1",
      "COMMIT PREPARED 'gid'", "ROLLBACK PREPARED 'gid'", "SAVEPOINT s1",
      "RELEASE SAVEPOINT s1", "BEGIN", "START TRANSACTION", "select 1", "insert into commit_log"
      + " values (1)", "update t set x = 1", "COMMITTED", "commit_log", "ENDPOINT", "ABORTED",
      "rollbacks", "end_date", "explain select 1", "/* COMMIT */ select 1", "-- COMMIT\nselect 1",
      "insert into t values (1); commit", "/* unterminated COMMIT", "-- COMMIT", "committ",
      "ÇOMMIT", "cömmit", "/* a /* nested */ COMMIT */ select 1", "-- x\u2028COMMIT"})
  void ends_otherText_isNoEnd(String sql) {
    assertThat(TransactionText.ends(sql)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"BEGIN", "begin;", "BEGIN WORK", "BEGIN TRANSACTION ISOLATION LEVEL"
      + " SERIALIZABLE", "START TRANSACTION", "start transaction read only", "/* x */ BEGIN",
      "-- x\rBEGIN", "  \n BEGIN; SELECT 1"})
  void begins_transactionOpeningText_opens(String sql) {
    assertThat(TransactionText.begins(sql)).isTrue();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"select 1", "BEGINNING", "begin_date", "START", "start_time",
      "START TRANSACTIONS", "COMMIT", "/* BEGIN */ select 1", "-- BEGIN", "SAVEPOINT s",
      "DO $$ BEGIN END $$"})
  void begins_otherText_opensNothing(String sql) {
    assertThat(TransactionText.begins(sql)).isFalse();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"   ", "\n", "/**/", "--"})
  void ends_nothingToRead_isNoEnd(String sql) {
    assertThat(TransactionText.ends(sql)).isFalse();
  }
}
