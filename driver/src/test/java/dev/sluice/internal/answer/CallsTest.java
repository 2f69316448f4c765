package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.sql.Lexer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a read's text calls and names, as the database resolves names. */
class CallsTest {

  private static Calls pg(String sql) {
    return Calls.of(sql, Lexer.POSTGRES, false);
  }

  @Test
  void calls_quotedQualifiedAndHidden_areFound() {
    assertThat(pg("SELECT \"nextval\"('s'), pg_catalog.Random(), \"Pg_Try_Advisory_Lock\"(43)")
        .functions()).contains("nextval", "random", "Pg_Try_Advisory_Lock");
    assertThat(pg("SELECT 1 -- x\rnextval('s')").functions()).contains("nextval");
    assertThat(pg("SELECT /* /* */ nextval('s') */ 1").functions()).doesNotContain("nextval");
    assertThat(pg("SELECT $$ nextval('s') $$, E'\\' nextval(1) ', clock_timestamp()")
        .functions()).containsExactly("clock_timestamp");
  }

  @Test
  void aDottedName_mayBeACall() {
    assertThat(pg("SELECT t.f FROM t").functions()).contains("f");
    assertThat(pg("SELECT t.f FROM t").names()).contains("t");
  }

  @Test
  void names_areTheRelationsAmongOthers() {
    Calls c = pg("SELECT a FROM app.My_View v JOIN \"Other\" o ON v.a = o.a");
    assertThat(c.names()).contains("app", "my_view", "v", "Other", "o");
  }

  @ParameterizedTest
  @ValueSource(strings = {"SELECT current_user", "SELECT 1 WHERE session_user = 'x'",
      "SELECT user", "SELECT CURRENT_ROLE", "SELECT current_schema", "SELECT 'a' || current_catalog"})
  void sessionValues_makeTheTextIneligible(String sql) {
    assertThat(pg(sql).placeable()).isFalse();
  }

  @Test
  void timeValues_areNoCalls() {
    Calls c = pg("SELECT current_date, current_timestamp(3), localtime");
    assertThat(c.placeable()).isTrue();
    assertThat(c.functions()).isEmpty();
  }

  @Test
  void h2_foldsToUpperCase_andReadsStrictly() {
    assertThat(Calls.of("select rand(), \"lower\"(x)", Lexer.STRICT, true).functions())
        .contains("RAND", "lower");
    assertThat(Calls.of("select 1 // rand()", Lexer.STRICT, true).placeable()).isFalse();
  }
}
