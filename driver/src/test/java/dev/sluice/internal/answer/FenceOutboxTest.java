package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link FenceOutbox}: the fences waiting for the sending thread merge without loss (a name
 * once, every table over any name), are taken once, and never grow past their bound; what
 * travels is what this instance fenced, every table when its catalog says a write reaches more.
 */
class FenceOutboxTest {
  private static final TableReach CATALOG = TableReach.of("atk_view", "atk_src", "atk_bump");

  @Test
  void names_mergeAndAreTakenOnce() {
    FenceOutbox outbox = new FenceOutbox();
    assertThat(outbox.take()).isNull();
    outbox.wrote(new String[] {"orders", "items"});
    outbox.wrote(new String[] {"orders"});
    assertThat(outbox.take()).containsExactlyInAnyOrder("orders", "items");
    assertThat(outbox.take()).as("taken").isNull();
  }

  @Test
  void everyTable_coversTheNames_andMoreNamesThanTheBoundAreEveryTable() {
    FenceOutbox outbox = new FenceOutbox();
    outbox.wrote(new String[] {"orders"});
    outbox.wrote(null);
    assertThat(outbox.take()).isSameAs(FenceOutbox.ALL);
    assertThat(outbox.take()).isNull();
    for (int i = 0; i <= FenceOutbox.MAX_TABLES; i++) {
      outbox.wrote(new String[] {"t" + i});
    }
    assertThat(outbox.take()).isSameAs(FenceOutbox.ALL);
  }

  @Test
  void whatTravels_isEveryTable_whenTheCatalogIsUnknownOrTheWriteReachesOthers() {
    String[] rw = {"atk_rw"};
    assertThat(FenceOutbox.reach(rw, CATALOG)).containsExactly("atk_rw");
    assertThat(FenceOutbox.reach(new String[] {"atk_rw", "atk_src"}, CATALOG))
        .as("a trigger's table").isNull();
    assertThat(FenceOutbox.reach(rw, TableReach.UNKNOWN)).isNull();
    assertThat(FenceOutbox.reach(null, CATALOG)).isNull();
  }
}
