package dev.sluice.bench.stub;

import java.sql.*;

/**
 * Every method of {@link Connection} answering a neutral value (nothing, {@code false}, {@code 0},
 * {@code null}) at no cost; the stub classes override the few that a benchmark reaches. Written
 * out once from the {@code java.sql} interface, in the manner of HikariCP's own benchmark stubs.
 */
@SuppressWarnings("deprecation")
abstract class NeutralConnection implements Connection {
  @Override
  public void abort(java.util.concurrent.Executor a0) throws SQLException {
  }

  @Override
  public void clearWarnings() throws SQLException {
  }

  @Override
  public void close() throws SQLException {
  }

  @Override
  public void commit() throws SQLException {
  }

  @Override
  public Array createArrayOf(String a0, Object[] a1) throws SQLException {
    return null;
  }

  @Override
  public Blob createBlob() throws SQLException {
    return null;
  }

  @Override
  public Clob createClob() throws SQLException {
    return null;
  }

  @Override
  public NClob createNClob() throws SQLException {
    return null;
  }

  @Override
  public SQLXML createSQLXML() throws SQLException {
    return null;
  }

  @Override
  public Statement createStatement() throws SQLException {
    return null;
  }

  @Override
  public Statement createStatement(int a0, int a1, int a2) throws SQLException {
    return null;
  }

  @Override
  public Statement createStatement(int a0, int a1) throws SQLException {
    return null;
  }

  @Override
  public Struct createStruct(String a0, Object[] a1) throws SQLException {
    return null;
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    return false;
  }

  @Override
  public String getCatalog() throws SQLException {
    return null;
  }

  @Override
  public java.util.Properties getClientInfo() throws SQLException {
    return null;
  }

  @Override
  public String getClientInfo(String a0) throws SQLException {
    return null;
  }

  @Override
  public int getHoldability() throws SQLException {
    return 0;
  }

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    return null;
  }

  @Override
  public int getNetworkTimeout() throws SQLException {
    return 0;
  }

  @Override
  public String getSchema() throws SQLException {
    return null;
  }

  @Override
  public int getTransactionIsolation() throws SQLException {
    return 0;
  }

  @Override
  public java.util.Map<String, Class<?>> getTypeMap() throws SQLException {
    return null;
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    return null;
  }

  @Override
  public boolean isClosed() throws SQLException {
    return false;
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    return false;
  }

  @Override
  public boolean isValid(int a0) throws SQLException {
    return false;
  }

  @Override
  public boolean isWrapperFor(Class<?> a0) throws SQLException {
    return false;
  }

  @Override
  public String nativeSQL(String a0) throws SQLException {
    return null;
  }

  @Override
  public CallableStatement prepareCall(String a0, int a1, int a2, int a3) throws SQLException {
    return null;
  }

  @Override
  public CallableStatement prepareCall(String a0, int a1, int a2) throws SQLException {
    return null;
  }

  @Override
  public CallableStatement prepareCall(String a0) throws SQLException {
    return null;
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int[] a1) throws SQLException {
    return null;
  }

  @Override
  public PreparedStatement prepareStatement(String a0, String[] a1) throws SQLException {
    return null;
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int a1, int a2, int a3) throws SQLException {
    return null;
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int a1, int a2) throws SQLException {
    return null;
  }

  @Override
  public PreparedStatement prepareStatement(String a0, int a1) throws SQLException {
    return null;
  }

  @Override
  public PreparedStatement prepareStatement(String a0) throws SQLException {
    return null;
  }

  @Override
  public void releaseSavepoint(Savepoint a0) throws SQLException {
  }

  @Override
  public void rollback() throws SQLException {
  }

  @Override
  public void rollback(Savepoint a0) throws SQLException {
  }

  @Override
  public void setAutoCommit(boolean a0) throws SQLException {
  }

  @Override
  public void setCatalog(String a0) throws SQLException {
  }

  @Override
  public void setClientInfo(String a0, String a1) throws SQLClientInfoException {
  }

  @Override
  public void setClientInfo(java.util.Properties a0) throws SQLClientInfoException {
  }

  @Override
  public void setHoldability(int a0) throws SQLException {
  }

  @Override
  public void setNetworkTimeout(java.util.concurrent.Executor a0, int a1) throws SQLException {
  }

  @Override
  public void setReadOnly(boolean a0) throws SQLException {
  }

  @Override
  public Savepoint setSavepoint() throws SQLException {
    return null;
  }

  @Override
  public Savepoint setSavepoint(String a0) throws SQLException {
    return null;
  }

  @Override
  public void setSchema(String a0) throws SQLException {
  }

  @Override
  public void setTransactionIsolation(int a0) throws SQLException {
  }

  @Override
  public void setTypeMap(java.util.Map<String, Class<?>> a0) throws SQLException {
  }

  @Override
  public <T> T unwrap(Class<T> a0) throws SQLException {
    return null;
  }

}
