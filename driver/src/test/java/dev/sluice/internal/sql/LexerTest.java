package dev.sluice.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lexer's tokens, by hand. The same rules are checked against a real PostgreSQL over a
 * generated corpus ({@code dev.sluice.internal.answer.LexerAgreementTest}).
 */
class LexerTest {

  /** The tokens of {@code sql}, separated by {@code |}; {@code !} for an unplaceable one. */
  static String tokens(String sql, int syntax) {
    List<String> out = new ArrayList<>();
    int i = Lexer.skipSpace(sql, 0, syntax);
    while (i >= 0 && i < sql.length()) {
      int end = Lexer.tokenEnd(sql, i, syntax);
      if (end < 0) {
        out.add("!");
        return String.join("|", out);
      }
      out.add(sql.substring(i, end));
      i = Lexer.skipSpace(sql, end, syntax);
    }
    if (i < 0) {
      out.add("!");
    }
    return String.join("|", out);
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "SELECT a, b FROM t; SELECT|a|,|b|FROM|t",
      "select 'it''s' x; select|'it''s'|x",
      "select E'it\\'s' x; select|E'it\\'s'|x",
      "select e'a\\\\' , b; select|e'a\\\\'|,|b",
      "select \"a\"\"b\"(1); select|\"a\"\"b\"|(|1|)",
      "select $$ a ' b $$, c; select|$$ a ' b $$|,|c",
      "select $q$ $$ $q$ x; select|$q$ $$ $q$|x",
      "select $1, a$b; select|$1|,|a$b",
      "select 1.5e-3x; select|1.5e-3x",
      "select 2*/*c*/3; select|2|*|3",
      "select /* a /* b */ c */ d; select|d",
      "select U&'d\\0061t' x; select|!",
      "select N'x', B'101', X'1F'; select|N'x'|,|B'101'|,|X'1F'",
      "select 'a\\b'; select|!",
      "select 'unclosed; select|!",
  })
  void postgres_tokens(String sql, String expected) {
    assertThat(tokens(sql, Lexer.POSTGRES)).isEqualTo(expected);
  }

  @Test
  void postgres_lineCommentEndsAtCarriageReturnOrNewline() {
    assertThat(tokens("select 1 -- c\rnextval('s')", Lexer.POSTGRES))
        .isEqualTo("select|1|nextval|(|'s'|)");
    assertThat(tokens("select 1 -- c\nx", Lexer.POSTGRES)).isEqualTo("select|1|x");
    assertThat(tokens("select 1 -- c\u000bx", Lexer.POSTGRES)).isEqualTo("select|1");
  }

  @Test
  void postgres_everyCharacterAbove0x7fIsPartOfAWord() {
    assertThat(tokens("select\u00a0nextval('s')", Lexer.POSTGRES))
        .isEqualTo("select\u00a0nextval|(|'s'|)");
  }

  @Test
  void postgres_hashAndBacktickAreOperators() {
    assertThat(tokens("select a #> '{b}', `x`", Lexer.POSTGRES))
        .isEqualTo("select|a|#|>|'{b}'|,|`|x|`");
  }

  @ParameterizedTest
  @ValueSource(strings = {"select 1 # comment", "select 1 // comment", "select /*! 1 */",
      "select /*+ hint */ 1", "select /* a /* b */ */ 1", "select $$x$$", "select \"a\\\"\"",
      "select E'a\\'b'"})
  void strict_whatTheDatabasesReadDifferently_isUnplaceable(String sql) {
    assertThat(tokens(sql, Lexer.STRICT)).endsWith("!");
  }

  @Test
  void strict_backticksQuoteNames() {
    assertThat(tokens("select `a``b` from t", Lexer.STRICT)).isEqualTo("select|`a``b`|from|t");
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "SELECT a, b FROM t; SELECT|a|,|b|FROM|t",
      "select 'it''s' x; select|'it''s'|x",
      "select 'C:\\dir' x; select|'C:\\dir'|x",
      "select 'a\\\\b' x; select|'a\\\\b'|x",
      "select 'it\\'s' x; select|!",
      "select 'a\\', sleep(1), '' x; select|!",
      "select \"a\\\"b\" x; select|!",
      "select \"a\"\"b\"(1); select|\"a\"\"b\"|(|1|)",
      "select `a``b`(1), `c\\d`; select|`a``b`|(|1|)|,|`c\\d`",
      "select 1--1, sleep(2); select|1|-|-|1|,|sleep|(|2|)",
      "select 2 /* a /* b */ , c; select|2|,|c",
      "select /*!50000 sleep(1) */ 1; select|!",
      "select /*M! sleep(1) */ 1; select|!",
      "select /*+ MAX_EXECUTION_TIME(1) */ 1; select|1",
      "select @tenant; select|!",
      "select @@time_zone; select|!",
      "select 1e3, 0x1F, 0b101, .5, 2.5e-3; select|1e3|,|0x1F|,|0b101|,|.5|,|2.5e-3",
      "select 1abc(); select|!",
      "select $x; select|!",
      "select a$b; select|a$b",
      "select N'x', B'101', X'1F', _utf8mb4'y'; select|N'x'|,|B'101'|,|X'1F'|,|_utf8mb4|'y'",
      "select E'x'; select|E|'x'",
      "select 1 // 2; select|1|/|/|2",
      "select 'unclosed; select|!",
      "select 1 /* unclosed; select|1|!",
  })
  void mysql_tokens(String sql, String expected) {
    assertThat(tokens(sql, Lexer.MYSQL)).isEqualTo(expected);
  }

  @Test
  void mysql_lineCommentsEndAtNewlineOnly_notAtCarriageReturn() {
    assertThat(tokens("select 1 # c\r, sleep(1)\n, 2", Lexer.MYSQL)).isEqualTo("select|1|,|2");
    assertThat(tokens("select 1 -- c\r, sleep(1)\n, 2", Lexer.MYSQL)).isEqualTo("select|1|,|2");
    assertThat(tokens("select 1 # a, sleep(1)\n, 2", Lexer.MYSQL)).isEqualTo("select|1|,|2");
    assertThat(tokens("select 1 --\tc\n", Lexer.MYSQL)).isEqualTo("select|1");
    assertThat(tokens("select 1 --\n, 2", Lexer.MYSQL)).isEqualTo("select|1|,|2");
  }
}
