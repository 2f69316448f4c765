package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.criticalRun;
import static dev.sluice.it.answers.AttackBench.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.answers.AttackBench.Outcome;
import dev.sluice.it.support.Servers;
import java.sql.Connection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attacks on answers through writes (issue 38, "read-your-writes"): a result kept before a write
 * that passed through this instance must not be answered afterwards when it may read the
 * written table — to the writer, nor to any other connection of the instance. Each has the
 * admitted read (kept), the write, then three refused reads: the writer's own and two others'.
 */
class AnswerWriteFenceAttackTest {
  private static final String ROW = "select v from atk_rw where id = 1";

  @BeforeEach
  void rows() {
    Servers.postgres().execute(
        "drop table if exists atk_rw cascade", "drop table if exists atk_other cascade",
        "drop table if exists atk_src cascade",
        "create table atk_rw(id int primary key, v text)",
        "insert into atk_rw values (1, 'before')",
        "create table atk_other(id int primary key, v text)",
        "insert into atk_other values (1, 'x')",
        "create view atk_view as select id, upper(v) as v from atk_rw",
        "create or replace function atk_bump() returns int language plpgsql as"
            + " $$ begin update atk_rw set v = 'after' where id = 1; return 1; end $$",
        "create or replace procedure atk_proc() language plpgsql as"
            + " $$ begin update atk_rw set v = 'after' where id = 1; end $$",
        "create or replace function atk_peek(int) returns text stable language sql as"
            + " $$ select v from atk_rw where id = $1 $$",
        "create table atk_src(id int)",
        "create or replace function atk_copy() returns trigger language plpgsql as"
            + " $$ begin update atk_rw set v = 'after' where id = 1; return new; end $$",
        "create trigger atk_copy after insert on atk_src for each row execute function atk_copy()");
  }

  /**
   * Keeps {@code read} (admitted on the writer), runs {@code write} on the writer (admitted),
   * then reads at NORMAL on the writer and two others: none may be answered the kept result.
   */
  private void attack(String read, String... write) throws Exception {
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      Connection writer = bench.connection();
      Connection c2 = bench.connection();
      Connection c3 = bench.connection();
      bench.trip();
      for (Connection c : new Connection[] {c2, c3}) {
        critical(() -> AttackBench.readText(c, "select 1"));
      }
      Outcome kept = critical(() -> read(writer, read));
      assertThat(kept.rows()).isIn("[before]", "[BEFORE]");
      criticalRun(writer, write);

      Outcome[] got = {read(writer, read), read(c2, read), read(c3, read)};

      bench.closeFlag();
      Connection[] victims = {writer, c2, c3};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], read);
        assertThat(live.rows()).isNotEqualTo(kept.rows());
        assertNoLie(i == 0 ? "the writer" : "caller " + (i + 1), got[i], live);
      }
    }
  }

  @Test
  void update_theWriterAndOthersAreNotAnsweredTheRowAsBefore() throws Exception {
    attack(ROW, "update atk_rw set v = 'after' where id = 1");
  }

  @Test
  void deleteThenInsert_asTwoStatements_areNotAnsweredTheRowAsBefore() throws Exception {
    attack(ROW, "delete from atk_rw where id = 1", "insert into atk_rw values (1, 'after')");
  }

  @Test
  void writeInsideAFunctionCalledBySelect_unknownTables_fencesEveryRead() throws Exception {
    attack(ROW, "select atk_bump()");
  }

  /**
   * A read calling the application's own {@code STABLE} function is kept (the function is taken
   * at its word: no write), but the function may read any table, so a write to the table it
   * reads fences the kept result.
   */
  @Test
  void aStableFunctionOverTheWrittenTable_isNotAnsweredAsBefore() throws Exception {
    attack("select atk_peek(1)", "update atk_rw set v = 'after' where id = 1");
  }

  @Test
  void procedureCall_unknownTables_fencesEveryRead() throws Exception {
    attack(ROW, "call atk_proc()");
  }

  @Test
  void writeThroughATrigger_onAnotherTable_isNotAnsweredTheRowAsBefore() throws Exception {
    attack(ROW, "insert into atk_src values (1)");
  }

  @Test
  void aViewOverTheWrittenTable_isNotAnsweredAsBefore() throws Exception {
    attack("select v from atk_view where id = 1", "update atk_rw set v = 'after' where id = 1");
  }

  @Test
  void aTransactionTextBegunAndCommitted_isNotAnsweredAsBefore() throws Exception {
    attack(ROW, "begin", "update atk_rw set v = 'after' where id = 1", "commit");
  }

  /**
   * A write committed after another connection's read was kept: the read began after the write
   * ran but before it committed, so it saw the row as before.
   */
  @Test
  void aReadKeptWhileTheWriteWasUncommitted_isNotAnsweredAfterTheCommit() throws Exception {
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      Connection writer = bench.connection();
      Connection reader = bench.connection();
      Connection c3 = bench.connection();
      bench.trip();
      critical(() -> AttackBench.readText(c3, "select 1"));
      critical(() -> {
        writer.setAutoCommit(false);
        try (var s = writer.createStatement()) {
          s.executeUpdate("update atk_rw set v = 'after' where id = 1");
        }
        return null;
      });
      assertThat(critical(() -> read(reader, ROW)).rows()).isEqualTo("[before]");
      critical(() -> {
        writer.commit();
        writer.setAutoCommit(true);
        return null;
      });

      Outcome[] got = {read(writer, ROW), read(reader, ROW), read(c3, ROW)};

      bench.closeFlag();
      Connection[] victims = {writer, reader, c3};
      for (int i = 0; i < 3; i++) {
        Outcome live = read(victims[i], ROW);
        assertThat(live.rows()).isEqualTo("[after]");
        assertNoLie("caller " + (i + 1), got[i], live);
      }
    }
  }

  /** A write to another table fences nothing here: the kept read is still answered. */
  @Test
  void aWriteToAnotherTable_leavesTheReadAnswered() throws Exception {
    try (AttackBench bench = new AttackBench(Servers.postgres().jdbcUrl())) {
      Connection writer = bench.connection();
      Connection c2 = bench.connection();
      bench.trip();
      critical(() -> AttackBench.readText(c2, "select 1"));
      critical(() -> AttackBench.readText(writer, "select 1"));
      critical(() -> read(writer, ROW));
      criticalRun(writer, "update atk_other set v = 'y' where id = 1");

      Outcome got = read(c2, ROW);

      assertThat(got.answered()).as("%s", got).isTrue();
      assertThat(got.rows()).isEqualTo("[before]");
    }
  }
}
