package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLWarning;
import org.junit.jupiter.api.Test;

class StaleResultWarningTest {

  @Test
  void aRecentAnswer_saysHowOldAndWhy() {
    SQLWarning w = StaleResultWarning.STALE.stale("orders", 1234, false);
    assertThat((Object) w).isInstanceOf(StaleResultWarning.class);
    StaleResultWarning stale = (StaleResultWarning) w;
    assertThat(stale.ageMillis()).isEqualTo(1234);
    assertThat(stale.joined()).isFalse();
    assertThat(stale.budgetName()).isEqualTo("orders");
    assertThat(stale.getMessage()).isEqualTo("stale result: answered from an identical read the"
        + " database answered 1234 ms ago, instead of refusing the read: budget 'orders' is"
        + " limiting (sluice.stale.max-age)");
    assertThat(stale.getSQLState()).isEqualTo("01000");
    assertThat(stale.getErrorCode()).isZero();
    assertThat(stale.getStackTrace()).isEmpty();
  }

  @Test
  void aJoinedAnswer_saysItJoined() {
    StaleResultWarning stale = (StaleResultWarning) StaleResultWarning.STALE.stale("o", 3, true);
    assertThat(stale.joined()).isTrue();
    assertThat(stale.getMessage()).startsWith("stale result: joined an identical read in flight,"
        + " which the database answered 3 ms ago");
  }
}
