package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testsupport.HashTwins;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a text is, judged once per text by the budget's answers ({@link Texts}): the
 * same as judging it each time, for each text on its own, within its bounds.
 */
class TextsTest {
  private static final List<String> TEXTS = List.of(
      "select id, name from items where id = ?",
      "select v from t for update",
      "select current_setting('app.tenant')",
      "select set_config('app.tenant', ?, false)",
      "SELECT pg_catalog.set_config('App.Tenant', 'x', false);",
      "insert into t values (1)",
      "select 1; delete from t",
      "select 'unclosed",
      "");

  @Test
  void aTextsShape_isWhatJudgingItNowGives_seenOnceOrTwice() {
    Texts shapes = new Texts();
    for (int round = 0; round < 2; round++) {
      for (String sql : TEXTS) {
        Texts.Shape shape = shapes.of(sql);
        assertThat(shape.read()).as(sql).isEqualTo(ReadText.isRead(sql));
        assertThat(shape.touchesSession()).as(sql).isEqualTo(SessionText.touchesSession(sql));
        assertThat(shape.setConfig() != null).as(sql)
            .isEqualTo(SessionText.setConfigOf(sql) != null);
      }
    }
    assertThat(shapes.size()).isEqualTo(TEXTS.size());
    assertThat(shapes.of(null)).isEqualTo(Texts.Shape.NONE);
    assertThat(Texts.Shape.NONE.read()).isFalse();
  }

  /**
   * The attack on a cache keyed by hash: a text that locks, or reads the session's settings,
   * made to share its hash with a plain read judged before it, keeps its own judgement.
   */
  @Test
  void aTextSharingAReadsHash_isJudgedOnItsOwn() {
    Texts shapes = new Texts();
    String read = "select v from docs order by v";
    String locks = HashTwins.twin("select v from docs order by v for update", read);
    String session = HashTwins.twin("select current_setting('app.tenant')", read);
    String setting = HashTwins.twin("select set_config('app.tenant', 'b', false)", read);
    assertThat(List.of(locks.hashCode(), session.hashCode(), setting.hashCode()))
        .containsOnly(read.hashCode());

    assertThat(shapes.of(read).read()).isTrue();

    assertThat(shapes.of(locks).read()).isFalse();
    assertThat(shapes.of(session).touchesSession()).isTrue();
    assertThat(shapes.of(setting).setConfig()).isNotNull();
    assertThat(shapes.of(read).setConfig()).isNull();
  }

  @Test
  void pastItsCountOfTexts_theCacheEmpties_andJudgesAgain() {
    Texts shapes = new Texts();
    for (int i = 0; i < Texts.MAX_ENTRIES; i++) {
      shapes.of("select " + i);
    }
    assertThat(shapes.size()).isEqualTo(Texts.MAX_ENTRIES);

    assertThat(shapes.of("select v from t for update").read()).isFalse();

    assertThat(shapes.size()).isEqualTo(1);
    assertThat(shapes.of("select 1").read()).isTrue();
  }

  /**
   * Threads judging many texts at once, past the count so that the map empties under them: each
   * finds its text's own shape, and the map holds at most one more text per thread.
   */
  @Test
  void manyThreadsAtOnce_eachFindsItsTextsOwnShape_withinTheBound() throws Exception {
    Texts texts = new Texts();
    int threads = 4;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          int wrong = 0;
          for (int i = 0; i < 3 * Texts.MAX_ENTRIES; i++) {
            int n = (i * 7 + seed) % (2 * Texts.MAX_ENTRIES);
            String sql = n % 2 == 0 ? "select " + n : "select " + n + " for update";
            wrong += texts.of(sql).read() == (n % 2 == 0) ? 0 : 1;
          }
          return wrong;
        }));
      }
      for (java.util.concurrent.Future<Integer> f : done) {
        assertThat(f.get()).as("texts judged as another text").isZero();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(texts.size()).isLessThanOrEqualTo(Texts.MAX_ENTRIES + threads);
  }

  @Test
  void pastItsCharacters_theCacheEmpties() {
    Texts shapes = new Texts();
    String big = "select '" + "x".repeat(1 << 20) + "'";
    for (int i = 0; i < 6; i++) {
      shapes.of(big + " as c" + i);
      assertThat(shapes.chars()).isLessThanOrEqualTo(Texts.MAX_CHARS);
    }
    assertThat(shapes.size()).isBetween(1, 4);
  }
}
