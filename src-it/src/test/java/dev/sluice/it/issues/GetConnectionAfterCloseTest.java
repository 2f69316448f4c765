package dev.sluice.it.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.Rig;
import java.sql.SQLNonTransientConnectionException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, item 13: after {@code RateLimitedDataSource.close()} over HikariCP in
 * {@code CONNECTION} scope, {@code getConnection()} took a permit, then the pool said it was
 * closed; the next call failed with a rate-limit error, "retry in 1000000 ms", which sends an
 * operator after the wrong problem. It now fails with "closed", every time, taking nothing.
 */
class GetConnectionAfterCloseTest {

  @Test
  void getConnection_afterClose_saysClosedEveryTime_andTakesNoPermit() {
    Rig rig = Rig.of(Mode.DECORATOR, "after-close", 0.001, 1, Scope.CONNECTION, 1);
    DataSource ds = rig.dataSource();
    rig.close(); // closes the decorator and the pool under it

    for (int i = 0; i < 3; i++) {
      SQLNonTransientConnectionException e =
          assertThrows(SQLNonTransientConnectionException.class, ds::getConnection);
      assertThat(e.getMessage()).contains("is closed: it hands out no more connections");
    }
    assertThat(((RateLimitedDataSource) ds).stats().admitted()).isZero();
  }
}
