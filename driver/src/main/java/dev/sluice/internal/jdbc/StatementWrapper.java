package dev.sluice.internal.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * A statement handed out by a {@link ConnectionWrapper}: every JDBC 4.3 method delegates to the
 * driver's statement. Each execution ({@code execute*}, {@code executeLarge*}, batches) first
 * reports to the connection, whose gate admits, charges or refuses it; a refused call never
 * reaches the driver and leaves the statement usable. {@code getConnection()} returns the
 * connection wrapper, and the result sets returned are wrapped so that their
 * {@code getStatement()} returns this wrapper.
 *
 * <p>Identity is {@link Object}'s (see {@link ConnectionWrapper}). Like the driver's statement,
 * it is meant for one thread at a time; it holds no lock. The prepared and callable wrappers
 * extend it, adding their interfaces' methods: every {@code Statement} method is written once.
 */
sealed class StatementWrapper implements Statement permits PreparedStatementWrapper {
  final ConnectionWrapper connection;
  final Statement delegate;
  /** The result set last handed out, so asking twice for the same one gives the same wrapper. */
  private ResultSetWrapper resultSet;

  StatementWrapper(ConnectionWrapper connection, Statement delegate) {
    this.connection = connection;
    this.delegate = delegate;
  }

  static StatementWrapper of(ConnectionWrapper connection, Statement raw) {
    return raw == null ? null : new StatementWrapper(connection, raw);
  }

  /**
   * Closes the driver's statement. No flag of our own: JDBC makes closing a closed statement a
   * no-op, and one field less keeps the wrapper at 24 bytes.
   */
  @Override
  public void close() throws SQLException {
    delegate.close();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return Wrappers.unwrap(this, delegate, iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return Wrappers.isWrapperFor(this, delegate, iface);
  }

  @Override
  public String toString() {
    return Wrappers.describe(this, delegate);
  }

  /** Wraps a result set of this statement, reusing the wrapper when the driver repeats itself. */
  final ResultSet resultSet(ResultSet raw) {
    resultSet = ResultSetWrapper.reuse(resultSet, connection, this, raw);
    return resultSet;
  }

  // --- Statement ---

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return resultSet(delegate.executeQuery(sql));
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeUpdate(sql);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public int getMaxFieldSize() throws SQLException {
    return delegate.getMaxFieldSize();
  }

  @Override
  public void setMaxFieldSize(int max) throws SQLException {
    delegate.setMaxFieldSize(max);
  }

  @Override
  public int getMaxRows() throws SQLException {
    return delegate.getMaxRows();
  }

  @Override
  public void setMaxRows(int max) throws SQLException {
    delegate.setMaxRows(max);
  }

  @Override
  public void setEscapeProcessing(boolean enable) throws SQLException {
    delegate.setEscapeProcessing(enable);
  }

  @Override
  public int getQueryTimeout() throws SQLException {
    return delegate.getQueryTimeout();
  }

  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    delegate.setQueryTimeout(seconds);
  }

  @Override
  public void cancel() throws SQLException {
    delegate.cancel();
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    return delegate.getWarnings();
  }

  @Override
  public void clearWarnings() throws SQLException {
    delegate.clearWarnings();
  }

  @Override
  public void setCursorName(String name) throws SQLException {
    delegate.setCursorName(name);
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.execute(sql);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    return resultSet(delegate.getResultSet());
  }

  @Override
  public int getUpdateCount() throws SQLException {
    return delegate.getUpdateCount();
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    return delegate.getMoreResults();
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    delegate.setFetchDirection(direction);
  }

  @Override
  public int getFetchDirection() throws SQLException {
    return delegate.getFetchDirection();
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    delegate.setFetchSize(rows);
  }

  @Override
  public int getFetchSize() throws SQLException {
    return delegate.getFetchSize();
  }

  @Override
  public int getResultSetConcurrency() throws SQLException {
    return delegate.getResultSetConcurrency();
  }

  @Override
  public int getResultSetType() throws SQLException {
    return delegate.getResultSetType();
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    delegate.addBatch(sql);
  }

  @Override
  public void clearBatch() throws SQLException {
    delegate.clearBatch();
  }

  @Override
  public int[] executeBatch() throws SQLException {
    int held = connection.beforeStatement();
    try {
      return delegate.executeBatch();
    } catch (SQLException e) {
      held = connection.afterStatement(held, null, e);
      throw e;
    } finally {
      connection.afterStatement(held, null, null);
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    return connection;
  }

  @Override
  public boolean getMoreResults(int current) throws SQLException {
    return delegate.getMoreResults(current);
  }

  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    return resultSet(delegate.getGeneratedKeys());
  }

  @Override
  public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeUpdate(sql, autoGeneratedKeys);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeUpdate(sql, columnIndexes);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public int executeUpdate(String sql, String[] columnNames) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeUpdate(sql, columnNames);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.execute(sql, autoGeneratedKeys);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public boolean execute(String sql, int[] columnIndexes) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.execute(sql, columnIndexes);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public boolean execute(String sql, String[] columnNames) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.execute(sql, columnNames);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    return delegate.getResultSetHoldability();
  }

  @Override
  public boolean isClosed() throws SQLException {
    return delegate.isClosed();
  }

  @Override
  public void setPoolable(boolean poolable) throws SQLException {
    delegate.setPoolable(poolable);
  }

  @Override
  public boolean isPoolable() throws SQLException {
    return delegate.isPoolable();
  }

  @Override
  public void closeOnCompletion() throws SQLException {
    delegate.closeOnCompletion();
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    return delegate.isCloseOnCompletion();
  }

  @Override
  public long getLargeUpdateCount() throws SQLException {
    return delegate.getLargeUpdateCount();
  }

  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    delegate.setLargeMaxRows(max);
  }

  @Override
  public long getLargeMaxRows() throws SQLException {
    return delegate.getLargeMaxRows();
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    int held = connection.beforeStatement();
    try {
      return delegate.executeLargeBatch();
    } catch (SQLException e) {
      held = connection.afterStatement(held, null, e);
      throw e;
    } finally {
      connection.afterStatement(held, null, null);
    }
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeLargeUpdate(sql);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeLargeUpdate(sql, autoGeneratedKeys);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeLargeUpdate(sql, columnIndexes);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
    int held = connection.beforeStatement(sql);
    try {
      return delegate.executeLargeUpdate(sql, columnNames);
    } catch (SQLException e) {
      held = connection.afterStatement(held, sql, e);
      throw e;
    } finally {
      connection.afterStatement(held, sql, null);
    }
  }

  @Override
  public String enquoteLiteral(String val) throws SQLException {
    return delegate.enquoteLiteral(val);
  }

  @Override
  public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException {
    return delegate.enquoteIdentifier(identifier, alwaysQuote);
  }

  @Override
  public boolean isSimpleIdentifier(String identifier) throws SQLException {
    return delegate.isSimpleIdentifier(identifier);
  }

  @Override
  public String enquoteNCharLiteral(String val) throws SQLException {
    return delegate.enquoteNCharLiteral(val);
  }
}
