package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * {@link Fences} on a fake clock: a result is answered only when no write that may change it
 * ended at or after its read began.
 */
class FencesTest {
  private static final TableReach CATALOG = TableReach.of("atk_view", "atk_src", "atk_bump");

  private static Kept kept(String sql, long startedNanos) throws SQLException {
    ReadKey key = ReadKey.of(sql, null, 0, null, null, null, "session");
    return new Kept(key, KeptCodecTest.columns(1), H2Dialect.INSTANCE, new Object[] {1},
        new String[] {"1"}, new byte[][] {null}, 1, 100, startedNanos);
  }

  @Test
  void aWriteToATableTheReadNames_fencesIt_aLaterReadIsAnswered() throws SQLException {
    Fences fences = new Fences();
    fences.learn(CATALOG);
    Kept before = kept("SELECT v FROM atk_rw WHERE id = 1", 100);
    Kept other = kept("SELECT v FROM atk_other", 100);
    assertThat(fences.admits(before, null)).isTrue();

    fences.wrote(new String[] {"atk_rw"}, 150);

    assertThat(fences.admits(before, null)).isFalse();
    assertThat(fences.admits(other, null)).as("another table").isTrue();
    assertThat(fences.admits(kept("SELECT v FROM atk_rw", 150), null))
        .as("a read that began as the write ended").isFalse();
    assertThat(fences.admits(kept("SELECT v FROM ATK_RW", 151), null)).isTrue();
  }

  @Test
  void aViewAFunctionOfTheApplicationOrAnUnknownCatalog_readsEveryTable() throws SQLException {
    Fences fences = new Fences();
    fences.learn(CATALOG);
    fences.wrote(new String[] {"atk_rw"}, 150);
    assertThat(fences.admits(kept("SELECT v FROM atk_view", 100), null)).isFalse();
    assertThat(fences.admits(kept("SELECT atk_bump(1)", 100), null)).isFalse();
    assertThat(fences.admits(kept("SELECT v FROM atk_other", 100), null)).isTrue();

    Fences unknown = new Fences();
    unknown.wrote(new String[] {"atk_rw"}, 150);
    assertThat(unknown.admits(kept("SELECT v FROM atk_other", 100), null))
        .as("no catalog: every write fences every read").isFalse();
  }

  @Test
  void aTableWhoseWritesReachOthers_orUnknownTables_fenceAll() throws SQLException {
    Fences fences = new Fences();
    fences.learn(CATALOG);
    fences.wrote(new String[] {"atk_src"}, 150); // a trigger writes elsewhere
    assertThat(fences.admits(kept("SELECT v FROM atk_other", 100), null)).isFalse();
    assertThat(fences.admits(kept("SELECT v FROM atk_other", 160), null)).isTrue();
    fences.wrote(null, 200);
    assertThat(fences.admits(kept("SELECT v FROM atk_other", 160), null)).isFalse();
  }

  @Test
  void aSession_isNeverAnsweredAResultOlderThanItsOwnLastWrite() throws SQLException {
    Fences fences = new Fences();
    fences.learn(CATALOG);
    Session writer = new Session();
    writer.wrote(150);
    Kept kept = kept("SELECT v FROM atk_other", 100);
    assertThat(fences.admits(kept, writer)).isFalse();
    assertThat(fences.admits(kept, new Session())).isTrue();
    assertThat(fences.admits(kept("SELECT v FROM atk_other", 151), writer)).isTrue();
  }

  @Test
  void aSessionsFingerprint_changesWithEachSet_andIsForgottenInTheNextEpisode() {
    Session s = new Session();
    assertThat(s.fingerprint(1)).isNull();
    s.known(1, "base");
    assertThat(s.fingerprint(1)).isEqualTo("base");
    s.set(1, "app.tenant", "by SET to 'a'");
    String a = s.fingerprint(1);
    s.set(1, "app.tenant", "by SET to 'b'");
    assertThat(s.fingerprint(1)).isNotEqualTo(a).startsWith("base").contains("'b'");
    assertThat(s.fingerprint(2)).as("another episode").isNull();
    s.unknown();
    assertThat(s.fingerprint(1)).isNull();
  }
}
