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
      "ABORT", "abort transaction", "COMMIT; BEGIN", "ROLLBACK/* x */"})
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
      "ÇOMMIT", "cömmit"})
  void ends_otherText_isNoEnd(String sql) {
    assertThat(TransactionText.ends(sql)).isFalse();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"   ", "\n", "/**/", "--"})
  void ends_nothingToRead_isNoEnd(String sql) {
    assertThat(TransactionText.ends(sql)).isFalse();
  }
}
