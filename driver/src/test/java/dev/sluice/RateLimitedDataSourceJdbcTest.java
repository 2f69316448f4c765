package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbc.JdbcConnection;
import org.h2.jdbc.JdbcStatement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wrappers end to end: a {@link RateLimitedDataSource} over HikariCP over H2 in memory. The
 * budget is 0.001 permits a second with a burst of 1, so after one admission nothing more is
 * admitted for the length of any test.
 */
class RateLimitedDataSourceJdbcTest {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private HikariDataSource pool;
  private RateLimitedDataSource dataSource;
  private final BreakerFlag.Manual flag = BreakerFlag.manual();

  /** Limiting stops as the flag closes: these tests are about the doors, not the recovery. */
  private static Properties noRecovery() {
    Properties p = new Properties();
    p.setProperty("sluice.recovery.settle", "0");
    return p;
  }

  private RateLimitedDataSource limited(Scope scope, boolean poolAutoCommit) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:mem:wrappers" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
    config.setMaximumPoolSize(2);
    config.setMinimumIdle(1);
    config.setAutoCommit(poolAutoCommit);
    config.setPoolName("wrappers-test");
    pool = new HikariDataSource(config);
    dataSource = RateLimitedDataSource.builder(pool).name("users-db").budget(0.001).burst(1)
        .scope(scope).breakerFlag(flag).properties(noRecovery()).build();
    try (Connection connection = pool.getConnection();
        Statement ddl = connection.createStatement()) {
      ddl.execute("create table t(id int, body clob)");
      ddl.execute("insert into t values (1, 'hello')");
      if (!poolAutoCommit) {
        connection.commit();
      }
    }
    return dataSource;
  }

  @AfterEach
  void close() throws Exception {
    if (dataSource != null) {
      dataSource.close();
    }
  }

  @Test
  void backReferences_onARealDriverUnderAPool_leadBackToOurWrappers() throws SQLException {
    try (Connection connection = limited(Scope.STATEMENT, true).getConnection()) {
      Statement statement = connection.createStatement();
      ResultSet rows = statement.executeQuery("select id from t");
      PreparedStatement prepared = connection.prepareStatement("select id from t");
      DatabaseMetaData metaData = connection.getMetaData();

      assertThat(statement.getConnection()).isSameAs(connection);
      assertThat(rows.getStatement()).isSameAs(statement);
      assertThat(prepared.executeQuery().getStatement()).isSameAs(prepared);
      assertThat(metaData.getConnection()).isSameAs(connection);
      ResultSet tables = metaData.getTables(null, null, "T", null);
      assertThat(tables.getClass().getPackageName()).isEqualTo("dev.sluice.internal.jdbc");
      Statement tablesStatement = tables.getStatement();
      if (tablesStatement != null) {
        assertThat(tablesStatement.getConnection()).isSameAs(connection);
      }
      assertThat(metaData.getURL()).startsWith("jdbc:h2:mem:wrappers");
    }
  }

  @Test
  void currentResultSet_askedTwice_isOneWrapper() throws SQLException {
    try (Connection connection = limited(Scope.STATEMENT, true).getConnection();
        Statement statement = connection.createStatement()) {
      assertThat(statement.execute("select id from t")).isTrue();
      ResultSet first = statement.getResultSet();
      assertThat(statement.getResultSet()).isSameAs(first);
      assertThat(first.getStatement()).isSameAs(statement);
    }
  }

  @Test
  void unwrap_reachesTheDriversObjectsThroughThePool() throws SQLException {
    try (Connection connection = limited(Scope.STATEMENT, true).getConnection()) {
      assertThat(connection.unwrap(Connection.class)).isSameAs(connection);
      assertThat(connection.isWrapperFor(JdbcConnection.class)).isTrue();
      assertThat(connection.unwrap(JdbcConnection.class)).isInstanceOf(JdbcConnection.class);
      Statement statement = connection.createStatement();
      assertThat(statement.unwrap(Statement.class)).isSameAs(statement);
      assertThat(statement.unwrap(JdbcStatement.class)).isInstanceOf(JdbcStatement.class);
    }
  }

  @Test
  void lobs_areTheDriversOwn() throws SQLException {
    try (Connection connection = limited(Scope.STATEMENT, true).getConnection();
        ResultSet rows = connection.createStatement().executeQuery("select body from t")) {
      rows.next();
      Clob body = rows.getClob(1);
      assertThat(body.getClass().getName()).startsWith("org.h2.");
      assertThat(body.getSubString(1, 5)).isEqualTo("hello");
    }
  }

  @Test
  void connectionScope_rejectedCheckout_takesNothingFromThePool() throws SQLException {
    RateLimitedDataSource limited = limited(Scope.CONNECTION, true);
    flag.trip();
    Connection admitted = limited.getConnection();
    int totalBefore = pool.getHikariPoolMXBean().getTotalConnections();
    admitted.close();

    assertThrows(RateLimitExceededException.class, limited::getConnection);

    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(totalBefore);
    assertThat(limited.stats().admitted()).isEqualTo(1);
    assertThat(limited.stats().rejected()).isEqualTo(1);
  }

  @Test
  void connectionScope_statementsAndTransactions_areNeverRefused() throws SQLException {
    RateLimitedDataSource limited = limited(Scope.CONNECTION, true);
    flag.trip();
    try (Connection connection = limited.getConnection();
        Statement statement = connection.createStatement()) {
      for (int i = 0; i < 5; i++) {
        statement.executeQuery("select id from t").close();
      }
      connection.setAutoCommit(false);
      statement.executeUpdate("insert into t values (2, 'x')");
      connection.commit();
    }
    assertThat(limited.stats().admitted()).isEqualTo(1);
    assertThat(limited.stats().rejected()).isZero();
  }

  @Test
  void stats_countOnlyWhileLimiting() throws SQLException {
    RateLimitedDataSource limited = limited(Scope.STATEMENT, true);
    try (Connection connection = limited.getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeQuery("select id from t").close(); // flag closed: uncounted
      assertThat(limited.stats().limiting()).isFalse();

      flag.trip();
      statement.executeQuery("select id from t").close();
      assertThrows(RateLimitExceededException.class, () -> statement.executeQuery("select 1"));
      assertThrows(RateLimitExceededException.class, () -> statement.execute("select 1"));

      Stats stats = limited.stats();
      assertThat(stats.limiting()).isTrue();
      assertThat(stats.admitted()).isEqualTo(1);
      assertThat(stats.rejected()).isEqualTo(2);
      assertThat(stats.forced()).isZero();

      flag.reset();
      statement.executeQuery("select id from t").close();
      assertThat(limited.stats().admitted()).isEqualTo(1);
    }
  }

  @Test
  void poolAutoCommitFalse_firstStatementIsTheDoor_laterOnesAreCharged() throws SQLException {
    RateLimitedDataSource limited = limited(Scope.STATEMENT, false);
    flag.trip();
    try (Connection connection = limited.getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("insert into t values (2, 'x')"); // the door: the only permit
      statement.executeUpdate("insert into t values (3, 'x')");
      connection.commit();
      assertThrows(RateLimitExceededException.class,
          () -> statement.executeUpdate("insert into t values (4, 'x')"));
      assertThat(connection.isValid(1)).isTrue();
      connection.rollback();
    }
    assertThat(limited.stats().admitted()).isEqualTo(1);
    assertThat(limited.stats().forced()).isEqualTo(1);
    assertThat(limited.stats().rejected()).isEqualTo(1);
  }

  @Test
  void poolAutoCommitTrue_refusedDoor_leavesThePooledConnectionClean() throws SQLException {
    RateLimitedDataSource limited = limited(Scope.STATEMENT, true);
    flag.trip();
    try (Connection first = limited.getConnection()) {
      first.createStatement().executeQuery("select id from t").close(); // the only permit
      assertThrows(RateLimitExceededException.class, () -> first.setAutoCommit(false));
      assertThat(first.getAutoCommit()).isTrue();
    }
    flag.reset();
    try (Connection again = limited.getConnection();
        Statement statement = again.createStatement()) {
      assertThat(again.getAutoCommit()).isTrue();
      statement.executeUpdate("insert into t values (2, 'x')");
    }
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
  }
}
