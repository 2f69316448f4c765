package dev.sluice.bench.stub;

import java.sql.Connection;
import java.sql.ResultSet;

/** A statement whose every query returns a fresh one-row result set, as a real driver's does. */
final class StubPreparedStatement extends NeutralPreparedStatement {
  private final Connection connection;
  private boolean closed;

  StubPreparedStatement(Connection connection) {
    this.connection = connection;
  }

  @Override
  public ResultSet executeQuery() {
    return new StubResultSet(this);
  }

  @Override
  public ResultSet executeQuery(String sql) {
    return new StubResultSet(this);
  }

  @Override
  public boolean execute() {
    return true;
  }

  @Override
  public boolean execute(String sql) {
    return true;
  }

  @Override
  public int executeUpdate() {
    return 1;
  }

  @Override
  public ResultSet getResultSet() {
    return new StubResultSet(this);
  }

  @Override
  public int getUpdateCount() {
    return -1;
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }
}
