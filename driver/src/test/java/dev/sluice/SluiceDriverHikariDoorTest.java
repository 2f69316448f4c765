package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The door of a transaction in driver mode under HikariCP 7.1.0 with its default
 * {@code autoCommit=true}: the application's {@code setAutoCommit(false)} is the door, on the
 * physical connection's first checkout and on every later one.
 *
 * <p>Fails today (tried against the {@code wrappers} branch): HikariCP 7.1.0 calls
 * {@code setAutoCommit} on a new connection only when the pool's setting differs from the
 * driver's, so {@code Limiter} takes the application's first switch to manual for the pool's
 * set-up, marks the connection {@code RESTS_MANUAL}, and from then on admits every transaction on
 * it at its first statement. Disabled until the lead settles the fix; see notes/driver.md.
 */
class SluiceDriverHikariDoorTest {

  @Test
  @Disabled("Limiter's driver-mode door rule takes the first switch to manual for pool set-up;"
      + " see notes/driver.md")
  void hikariAutoCommitPool_everySwitchToManualIsTheDoor() throws SQLException {
    SluiceDriverPostgresTest.assumeWrappersLanded();
    HikariConfig config = new HikariConfig();
    config.setPoolName("door-pool");
    config.setMaximumPoolSize(1);
    config.setJdbcUrl("jdbc:sluice:h2:mem:door;sluice.budget=0.001;sluice.burst=6;"
        + "sluice.name=door");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      transaction(pool); // first checkout of the physical connection: 3 permits, taken at the switch
      transaction(pool); // the second: 3 more, the bucket is empty
      try (Connection c = pool.getConnection()) {
        assertThatThrownBy(() -> c.setAutoCommit(false))
            .isInstanceOf(RateLimitExceededException.class);
      }
      assertThat(SluiceDriver.stats("door").orElseThrow().admitted()).isEqualTo(2);
    }
  }

  /** A transaction of three statements: admitted at its start, never cut in half. */
  private static void transaction(HikariDataSource pool) throws SQLException {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (int i = 0; i < 3; i++) {
        s.execute("SELECT 1");
      }
      c.commit();
    }
  }
}
