package dev.sluice.bench;

import com.p6spy.engine.spy.P6DataSource;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.bench.stub.StubDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import net.ttddyy.dsproxy.support.ProxyDataSourceBuilder;

/**
 * The data sources the JDBC benchmarks compare, all over one HikariCP pool: the pool itself, Sluice
 * with its flag closed, Sluice with its flag open and a budget it never reaches (every call takes a
 * permit), datasource-proxy with no listener, and P6Spy with its logging module off.
 */
final class Targets {
  /** The {@code @Param} values, in the order the tables show them. */
  static final String RAW = "raw";
  static final String SLUICE_CLOSED = "sluice-closed";
  static final String SLUICE_OPEN = "sluice-open";
  static final String DATASOURCE_PROXY = "datasource-proxy";
  static final String P6SPY = "p6spy";

  /**
   * Not in the tables: the raw pool plus one {@code getAutoCommit()} per checkout, which is what
   * Sluice's connection wrapper asks the driver for each checkout. Run it by name to price that
   * call on a driver: {@code -p target=raw,raw+getAutoCommit}.
   */
  static final String RAW_PLUS_GET_AUTO_COMMIT = "raw+getAutoCommit";

  /** Far above anything the machine can reach: the open flag admits every call. */
  static final double UNREACHABLE_BUDGET = 1e9;

  static {
    // P6Spy reads these once, when its options first load: only its JDBC layer, no log module,
    // no spy.log file, no MBeans.
    System.setProperty("p6spy.config.modulelist", "com.p6spy.engine.spy.P6SpyFactory");
    System.setProperty("p6spy.config.jmx", "false");
  }

  private Targets() {}

  /** A pool of {@code size} connections to an H2 in-memory database with a small keyed table. */
  static HikariDataSource h2Pool(int size) throws SQLException {
    HikariDataSource pool = pool("jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1", null, size);
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("create table if not exists item(id int primary key, name varchar(32))");
      s.execute("merge into item key(id) select x, 'item-' || x from system_range(1, 64)");
    }
    return pool;
  }

  /** A pool of {@code size} connections from the stub driver: no database work at all. */
  static HikariDataSource stubPool(int size) {
    return pool(StubDriver.PREFIX + "bench", StubDriver.class.getName(), size);
  }

  private static HikariDataSource pool(String url, String driverClass, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    if (driverClass != null) {
      config.setDriverClassName(driverClass);
    }
    config.setPoolName("bench");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setAutoCommit(true);
    return new HikariDataSource(config);
  }

  /** {@code pool} as seen through {@code target}. */
  static DataSource over(String target, DataSource pool) {
    switch (target) {
      case RAW:
        return pool;
      case SLUICE_CLOSED:
        return RateLimitedDataSource.builder(pool).name("bench").budget(UNREACHABLE_BUDGET)
            .breakerFlag(BreakerFlag.manual()).build();
      case SLUICE_OPEN:
        return RateLimitedDataSource.builder(pool).name("bench").budget(UNREACHABLE_BUDGET)
            .breakerFlag(BreakerFlag.alwaysOpen()).build();
      case RAW_PLUS_GET_AUTO_COMMIT:
        return new NoConnections() {
          @Override
          public Connection getConnection() throws SQLException {
            Connection connection = pool.getConnection();
            connection.getAutoCommit();
            return connection;
          }
        };
      case DATASOURCE_PROXY:
        return ProxyDataSourceBuilder.create(pool).name("bench").build();
      case P6SPY:
        return new P6DataSource(pool);
      default:
        throw new IllegalArgumentException("target must be one of raw, sluice-closed, sluice-open,"
            + " datasource-proxy, p6spy, but was " + target);
    }
  }
}
