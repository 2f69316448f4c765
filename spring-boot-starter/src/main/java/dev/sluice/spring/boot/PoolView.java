package dev.sluice.spring.boot;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool as Sluice sees it in a Spring application: every call reaches the pool, but it is not
 * {@link AutoCloseable}, so closing Sluice leaves the pool to Spring. Spring destroys a bean
 * through the object its factory method made, not through what a post-processor put in front of
 * it: it closes the pool itself, and the starter closes Sluice just before
 * ({@code SluiceDataSourceWrapper.postProcessBeforeDestruction}). The pool is closed once.
 *
 * <p>This class is threadsafe if the pool is.
 */
final class PoolView implements DataSource {
  private final DataSource pool;

  PoolView(DataSource pool) {
    this.pool = pool;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return pool.getConnection(username, password);
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return pool.getParentLogger();
  }

  /** The pool itself for any type it is ({@code HikariDataSource}); else the pool's answer. */
  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(pool) ? iface.cast(pool) : pool.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(pool) || pool.isWrapperFor(iface);
  }

  @Override
  public String toString() {
    return pool.toString();
  }
}
