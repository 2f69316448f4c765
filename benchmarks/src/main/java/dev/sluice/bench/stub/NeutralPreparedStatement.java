package dev.sluice.bench.stub;

import java.sql.*;

/**
 * Every method of {@link PreparedStatement} answering a neutral value (nothing, {@code false}, {@code 0},
 * {@code null}) at no cost; the stub classes override the few that a benchmark reaches. Written
 * out once from the {@code java.sql} interface, in the manner of HikariCP's own benchmark stubs.
 */
@SuppressWarnings("deprecation")
abstract class NeutralPreparedStatement implements PreparedStatement {
  @Override
  public void addBatch() throws SQLException {
  }

  @Override
  public void addBatch(String a0) throws SQLException {
  }

  @Override
  public void cancel() throws SQLException {
  }

  @Override
  public void clearBatch() throws SQLException {
  }

  @Override
  public void clearParameters() throws SQLException {
  }

  @Override
  public void clearWarnings() throws SQLException {
  }

  @Override
  public void closeOnCompletion() throws SQLException {
  }

  @Override
  public void close() throws SQLException {
  }

  @Override
  public int[] executeBatch() throws SQLException {
    return null;
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    return null;
  }

  @Override
  public ResultSet executeQuery(String a0) throws SQLException {
    return null;
  }

  @Override
  public int executeUpdate() throws SQLException {
    return 0;
  }

  @Override
  public int executeUpdate(String a0, int[] a1) throws SQLException {
    return 0;
  }

  @Override
  public int executeUpdate(String a0, String[] a1) throws SQLException {
    return 0;
  }

  @Override
  public int executeUpdate(String a0, int a1) throws SQLException {
    return 0;
  }

  @Override
  public int executeUpdate(String a0) throws SQLException {
    return 0;
  }

  @Override
  public boolean execute() throws SQLException {
    return false;
  }

  @Override
  public boolean execute(String a0, int[] a1) throws SQLException {
    return false;
  }

  @Override
  public boolean execute(String a0, String[] a1) throws SQLException {
    return false;
  }

  @Override
  public boolean execute(String a0, int a1) throws SQLException {
    return false;
  }

  @Override
  public boolean execute(String a0) throws SQLException {
    return false;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return null;
  }

  @Override
  public int getFetchDirection() throws SQLException {
    return 0;
  }

  @Override
  public int getFetchSize() throws SQLException {
    return 0;
  }

  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    return null;
  }

  @Override
  public int getMaxFieldSize() throws SQLException {
    return 0;
  }

  @Override
  public int getMaxRows() throws SQLException {
    return 0;
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return null;
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    return false;
  }

  @Override
  public boolean getMoreResults(int a0) throws SQLException {
    return false;
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    return null;
  }

  @Override
  public int getQueryTimeout() throws SQLException {
    return 0;
  }

  @Override
  public int getResultSetConcurrency() throws SQLException {
    return 0;
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    return 0;
  }

  @Override
  public int getResultSetType() throws SQLException {
    return 0;
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    return null;
  }

  @Override
  public int getUpdateCount() throws SQLException {
    return 0;
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    return null;
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    return false;
  }

  @Override
  public boolean isClosed() throws SQLException {
    return false;
  }

  @Override
  public boolean isPoolable() throws SQLException {
    return false;
  }

  @Override
  public boolean isWrapperFor(Class<?> a0) throws SQLException {
    return false;
  }

  @Override
  public void setArray(int a0, Array a1) throws SQLException {
  }

  @Override
  public void setAsciiStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public void setAsciiStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void setAsciiStream(int a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void setBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
  }

  @Override
  public void setBinaryStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public void setBinaryStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void setBinaryStream(int a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void setBlob(int a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void setBlob(int a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void setBlob(int a0, Blob a1) throws SQLException {
  }

  @Override
  public void setBoolean(int a0, boolean a1) throws SQLException {
  }

  @Override
  public void setByte(int a0, byte a1) throws SQLException {
  }

  @Override
  public void setBytes(int a0, byte[] a1) throws SQLException {
  }

  @Override
  public void setCharacterStream(int a0, java.io.Reader a1, int a2) throws SQLException {
  }

  @Override
  public void setCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void setCharacterStream(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void setClob(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void setClob(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void setClob(int a0, Clob a1) throws SQLException {
  }

  @Override
  public void setCursorName(String a0) throws SQLException {
  }

  @Override
  public void setDate(int a0, Date a1, java.util.Calendar a2) throws SQLException {
  }

  @Override
  public void setDate(int a0, Date a1) throws SQLException {
  }

  @Override
  public void setDouble(int a0, double a1) throws SQLException {
  }

  @Override
  public void setEscapeProcessing(boolean a0) throws SQLException {
  }

  @Override
  public void setFetchDirection(int a0) throws SQLException {
  }

  @Override
  public void setFetchSize(int a0) throws SQLException {
  }

  @Override
  public void setFloat(int a0, float a1) throws SQLException {
  }

  @Override
  public void setInt(int a0, int a1) throws SQLException {
  }

  @Override
  public void setLong(int a0, long a1) throws SQLException {
  }

  @Override
  public void setMaxFieldSize(int a0) throws SQLException {
  }

  @Override
  public void setMaxRows(int a0) throws SQLException {
  }

  @Override
  public void setNCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void setNCharacterStream(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void setNClob(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void setNClob(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void setNClob(int a0, NClob a1) throws SQLException {
  }

  @Override
  public void setNString(int a0, String a1) throws SQLException {
  }

  @Override
  public void setNull(int a0, int a1, String a2) throws SQLException {
  }

  @Override
  public void setNull(int a0, int a1) throws SQLException {
  }

  @Override
  public void setObject(int a0, Object a1, int a2, int a3) throws SQLException {
  }

  @Override
  public void setObject(int a0, Object a1, int a2) throws SQLException {
  }

  @Override
  public void setObject(int a0, Object a1) throws SQLException {
  }

  @Override
  public void setPoolable(boolean a0) throws SQLException {
  }

  @Override
  public void setQueryTimeout(int a0) throws SQLException {
  }

  @Override
  public void setRef(int a0, Ref a1) throws SQLException {
  }

  @Override
  public void setRowId(int a0, RowId a1) throws SQLException {
  }

  @Override
  public void setSQLXML(int a0, SQLXML a1) throws SQLException {
  }

  @Override
  public void setShort(int a0, short a1) throws SQLException {
  }

  @Override
  public void setString(int a0, String a1) throws SQLException {
  }

  @Override
  public void setTime(int a0, Time a1, java.util.Calendar a2) throws SQLException {
  }

  @Override
  public void setTime(int a0, Time a1) throws SQLException {
  }

  @Override
  public void setTimestamp(int a0, Timestamp a1, java.util.Calendar a2) throws SQLException {
  }

  @Override
  public void setTimestamp(int a0, Timestamp a1) throws SQLException {
  }

  @Override
  public void setURL(int a0, java.net.URL a1) throws SQLException {
  }

  @Override
  public void setUnicodeStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public <T> T unwrap(Class<T> a0) throws SQLException {
    return null;
  }

}
