package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.criticalRun;
import static dev.sluice.it.answers.AttackBench.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.StaleResultWarning;
import dev.sluice.it.answers.AttackBench.Outcome;
import dev.sluice.it.support.Servers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code set_config} answered as a no-op (issue 38, the pooled-tenant pattern): only when
 * running it would change nothing on the caller's own session. Each attack readies a session at
 * {@code CRITICAL} (admitted), then calls {@code set_config} at {@code NORMAL}, which the rate
 * refuses ({@link AttackBench}): it must not be answered unless the session already holds that
 * tenant by {@code set_config}; and whatever it got, the reads after it must be what the
 * session reads live.
 */
class AnswerSetConfigAttackTest {
  private static final String DOCS = "select v from atk_sc_docs order by v";
  private static final String SET_TENANT = "select set_config('app.tenant', ?, false)";

  @BeforeAll
  static void schema() {
    Servers.postgres().execute(
        "do $$ begin create role atk_sc_app login; exception when duplicate_object then null;"
            + " end $$",
        "drop table if exists atk_sc_docs, atk_sc_log",
        "create table atk_sc_docs(tenant text, v text)",
        "insert into atk_sc_docs values ('a', 'doc-a1'), ('a', 'doc-a2'), ('b', 'doc-b1')",
        "grant select on atk_sc_docs to atk_sc_app",
        "alter table atk_sc_docs enable row level security",
        "create policy atk_sc_tenant on atk_sc_docs"
            + " using (tenant = current_setting('app.tenant', true))",
        "create table atk_sc_log(msg text)",
        "grant insert on atk_sc_log to atk_sc_app",
        "create or replace function atk_sc_switch() returns trigger language plpgsql as"
            + " $$ begin perform set_config('app.tenant', 'b', false); return new; end $$",
        "create trigger atk_sc_switch before insert on atk_sc_log"
            + " for each row execute function atk_sc_switch()");
  }

  private static String appUrl() {
    return Servers.postgres().jdbcUrl().replace("user=postgres", "user=atk_sc_app");
  }

  /** The positive control: the same tenant again, on the session that holds it, is answered. */
  @Test
  void theSameTenantAgain_onTheSessionThatHoldsIt_isAnsweredWhatPostgresReturned()
      throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      bench.trip();
      Outcome ran = critical(() -> setTenant(c, "a"));

      Outcome again = setTenant(c, "a");
      String label = label(c, "a");

      assertThat(ran.answered()).isFalse();
      assertThat(again.answered()).as("%s", again).isTrue();
      assertThat(again.rows()).isEqualTo("[a]");
      assertThat(label).isEqualTo("set_config text");
      bench.closeFlag();
      assertThat(read(c, "select current_setting('app.tenant')").rows()).isEqualTo("[a]");
    }
  }

  /** A session serving tenant b: set_config to a must run; its reads never a's rows. */
  @Test
  void aSessionOfTenantB_setConfigToA_isNotAnswered_norItsReadsAsRows() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection a = bench.connection();
      Connection b = bench.connection();
      bench.trip();
      critical(() -> setTenant(a, "a"));
      assertThat(critical(() -> read(a, DOCS)).rows()).isEqualTo("[doc-a1; doc-a2]");
      critical(() -> setTenant(b, "b"));
      critical(() -> read(b, "select 1"));

      Outcome set = setTenant(b, "a");
      Outcome docs = read(b, DOCS);

      assertThat(set.answered()).as("set_config to a on b's session: %s", set).isFalse();
      bench.closeFlag();
      assertThat(read(b, "select current_setting('app.tenant')").rows()).isEqualTo("[b]");
      assertNoLie("b's read after its set_config", docs, read(b, DOCS));
    }
  }

  /** The tenant set by {@code SET}: its text is not set_config's value; the call runs. */
  @Test
  void aTenantSetBySet_thenSetConfigToTheSameValue_isNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      bench.trip();
      critical(() -> setTenant(c, "a"));
      criticalRun(c, "set app.tenant = 'a'");

      Outcome set = setTenant(c, "a");

      assertThat(set.answered()).as("%s", set).isFalse();
    }
  }

  /** A set_config of the same value in a transaction: the transaction's, never answered. */
  @Test
  void insideATransaction_theSameTenantAgain_isNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      Connection text = bench.connection();
      bench.trip();
      critical(() -> setTenant(c, "a"));
      critical(() -> setTenant(text, "a"));
      critical(() -> {
        c.setAutoCommit(false);
        return null;
      });
      criticalRun(text, "begin");

      Outcome inJdbcTransaction = setTenant(c, "a");
      Outcome inTextTransaction = setTenant(text, "a");

      assertThat(inJdbcTransaction.answered()).as("%s", inJdbcTransaction).isFalse();
      assertThat(inTextTransaction.answered()).as("%s", inTextTransaction).isFalse();
      c.rollback();
      bench.closeFlag();
      criticalRun(text, "rollback");
    }
  }

  /** {@code is_local} true, as a literal or a parameter: the transaction's own, never answered. */
  @Test
  void isLocalTrue_isNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      bench.trip();
      critical(() -> setTenant(c, "a"));

      Outcome literal = read(c, "select set_config('app.tenant', ?, true)", "a");
      Outcome parameter = read(c, "select set_config('app.tenant', ?, ?)", "a", true);

      assertThat(literal.answered()).as("%s", literal).isFalse();
      assertThat(parameter.answered()).as("%s", parameter).isFalse();
    }
  }

  /** A setting of the server's: its assignment may do more than set it (seed); it runs. */
  @Test
  void aServerSetting_theSameValueAgain_isNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      bench.trip();
      String seed = "select set_config('seed', ?, false)";
      critical(() -> read(c, seed, "0.5"));
      critical(() -> read(c, seed, "0.5"));

      Outcome again = read(c, seed, "0.5");

      assertThat(again.answered()).as("%s", again).isFalse();
    }
  }

  /** Another text (an alias) than the one that ran: its label differs; not answered. */
  @Test
  void anotherTextOfTheSameCall_isNotAnsweredTheFirstOnesResult() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      bench.trip();
      critical(() -> setTenant(c, "a"));

      Outcome aliased = read(c, "select set_config('app.tenant', ?, false) as tenant", "a");

      assertThat(aliased.answered()).as("%s", aliased).isFalse();
    }
  }

  /**
   * A trigger switched the session's tenant as the session wrote: Sluice saw only the insert.
   * The set_config back to a must run, and the reads after it are the session's own.
   */
  @Test
  void aTriggerSwitchedTheTenant_setConfigBack_isNotAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(appUrl())) {
      Connection c = bench.connection();
      bench.trip();
      critical(() -> setTenant(c, "a"));
      criticalRun(c, "insert into atk_sc_log values ('switch')");

      Outcome set = setTenant(c, "a");
      Outcome docs = read(c, DOCS);

      assertThat(set.answered()).as("%s", set).isFalse();
      bench.closeFlag();
      assertThat(read(c, "select current_setting('app.tenant')").rows()).isEqualTo("[b]");
      assertNoLie("the read after the trigger", docs, read(c, DOCS));
    }
  }

  private static Outcome setTenant(Connection c, String tenant) {
    return read(c, SET_TENANT, tenant);
  }

  /** The label and type of an answered {@code set_config} on {@code c}; else {@code null}. */
  private static String label(Connection c, String tenant) throws Exception {
    try (PreparedStatement p = c.prepareStatement(SET_TENANT)) {
      p.setString(1, tenant);
      try (ResultSet r = p.executeQuery()) {
        if (!(r.getWarnings() instanceof StaleResultWarning)) {
          return null;
        }
        return r.getMetaData().getColumnLabel(1) + " " + r.getMetaData().getColumnTypeName(1);
      }
    }
  }
}
