package dev.sluice.bench.stub;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * A JDBC driver for {@code jdbc:stub:} URLs that does no work at all: its connections hand out
 * statements whose queries return one row holding {@code 1}. With it under HikariCP, what a
 * benchmark measures is the pool and the wrappers, not a database (as HikariCP's own benchmarks
 * do with their {@code jdbc:stub}).
 *
 * <p>This class is threadsafe; each connection is meant for one thread at a time, as JDBC's are.
 */
public final class StubDriver implements Driver {
  /** The URL prefix this driver accepts. */
  public static final String PREFIX = "jdbc:stub:";

  static {
    try {
      DriverManager.registerDriver(new StubDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public Connection connect(String url, Properties info) {
    return acceptsURL(url) ? new StubConnection() : null;
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 1;
  }

  @Override
  public int getMinorVersion() {
    return 0;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging here");
  }
}
