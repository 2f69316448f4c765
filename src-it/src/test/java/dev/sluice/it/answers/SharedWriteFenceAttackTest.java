package dev.sluice.it.answers;

import static dev.sluice.it.answers.AttackBench.assertNoLie;
import static dev.sluice.it.answers.AttackBench.critical;
import static dev.sluice.it.answers.AttackBench.criticalRun;
import static dev.sluice.it.answers.AttackBench.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.answers.AttackBench.Outcome;
import dev.sluice.it.support.Servers;
import dev.sluice.it.support.Waits;
import java.sql.Connection;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Attacks on answers through writes made on another instance (issue 38, item 6, with
 * {@code sluice.stale.share}): two instances of one budget over the real PostgreSQL, sharing
 * over the real Redis. A result instance B kept, or heard from A, before a write that passed
 * through A must not be answered on B afterwards when it may read the written table.
 *
 * <p>No test waits on time: after the write, A keeps a marker read, which A sends after the
 * write's fence (one sending thread; a fence goes before the results of its tick), until B
 * answers the marker; Redis delivers one publisher's messages in order, so B has then applied
 * the fence. (A fence of every table also fences a marker kept on A before B heard the fence:
 * B applies a fence when it hears it. So A keeps the marker again until B answers it.) Two
 * callers on B read the row: the one whose read was kept and another.
 */
class SharedWriteFenceAttackTest {
  private static final String KEY = "it-share-key-0123456789abcdef0123456789";
  private static final String ROW = "select v from atk_sh_rw where id = 1";
  private static final Duration DELIVERY = Duration.ofSeconds(10);
  private static final AtomicInteger NEXT = new AtomicInteger();

  @BeforeEach
  void rows() {
    Servers.postgres().execute(
        "drop table if exists atk_sh_rw cascade", "drop table if exists atk_sh_other cascade",
        "drop table if exists atk_sh_src cascade",
        "create table atk_sh_rw(id int primary key, v text)",
        "insert into atk_sh_rw values (1, 'before')",
        "create table atk_sh_other(id int primary key, v text)",
        "insert into atk_sh_other values (1, 'x')",
        "create or replace procedure atk_sh_proc() language plpgsql as"
            + " $$ begin update atk_sh_rw set v = 'after' where id = 1; end $$",
        "create table atk_sh_src(id int)",
        "create or replace function atk_sh_copy() returns trigger language plpgsql as"
            + " $$ begin update atk_sh_rw set v = 'after' where id = 1; return new; end $$",
        "create trigger atk_sh_copy after insert on atk_sh_src for each row"
            + " execute function atk_sh_copy()");
  }

  private static Properties sharing() {
    Properties p = new Properties();
    p.setProperty("sluice.redis", Servers.redis().uri());
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.share-key", KEY);
    return p;
  }

  /** Waits until both instances of {@code name} listen on its channel. */
  private static void subscribed(String name) {
    String channel = "sluice:" + name + ":answers";
    try (Jedis look = Servers.redis().client()) {
      Waits.until(DELIVERY, "both instances listen on " + channel,
          () -> look.pubsubNumSub(channel).get(channel) >= 2);
    }
  }

  /**
   * B keeps {@code ROW} (or hears it from A, {@code heard}), A runs {@code write}, then two
   * callers of B read {@code ROW} at NORMAL once B heard what A kept after the write: neither may
   * be answered the row as before. Returns what they got.
   */
  private Outcome[] attack(boolean heard, String... write) throws Exception {
    String name = "it-shared-fence-" + NEXT.incrementAndGet();
    String url = Servers.postgres().jdbcUrl();
    try (AttackBench a = new AttackBench(url, name, sharing());
        AttackBench b = new AttackBench(url, name, sharing())) {
      subscribed(name);
      Connection writer = a.connection();
      Connection onA = a.connection();
      Connection reader = b.connection();
      Connection other = b.connection();
      a.trip();
      b.trip();
      for (Connection c : new Connection[] {writer, onA, reader, other}) {
        critical(() -> AttackBench.readText(c, "select 1"));
      }
      if (heard) {
        assertThat(critical(() -> read(onA, ROW)).rows()).isEqualTo("[before]");
        Waits.until(DELIVERY, "b answers the row from a's result",
            () -> read(reader, ROW).answered());
      } else {
        assertThat(critical(() -> read(reader, ROW)).rows()).isEqualTo("[before]");
      }
      criticalRun(writer, write);
      String marker = "select 'kept after the write on " + name + "' as m";
      Waits.until(DELIVERY, "b answers a's marker, kept after the write", () -> {
        try {
          critical(() -> read(onA, marker)); // kept again: a fence of every table fences the
        } catch (java.sql.SQLException e) { // marker kept before b heard it, as it should
          throw new AssertionError(e);
        }
        return read(other, marker).answered();
      });

      Outcome[] got = {read(reader, ROW), read(other, ROW)};

      a.closeFlag();
      b.closeFlag();
      Connection[] victims = {reader, other};
      for (int i = 0; i < 2; i++) {
        Outcome live = read(victims[i], ROW);
        assertNoLie("caller " + (i + 1) + " of b", got[i], live);
      }
      return got;
    }
  }

  @Test
  void update_onA_bIsNotAnsweredItsOwnResultAsBefore() throws Exception {
    attack(false, "update atk_sh_rw set v = 'after' where id = 1");
  }

  @Test
  void update_onA_bIsNotAnsweredTheResultItHeardFromA() throws Exception {
    attack(true, "update atk_sh_rw set v = 'after' where id = 1");
  }

  @Test
  void procedureCall_onA_unknownTables_fencesEveryReadOnB() throws Exception {
    attack(false, "call atk_sh_proc()");
  }

  @Test
  void writeThroughATrigger_onA_fencesTheRowOnB() throws Exception {
    attack(false, "insert into atk_sh_src values (1)");
  }

  @Test
  void aTransactionCommittedOnA_fencesTheRowOnB() throws Exception {
    attack(true, "begin", "update atk_sh_rw set v = 'after' where id = 1", "commit");
  }

  /** The control: a write to another table on A fences nothing on B; the row is answered. */
  @Test
  void aWriteToAnotherTable_onA_leavesTheRowAnsweredOnB() throws Exception {
    Outcome[] got = attack(false, "update atk_sh_other set v = 'y' where id = 1");

    assertThat(got[0].answered()).as("%s", got[0]).isTrue();
    assertThat(got[0].rows()).isEqualTo("[before]");
  }
}
