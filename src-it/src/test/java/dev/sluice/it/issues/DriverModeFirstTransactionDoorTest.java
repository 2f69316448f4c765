package dev.sluice.it.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.Rig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Driver mode under HikariCP with {@code autoCommit=true}: when the first gated call a physical
 * connection ever sees is the application's {@code setAutoCommit(false)} (HikariCP makes none while
 * setting a connection up when its default matches the driver's), the limiter took that call for
 * the pool's own set-up, marked the connection "rests in manual commit", and from then on admitted
 * every transaction on it at its first statement instead of at {@code setAutoCommit(false)}. A
 * refusal there is a refusal inside a transaction: Hibernate's {@code Session.find} swallowed it
 * and returned {@code null} for an existing entity
 * ({@code HibernateTest.findOfExistingEntity_acrossThousandsOfRefusedTransactions_neverReturnsNull}
 * in driver mode). Found by this module; the door must be {@code setAutoCommit(false)} in both
 * modes.
 */
class DriverModeFirstTransactionDoorTest {

  @ParameterizedTest
  @EnumSource(Mode.class)
  void transactionOnConnectionWhoseFirstCallWasATransaction_isRefusedAtSetAutoCommit(Mode mode)
      throws Exception {
    try (Rig rig = Rig.of(mode, "first-door", 0.01, 1, Scope.STATEMENT, 1)) {
      try (Connection c = rig.dataSource().getConnection()) {
        c.setAutoCommit(false); // the physical connection's first gated call: a transaction
        selectOne(c);
        c.commit();
        c.setAutoCommit(true);
      }
      rig.openFlag();
      try (Connection c = rig.dataSource().getConnection()) {
        selectOne(c); // spends the only permit
      }

      String refusedAt = "nowhere";
      try (Connection c = rig.dataSource().getConnection()) {
        try {
          c.setAutoCommit(false);
        } catch (RateLimitExceededException e) {
          refusedAt = "setAutoCommit(false)";
        }
        if (refusedAt.equals("nowhere")) {
          try {
            selectOne(c);
          } catch (RateLimitExceededException e) {
            refusedAt = "the transaction's first statement";
          }
          c.rollback();
          c.setAutoCommit(true);
        }
      }
      assertThat(refusedAt).isEqualTo("setAutoCommit(false)");
    }
  }

  private static void selectOne(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("select 1");
    }
  }
}
