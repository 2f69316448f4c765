package dev.sluice.bench.stub;

import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/** A connection that keeps the state a pool reads back and prepares stub statements. */
final class StubConnection extends NeutralConnection {
  private boolean autoCommit = true;
  private boolean readOnly;
  private int isolation = TRANSACTION_READ_COMMITTED;
  private int networkTimeout;
  private boolean closed;
  private final DatabaseMetaData metaData = new StubDatabaseMetaData(this);

  @Override
  public DatabaseMetaData getMetaData() {
    return metaData;
  }

  @Override
  public PreparedStatement prepareStatement(String sql) {
    return new StubPreparedStatement(this);
  }

  @Override
  public Statement createStatement() {
    return new StubPreparedStatement(this);
  }

  @Override
  public boolean isValid(int timeoutSeconds) {
    return !closed;
  }

  @Override
  public void setAutoCommit(boolean autoCommit) {
    this.autoCommit = autoCommit;
  }

  @Override
  public boolean getAutoCommit() {
    return autoCommit;
  }

  @Override
  public void setReadOnly(boolean readOnly) {
    this.readOnly = readOnly;
  }

  @Override
  public boolean isReadOnly() {
    return readOnly;
  }

  @Override
  public void setTransactionIsolation(int level) {
    this.isolation = level;
  }

  @Override
  public int getTransactionIsolation() {
    return isolation;
  }

  @Override
  public void setNetworkTimeout(java.util.concurrent.Executor executor, int milliseconds) {
    this.networkTimeout = milliseconds;
  }

  @Override
  public int getNetworkTimeout() {
    return networkTimeout;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper for " + iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
