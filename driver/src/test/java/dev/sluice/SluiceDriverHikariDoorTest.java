package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The door of a transaction in driver mode under HikariCP 7.1.0. With its default
 * {@code autoCommit=true} the application's {@code setAutoCommit(false)} is the door, on the
 * physical connection's first checkout and on every later one. With {@code autoCommit=false} and
 * {@code sluice.pool-auto-commit=false} the pool's set-up is no door, and each transaction pays at
 * its first statement.
 */
class SluiceDriverHikariDoorTest {

  @Test
  void hikariAutoCommitPool_everySwitchToManualIsTheDoor() throws SQLException {
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

  @Test
  void hikariManualPool_setUpIsNoDoorAndTransactionsPayAtTheirFirstStatement()
      throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setPoolName("manual-door-pool");
    config.setMaximumPoolSize(1);
    config.setAutoCommit(false);
    config.setJdbcUrl("jdbc:sluice:h2:mem:manualdoor;sluice.budget=0.001;sluice.burst=6;"
        + "sluice.pool-auto-commit=false;sluice.name=manual-door");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      for (int i = 0; i < 2; i++) {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          for (int j = 0; j < 3; j++) {
            s.execute("SELECT 1");
          }
          c.commit();
        }
      }
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.execute("SELECT 1"))
            .isInstanceOf(RateLimitExceededException.class);
        c.rollback();
      }
      assertThat(SluiceDriver.stats("manual-door").orElseThrow().admitted()).isEqualTo(2);
    }
  }
}
