package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.criticalRun;
import static dev.sluice.it.answers.AttackBench.readText;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.answers.AttackBench.Outcome;
import dev.sluice.it.support.Servers;
import dev.sluice.testsupport.HashTwins;
import java.sql.Connection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a read's text is (a read that takes no lock, a read of the session's settings) is judged
 * once per text and kept by the budget's answers. The attack: a text made to share its
 * {@code hashCode()} with a read judged, kept and answered before it, run while limiting at
 * {@code CRITICAL} (admitted) and then at {@code NORMAL} (refused). It must keep its own
 * judgement: never answered, and what it got is what its connection reads live.
 *
 * <p>On PostgreSQL the catalog judges each text too ({@code FOR UPDATE} by the dialect's own
 * lexer, {@code current_setting} as a function that reads the session), so this attack holds
 * even against a cache keyed by hash; {@code TextsTest} is the one that fails on such a
 * cache (checked by keying it so).
 */
class AnswerTextShapeAttackTest {
  private static final String DOCS = "select v from atk_sh_docs order by v";

  @BeforeAll
  static void schema() {
    Servers.postgres().execute(
        "drop table if exists atk_sh_docs",
        "create table atk_sh_docs(v text)",
        "insert into atk_sh_docs values ('doc-1'), ('doc-2')");
  }

  @Test
  void aTextSharingAnAnsweredReadsHash_isJudgedOnItsOwn_neverAnswered() throws Exception {
    String locks = HashTwins.twin(DOCS + " for update", DOCS);
    String setting = HashTwins.twin("select current_setting('app.tenant', true)", DOCS);
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      Connection c = bench.connection();
      bench.trip();
      criticalRun(c, "select set_config('app.tenant', 'a', false)");
      critical(() -> readText(c, DOCS));
      Outcome control = readText(c, DOCS);

      critical(() -> readText(c, locks));
      Outcome locked = readText(c, locks);
      critical(() -> readText(c, setting));
      Outcome read = readText(c, setting);

      assertThat(locks.hashCode()).isEqualTo(DOCS.hashCode());
      assertThat(setting.hashCode()).isEqualTo(DOCS.hashCode());
      assertThat(control.answered()).as("the read itself: %s", control).isTrue();
      assertThat(locked.answered()).as("FOR UPDATE twin: %s", locked).isFalse();
      assertThat(read.answered()).as("current_setting twin: %s", read).isFalse();
      bench.closeFlag();
      assertNoLie("the FOR UPDATE twin", locked, readText(c, locks));
      assertNoLie("the current_setting twin", read, readText(c, setting));
    }
  }
}
