package dev.sluice.internal.jdbc;

import dev.sluice.internal.limit.Gate;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.ShardingKey;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * The connection Sluice hands out: every JDBC 4.3 method delegates to the driver's connection
 * (default methods included, so {@code beginRequest}, {@code enquoteIdentifier} and friends reach
 * the driver's own implementation), and the statements and metadata it returns are wrapped in
 * turn, so that no path through the JDBC API leads back to an unlimited driver object.
 * {@code unwrap} is the one door out: it returns this wrapper for the interfaces it implements
 * ({@code unwrap(Connection.class)} stays limited) and the driver's object for anything else
 * ({@code unwrap(PGConnection.class)} works for COPY; work done on it is not limited).
 *
 * <p>The {@link Gate} decides admission. This wrapper only reports what happens and keeps the
 * connection's transaction state, an {@code int} of {@link Gate}'s bits (the driver's auto-commit
 * is read only when the gate first needs it): statements report each execution through
 * {@link #beforeStatement()} (or {@link #beforeStatement(String)} when the SQL comes as text, which
 * may end the transaction), {@link #setAutoCommit} reports before it reaches the driver (and
 * keeps the new state only if the driver accepted the change; a failed switch to auto-commit
 * still ends the transaction), {@link #commit()} and {@link #rollback()} report after they
 * return or throw: a failed one ends the transaction too. Nothing else is gated: preparing,
 * setters, {@code setReadOnly}, {@code isValid}, metadata, {@code close}.
 *
 * <p>With a concurrency cap, the gate's answer to a statement may carry {@link Gate#HELD} (a
 * place in flight) or {@link Gate#SAMPLED} (its latency is learned from): the wrapper keeps them
 * out of the state and hands them to the statement as an {@code int}, which reports them back
 * through {@link #afterStatement} when its {@code execute*} returns or throws. Without a cap,
 * and while not limiting, that {@code int} is {@code 0} and the report is one compare. A checkout
 * that took a place (in {@code connection} scope) gives it back on the first {@link #close()}.
 *
 * <p>Identity: {@code equals} and {@code hashCode} are {@link Object}'s, so a wrapper equals only
 * itself and never the driver's connection. That is enough because nothing leaks: the
 * back-references ({@code Statement.getConnection()}, {@code DatabaseMetaData.getConnection()},
 * and through {@code ResultSet.getStatement()}) return this very wrapper, so a framework comparing
 * the connection it holds with the one a statement reports (Spring's {@code DataSourceUtils}) sees
 * the same object.
 *
 * <p>Thread-safety: like the driver's connection, it is meant for one thread at a time. It holds
 * no lock and has no {@code synchronized} code (a virtual thread never pins here). The state is a
 * plain field: a connection shared between threads without ordering can at worst miscount a
 * permit, never corrupt a driver call. Calls allocate nothing beyond the wrappers of the objects
 * they return (one per statement, one per result set, one metadata wrapper per connection).
 */
public final class ConnectionWrapper implements Connection {
  private final Connection delegate;
  private final Gate gate;
  /** The transaction state, of {@link Gate}'s bits; confined to the thread using the connection. */
  private int state;
  private boolean closed;
  /** The metadata last handed out, so asking twice gives the same wrapper. */
  private DatabaseMetaDataWrapper metaData;
  /** {@link Gate#HELD} while this connection's checkout holds a place in flight; 0 once given. */
  private int checkoutHeld;
  /**
   * When the statement now running was admitted, if it holds a place in flight. One field, not
   * one per statement: a connection runs one statement at a time.
   */
  private long startNanos;

  private ConnectionWrapper(Connection delegate, Gate gate, int state, int checkoutHeld) {
    this.delegate = delegate;
    this.gate = gate;
    this.state = state;
    this.checkoutHeld = checkoutHeld;
  }

  /**
   * Wraps a connection just handed out by the driver or the pool, so that its statements are
   * admitted by {@code gate}. The driver is not called: the gate reads the connection's
   * auto-commit only when a decision first depends on it (never while the flag stays closed).
   *
   * @param raw the connection to wrap; {@code null} gives {@code null}
   * @param gate decides what is admitted
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Gate gate) {
    return wrap(raw, gate, 0);
  }

  /**
   * As {@link #wrap(Connection, Gate)}, for a checkout that took a place in flight.
   *
   * @param raw the connection to wrap; {@code null} gives {@code null} (and gives the place back)
   * @param gate decides what is admitted
   * @param checkoutHeld what {@link Gate#beforeCheckout()} returned: the place is given back
   *     when the connection is closed, once
   * @return the wrapper, or {@code null} when {@code raw} is {@code null}
   */
  public static Connection wrap(Connection raw, Gate gate, int checkoutHeld) {
    if (raw == null) {
      gate.afterCheckout(checkoutHeld, null);
      return null;
    }
    return new ConnectionWrapper(raw, gate, Gate.initialState(), checkoutHeld);
  }

  /**
   * Reports that one of this connection's statements is about to execute.
   *
   * @return {@link Gate#HELD} when it took a place in flight, {@link Gate#SAMPLED} when its
   *     latency is learned from, to pass to {@link #afterStatement}; else {@code 0}
   * @throws SQLException a {@code RateLimitExceededException} when the gate refuses it
   */
  int beforeStatement() throws SQLException {
    return held(gate.beforeStatement(state, delegate));
  }

  /**
   * Reports that one of this connection's statements is about to execute {@code sql}, given as
   * text: the gate ends the transaction when the text does ({@code COMMIT}, {@code ROLLBACK}...).
   *
   * @return as {@link #beforeStatement()}
   * @throws SQLException a {@code RateLimitExceededException} when the gate refuses it
   */
  int beforeStatement(String sql) throws SQLException {
    return held(gate.beforeStatement(state, delegate, sql));
  }

  /** Keeps the state; the place in flight is the caller's, never part of it. */
  private int held(int next) {
    state = next & ~(Gate.HELD | Gate.SAMPLED);
    int held = next & (Gate.HELD | Gate.SAMPLED);
    if ((held & Gate.SAMPLED) != 0) {
      startNanos = gate.startNanos(); // only a sampled statement is timed
    }
    return held;
  }

  /**
   * Reports that a statement which {@link #beforeStatement()} admitted has returned or thrown.
   * The statement wrappers call it in a {@code finally}, and first in a {@code catch} of
   * {@link SQLException} with the failure (then passing on the {@code 0} it returns), so that
   * the place is given back exactly once on every way out, {@code Error}s included.
   *
   * @param held what {@link #beforeStatement()} returned
   * @param sql the statement's text (its shape), or {@code null}
   * @param failure what it threw, or {@code null}
   * @return {@code 0}: nothing is held any more
   */
  int afterStatement(int held, String sql, SQLException failure) {
    if (held != 0) {
      gate.afterStatement(held, startNanos, sql, failure);
    }
    return 0;
  }

  /** The transaction state, for tests. */
  int state() {
    return state;
  }

  /**
   * Switching to manual commit may be a transaction's door: the gate admits it, or throws before
   * the driver sees the call, so the connection stays as it was.
   */
  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    int next = gate.beforeAutoCommit(state, autoCommit, delegate);
    try {
      delegate.setAutoCommit(autoCommit);
    } catch (SQLException | RuntimeException e) {
      if (autoCommit) { // the switch commits, and a failed commit still ends the transaction
        state = Gate.afterFailedSwitchToAutoCommit() | (state & Gate.READ_ONLY_BITS);
      }
      throw e;
    }
    state = next;
  }

  /** Ends the transaction, even when it throws (see {@link Gate#afterEnd}). */
  @Override
  public void commit() throws SQLException {
    try {
      delegate.commit();
    } finally {
      state = gate.afterEnd(state);
    }
  }

  /**
   * Ends the transaction, even when it throws; a rollback to a savepoint does not, and is not
   * reported.
   */
  @Override
  public void rollback() throws SQLException {
    try {
      delegate.rollback();
    } finally {
      state = gate.afterEnd(state);
    }
  }

  /**
   * Closes the driver's connection once; later calls do nothing, as JDBC asks. A place in flight
   * the checkout took is given back on the first call, even if the driver's close throws.
   */
  @Override
  public void close() throws SQLException {
    if (!closed) {
      try {
        delegate.close();
      } finally {
        int held = checkoutHeld;
        checkoutHeld = 0;
        if (held != 0) {
          gate.afterCheckout(held, null);
        }
      }
      closed = true;
    }
  }

  /**
   * Returns this wrapper for the interfaces it implements, else the driver's object: the
   * delegate itself when it is an {@code iface}, or what its {@code unwrap} returns.
   */
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

  private DatabaseMetaData metaData(DatabaseMetaData raw) {
    if (raw == null) {
      return null;
    }
    if (metaData == null || !metaData.wraps(raw)) {
      metaData = new DatabaseMetaDataWrapper(this, raw);
    }
    return metaData;
  }

  // --- Connection ---

  @Override
  public Statement createStatement() throws SQLException {
    return StatementWrapper.of(this, delegate.createStatement());
  }

  @Override
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    return PreparedStatementWrapper.of(this, sql, delegate.prepareStatement(sql));
  }

  @Override
  public CallableStatement prepareCall(String sql) throws SQLException {
    return CallableStatementWrapper.of(this, sql, delegate.prepareCall(sql));
  }

  @Override
  public String nativeSQL(String sql) throws SQLException {
    return delegate.nativeSQL(sql);
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    return delegate.getAutoCommit();
  }

  @Override
  public boolean isClosed() throws SQLException {
    return delegate.isClosed();
  }

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    return metaData(delegate.getMetaData());
  }

  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    delegate.setReadOnly(readOnly);
    state = Gate.readOnly(state, readOnly); // kept, so a decision need not ask the driver
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    return delegate.isReadOnly();
  }

  @Override
  public void setCatalog(String catalog) throws SQLException {
    delegate.setCatalog(catalog);
  }

  @Override
  public String getCatalog() throws SQLException {
    return delegate.getCatalog();
  }

  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    delegate.setTransactionIsolation(level);
  }

  @Override
  public int getTransactionIsolation() throws SQLException {
    return delegate.getTransactionIsolation();
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
  public Statement createStatement(int resultSetType, int resultSetConcurrency)
      throws SQLException {
    return StatementWrapper.of(this, delegate.createStatement(resultSetType, resultSetConcurrency));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    return PreparedStatementWrapper.of(this, sql, delegate.prepareStatement(
        sql, resultSetType, resultSetConcurrency));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    return CallableStatementWrapper.of(this, sql, delegate.prepareCall(
        sql, resultSetType, resultSetConcurrency));
  }

  @Override
  public Map<String,Class<?>> getTypeMap() throws SQLException {
    return delegate.getTypeMap();
  }

  @Override
  public void setTypeMap(Map<String,Class<?>> map) throws SQLException {
    delegate.setTypeMap(map);
  }

  @Override
  public void setHoldability(int holdability) throws SQLException {
    delegate.setHoldability(holdability);
  }

  @Override
  public int getHoldability() throws SQLException {
    return delegate.getHoldability();
  }

  @Override
  public Savepoint setSavepoint() throws SQLException {
    return delegate.setSavepoint();
  }

  @Override
  public Savepoint setSavepoint(String name) throws SQLException {
    return delegate.setSavepoint(name);
  }

  @Override
  public void rollback(Savepoint savepoint) throws SQLException {
    delegate.rollback(savepoint);
  }

  @Override
  public void releaseSavepoint(Savepoint savepoint) throws SQLException {
    delegate.releaseSavepoint(savepoint);
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    return StatementWrapper.of(this, delegate.createStatement(
        resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    return PreparedStatementWrapper.of(this, sql, delegate.prepareStatement(
        sql, resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    return CallableStatementWrapper.of(this, sql, delegate.prepareCall(
        sql, resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    return PreparedStatementWrapper.of(this, sql, delegate.prepareStatement(sql, autoGeneratedKeys));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    return PreparedStatementWrapper.of(this, sql, delegate.prepareStatement(sql, columnIndexes));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    return PreparedStatementWrapper.of(this, sql, delegate.prepareStatement(sql, columnNames));
  }

  @Override
  public Clob createClob() throws SQLException {
    return delegate.createClob();
  }

  @Override
  public Blob createBlob() throws SQLException {
    return delegate.createBlob();
  }

  @Override
  public NClob createNClob() throws SQLException {
    return delegate.createNClob();
  }

  @Override
  public SQLXML createSQLXML() throws SQLException {
    return delegate.createSQLXML();
  }

  @Override
  public boolean isValid(int timeout) throws SQLException {
    return delegate.isValid(timeout);
  }

  @Override
  public void setClientInfo(String name, String value) throws SQLClientInfoException {
    delegate.setClientInfo(name, value);
  }

  @Override
  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    delegate.setClientInfo(properties);
  }

  @Override
  public String getClientInfo(String name) throws SQLException {
    return delegate.getClientInfo(name);
  }

  @Override
  public Properties getClientInfo() throws SQLException {
    return delegate.getClientInfo();
  }

  @Override
  public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
    return delegate.createArrayOf(typeName, elements);
  }

  @Override
  public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
    return delegate.createStruct(typeName, attributes);
  }

  @Override
  public void setSchema(String schema) throws SQLException {
    delegate.setSchema(schema);
  }

  @Override
  public String getSchema() throws SQLException {
    return delegate.getSchema();
  }

  @Override
  public void abort(Executor executor) throws SQLException {
    delegate.abort(executor);
  }

  @Override
  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    delegate.setNetworkTimeout(executor, milliseconds);
  }

  @Override
  public int getNetworkTimeout() throws SQLException {
    return delegate.getNetworkTimeout();
  }

  @Override
  public void beginRequest() throws SQLException {
    delegate.beginRequest();
  }

  @Override
  public void endRequest() throws SQLException {
    delegate.endRequest();
  }

  @Override
  public boolean setShardingKeyIfValid(ShardingKey shardingKey, ShardingKey superShardingKey,
      int timeout) throws SQLException {
    return delegate.setShardingKeyIfValid(shardingKey, superShardingKey, timeout);
  }

  @Override
  public boolean setShardingKeyIfValid(ShardingKey shardingKey, int timeout) throws SQLException {
    return delegate.setShardingKeyIfValid(shardingKey, timeout);
  }

  @Override
  public void setShardingKey(ShardingKey shardingKey, ShardingKey superShardingKey)
      throws SQLException {
    delegate.setShardingKey(shardingKey, superShardingKey);
  }

  @Override
  public void setShardingKey(ShardingKey shardingKey) throws SQLException {
    delegate.setShardingKey(shardingKey);
  }
}
