package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which texts are shaped as a single read that takes no lock and writes nothing, read by the one
 * lexer with PostgreSQL's rules. Function calls pass here: the catalog judges them
 * ({@code CallsTest}, and {@code AnswerTruthTest} in src-it on the real PostgreSQL).
 */
class ReadTextTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM t WHERE id = ?",
      "select 1",
      "  \n\t-- a comment: DELETE FROM t\nSELECT 1",
      "/* UPDATE t SET x = 1 */ select 1",
      "WITH a AS (SELECT 1) SELECT * FROM a",
      "VALUES (1), (2)",
      "TABLE accounts",
      "(SELECT 1) UNION (SELECT 2)",
      "SELECT 'for update' FROM t",
      "SELECT 'it''s into' FROM t",
      "SELECT \"update\", \"into\" FROM t",
      "SELECT nextval('seq')",
      "SELECT \"nextval\"('seq'), random(), pg_advisory_lock(1)",
      "SELECT 1 /*! FOR UPDATE */",
      "SELECT 1 /* a /* nested */ FOR UPDATE */",
      "SELECT E'it\\'s for update' FROM t",
      "SELECT $$ FOR UPDATE $$ FROM t",
      "SELECT $tag$ INSERT $tag$ FROM t",
      "SELECT updated_at, inserted, deleted_by, format, intox FROM t",
      "SELECT * FROM t ORDER BY id FOR READ ONLY",
      "SELECT 1;",
      "SELECT 1;  -- done",
      "SELECT now(), a / b FROM t",
      "SELECT x FROM t -- FOR UPDATE",
  })
  void reads_areEligible(String sql) {
    assertThat(ReadText.isRead(sql)).as(sql).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "   ",
      "-- only a comment",
      "UPDATE t SET x = 1",
      "INSERT INTO t VALUES (1)",
      "DELETE FROM t",
      "selectx 1",
      "SELECT * FROM t FOR UPDATE",
      "SELECT * FROM t for share",
      "SELECT * FROM t FOR NO KEY UPDATE",
      "SELECT * FROM t FOR KEY SHARE",
      "SELECT * FROM t FOR /* sneaky */ UPDATE SKIP LOCKED",
      "SELECT * FROM t\nFOR\nUPDATE",
      "SELECT * FROM t LOCK IN SHARE MODE",
      "SELECT * INTO new_table FROM t",
      "SELECT x INTO @v FROM t",
      "WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone",
      "WITH moved AS (INSERT INTO t VALUES (1) RETURNING id) SELECT id FROM moved",
      "WITH w AS (UPDATE t SET x = 1 RETURNING x) SELECT x FROM w",
      "SELECT NEXT VALUE FOR seq",
      "SELECT `delete` FROM t",
      "SELECT 1 -- comment\rFOR UPDATE",
      "SELECT 1; DELETE FROM t",
      "SELECT 1; SELECT 2",
      "SELECT 'a\\' FOR UPDATE --' FROM t",
      "SELECT 'unclosed FROM t",
      "SELECT \"unclosed FROM t",
      "SELECT $q$ unclosed FROM t",
      "SELECT /*+ INDEX(t) */ x FROM t FOR UPDATE",
      "/* a /* nested */ FOR UPDATE */ SELECT 1 FOR UPDATE",
      "CALL p()",
      "SHOW search_path",
  })
  void nonReads_areNotEligible(String sql) {
    assertThat(ReadText.isRead(sql)).as(sql).isFalse();
  }

  @org.junit.jupiter.api.Test
  void null_isNotARead() {
    assertThat(ReadText.isRead(null)).isFalse();
  }
}
