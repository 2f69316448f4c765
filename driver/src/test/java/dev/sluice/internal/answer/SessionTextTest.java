package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.answer.SessionText.Effect;
import dev.sluice.internal.answer.SessionText.Effect.Kind;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What {@link SessionText} reads of a statement: its session change, the tables it writes. */
class SessionTextTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "SET search_path = atk_ta|search_path|atk_ta",
      "set search_path to atk_tb, public|search_path|atk_tb, public",
      "SET SESSION app.tenant = 'a';|app.tenant|'a'",
      "set time zone 'Asia/Tokyo'|timezone|'Asia/Tokyo'",
      "SET TimeZone = 'UTC'|timezone|'UTC'",
      "/* c */ SET statement_timeout = 5000|statement_timeout|5000"})
  void set_readsTheSettingAndTheValueAsWritten(String sql, String name, String value) {
    Effect e = SessionText.classify(sql);
    assertThat(e.kind).isEqualTo(Kind.SET);
    assertThat(e.config).isFalse();
    assertThat(e.name).isEqualTo(name);
    assertThat(e.value).isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"SET ROLE atk_nogrant", "set session authorization atk_nogrant",
      "RESET search_path", "RESET ALL", "DISCARD ALL", "SET LOCAL app.tenant = 'a'",
      "SET search_path = DEFAULT", "SET TIME ZONE LOCAL", "SET app.tenant = 'a'; SET x = 1",
      "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", "SET"})
  void changesNotReadHere_leaveTheSessionUnknown(String sql) {
    assertThat(SessionText.classify(sql).kind).isEqualTo(Kind.SESSION_UNKNOWN);
  }

  @Test
  void setConfig_aloneInItsSelect_withLiteralsOrParameters() {
    Effect literal = SessionText.classify("SELECT set_config('App.Tenant', 'b', false)");
    assertThat(literal.kind).isEqualTo(Kind.SET);
    assertThat(literal.config).isTrue();
    assertThat(literal.name).isEqualTo("app.tenant");
    assertThat(literal.value).isEqualTo("b");

    Effect params = SessionText.classify("select pg_catalog.set_config(?, ?, ?) as t;");
    assertThat(params.kind).isEqualTo(Kind.SET);
    assertThat(params.nameParameter).isEqualTo(1);
    assertThat(params.valueParameter).isEqualTo(2);
    assertThat(params.localParameter).isEqualTo(3);

    assertThat(SessionText.classify("SELECT set_config('app.tenant', ?, false)").valueParameter)
        .isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"SELECT set_config('app.tenant', 'b', true)",
      "SELECT set_config('app.tenant', 'b', false), 1",
      "SELECT 1 WHERE set_config('app.tenant', 'b', false) IS NOT NULL",
      "SELECT set_config('app.tenant', lower(?), false)"})
  void setConfigElsewhere_isUnknown(String sql) {
    assertThat(SessionText.classify(sql).kind).isEqualTo(Kind.UNKNOWN);
    assertThat(SessionText.touchesSession(sql)).isTrue();
  }

  @Test
  void touchesSession_setConfigOrCurrentSettingOutsideStrings() {
    assertThat(SessionText.touchesSession(
        "SELECT * FROM t WHERE tenant = current_setting('app.tenant')")).isTrue();
    assertThat(SessionText.touchesSession("SELECT 'current_setting' -- set_config")).isFalse();
    assertThat(SessionText.touchesSession("SELECT id FROM items")).isFalse();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "INSERT INTO atk_rw VALUES (1, 'x')|atk_rw",
      "insert into public.\"Atk_Rw\"(id) values (1) on conflict do nothing|atk_rw",
      "UPDATE ONLY s.items SET v = 1 FROM other WHERE other.id = items.id|items",
      "DELETE FROM items USING other WHERE other.id = items.id;|items",
      "MERGE INTO items USING other ON true WHEN MATCHED THEN DELETE|items",
      "TRUNCATE TABLE a, ONLY b CASCADE|a,b"})
  void writes_nameTheTablesWritten(String sql, String tables) {
    Effect e = SessionText.classify(sql);
    assertThat(e.kind).isEqualTo(Kind.WRITE);
    assertThat(String.join(",", e.tables)).isEqualTo(tables);
  }

  @ParameterizedTest
  @ValueSource(strings = {"CALL atk_proc()", "DO $$ begin null; end $$", "CREATE TABLE x (i int)",
      "WITH d AS (DELETE FROM a RETURNING *) SELECT * FROM d", "SELECT atk_bump() FOR UPDATE",
      "SELECT nextval('s')", "COPY t FROM STDIN", "UPDATE a SET v = 1; DELETE FROM b",
      "INSERT INTO a SELECT 'x\\y'"})
  void anythingElse_writesUnknownTables(String sql) {
    assertThat(SessionText.classify(sql).kind).isEqualTo(Kind.UNKNOWN);
  }

  @Test
  void readsAndTransactionText() {
    assertThat(SessionText.classify("SELECT id FROM items WHERE id = ?").kind)
        .isEqualTo(Kind.READ);
    assertThat(SessionText.classify("(SELECT 1) UNION (SELECT 2)").kind).isEqualTo(Kind.READ);
    assertThat(SessionText.classify("BEGIN").kind).isEqualTo(Kind.BEGIN);
    assertThat(SessionText.classify("start transaction").kind).isEqualTo(Kind.BEGIN);
    assertThat(SessionText.classify("COMMIT").kind).isEqualTo(Kind.END);
    assertThat(SessionText.classify("rollback to savepoint a").kind).isEqualTo(Kind.NEUTRAL);
    assertThat(SessionText.classify("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE").kind)
        .isEqualTo(Kind.NEUTRAL);
    assertThat(SessionText.classify(null).kind).isEqualTo(Kind.UNKNOWN);
  }

  @Test
  void callsAny_aFunctionOfTheApplicationsOwn() {
    Set<String> own = Set.of("atk_bump", "balance_of");
    assertThat(SessionText.callsAny("SELECT atk_bump()", own)).isTrue();
    assertThat(SessionText.callsAny("select x from t where y = Balance_Of (1)", own)).isTrue();
    assertThat(SessionText.callsAny("select \"atk_bump\"()", own)).isTrue();
    assertThat(SessionText.callsAny("select atk_bump from t", own)).isFalse();
    assertThat(SessionText.callsAny("select 'atk_bump()' from t", own)).isFalse();
  }
}
