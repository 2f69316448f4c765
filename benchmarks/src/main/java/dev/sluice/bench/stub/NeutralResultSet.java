package dev.sluice.bench.stub;

import java.sql.*;

/**
 * Every method of {@link ResultSet} answering a neutral value (nothing, {@code false}, {@code 0},
 * {@code null}) at no cost; the stub classes override the few that a benchmark reaches. Written
 * out once from the {@code java.sql} interface, in the manner of HikariCP's own benchmark stubs.
 */
@SuppressWarnings("deprecation")
abstract class NeutralResultSet implements ResultSet {
  @Override
  public boolean absolute(int a0) throws SQLException {
    return false;
  }

  @Override
  public void afterLast() throws SQLException {
  }

  @Override
  public void beforeFirst() throws SQLException {
  }

  @Override
  public void cancelRowUpdates() throws SQLException {
  }

  @Override
  public void clearWarnings() throws SQLException {
  }

  @Override
  public void close() throws SQLException {
  }

  @Override
  public void deleteRow() throws SQLException {
  }

  @Override
  public int findColumn(String a0) throws SQLException {
    return 0;
  }

  @Override
  public boolean first() throws SQLException {
    return false;
  }

  @Override
  public Array getArray(String a0) throws SQLException {
    return null;
  }

  @Override
  public Array getArray(int a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.InputStream getAsciiStream(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.InputStream getAsciiStream(int a0) throws SQLException {
    return null;
  }

  @Override
  public java.math.BigDecimal getBigDecimal(String a0, int a1) throws SQLException {
    return null;
  }

  @Override
  public java.math.BigDecimal getBigDecimal(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.math.BigDecimal getBigDecimal(int a0, int a1) throws SQLException {
    return null;
  }

  @Override
  public java.math.BigDecimal getBigDecimal(int a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.InputStream getBinaryStream(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.InputStream getBinaryStream(int a0) throws SQLException {
    return null;
  }

  @Override
  public Blob getBlob(String a0) throws SQLException {
    return null;
  }

  @Override
  public Blob getBlob(int a0) throws SQLException {
    return null;
  }

  @Override
  public boolean getBoolean(String a0) throws SQLException {
    return false;
  }

  @Override
  public boolean getBoolean(int a0) throws SQLException {
    return false;
  }

  @Override
  public byte getByte(String a0) throws SQLException {
    return 0;
  }

  @Override
  public byte getByte(int a0) throws SQLException {
    return 0;
  }

  @Override
  public byte[] getBytes(String a0) throws SQLException {
    return null;
  }

  @Override
  public byte[] getBytes(int a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.Reader getCharacterStream(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.Reader getCharacterStream(int a0) throws SQLException {
    return null;
  }

  @Override
  public Clob getClob(String a0) throws SQLException {
    return null;
  }

  @Override
  public Clob getClob(int a0) throws SQLException {
    return null;
  }

  @Override
  public int getConcurrency() throws SQLException {
    return 0;
  }

  @Override
  public String getCursorName() throws SQLException {
    return null;
  }

  @Override
  public Date getDate(String a0, java.util.Calendar a1) throws SQLException {
    return null;
  }

  @Override
  public Date getDate(String a0) throws SQLException {
    return null;
  }

  @Override
  public Date getDate(int a0, java.util.Calendar a1) throws SQLException {
    return null;
  }

  @Override
  public Date getDate(int a0) throws SQLException {
    return null;
  }

  @Override
  public double getDouble(String a0) throws SQLException {
    return 0;
  }

  @Override
  public double getDouble(int a0) throws SQLException {
    return 0;
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
  public float getFloat(String a0) throws SQLException {
    return 0;
  }

  @Override
  public float getFloat(int a0) throws SQLException {
    return 0;
  }

  @Override
  public int getHoldability() throws SQLException {
    return 0;
  }

  @Override
  public int getInt(String a0) throws SQLException {
    return 0;
  }

  @Override
  public int getInt(int a0) throws SQLException {
    return 0;
  }

  @Override
  public long getLong(String a0) throws SQLException {
    return 0;
  }

  @Override
  public long getLong(int a0) throws SQLException {
    return 0;
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return null;
  }

  @Override
  public java.io.Reader getNCharacterStream(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.Reader getNCharacterStream(int a0) throws SQLException {
    return null;
  }

  @Override
  public NClob getNClob(String a0) throws SQLException {
    return null;
  }

  @Override
  public NClob getNClob(int a0) throws SQLException {
    return null;
  }

  @Override
  public String getNString(String a0) throws SQLException {
    return null;
  }

  @Override
  public String getNString(int a0) throws SQLException {
    return null;
  }

  @Override
  public <T> T getObject(String a0, Class<T> a1) throws SQLException {
    return null;
  }

  @Override
  public Object getObject(String a0, java.util.Map<String, Class<?>> a1) throws SQLException {
    return null;
  }

  @Override
  public Object getObject(String a0) throws SQLException {
    return null;
  }

  @Override
  public <T> T getObject(int a0, Class<T> a1) throws SQLException {
    return null;
  }

  @Override
  public Object getObject(int a0, java.util.Map<String, Class<?>> a1) throws SQLException {
    return null;
  }

  @Override
  public Object getObject(int a0) throws SQLException {
    return null;
  }

  @Override
  public Ref getRef(String a0) throws SQLException {
    return null;
  }

  @Override
  public Ref getRef(int a0) throws SQLException {
    return null;
  }

  @Override
  public RowId getRowId(String a0) throws SQLException {
    return null;
  }

  @Override
  public RowId getRowId(int a0) throws SQLException {
    return null;
  }

  @Override
  public int getRow() throws SQLException {
    return 0;
  }

  @Override
  public SQLXML getSQLXML(String a0) throws SQLException {
    return null;
  }

  @Override
  public SQLXML getSQLXML(int a0) throws SQLException {
    return null;
  }

  @Override
  public short getShort(String a0) throws SQLException {
    return 0;
  }

  @Override
  public short getShort(int a0) throws SQLException {
    return 0;
  }

  @Override
  public Statement getStatement() throws SQLException {
    return null;
  }

  @Override
  public String getString(String a0) throws SQLException {
    return null;
  }

  @Override
  public String getString(int a0) throws SQLException {
    return null;
  }

  @Override
  public Time getTime(String a0, java.util.Calendar a1) throws SQLException {
    return null;
  }

  @Override
  public Time getTime(String a0) throws SQLException {
    return null;
  }

  @Override
  public Time getTime(int a0, java.util.Calendar a1) throws SQLException {
    return null;
  }

  @Override
  public Time getTime(int a0) throws SQLException {
    return null;
  }

  @Override
  public Timestamp getTimestamp(String a0, java.util.Calendar a1) throws SQLException {
    return null;
  }

  @Override
  public Timestamp getTimestamp(String a0) throws SQLException {
    return null;
  }

  @Override
  public Timestamp getTimestamp(int a0, java.util.Calendar a1) throws SQLException {
    return null;
  }

  @Override
  public Timestamp getTimestamp(int a0) throws SQLException {
    return null;
  }

  @Override
  public int getType() throws SQLException {
    return 0;
  }

  @Override
  public java.net.URL getURL(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.net.URL getURL(int a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.InputStream getUnicodeStream(String a0) throws SQLException {
    return null;
  }

  @Override
  public java.io.InputStream getUnicodeStream(int a0) throws SQLException {
    return null;
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    return null;
  }

  @Override
  public void insertRow() throws SQLException {
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    return false;
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    return false;
  }

  @Override
  public boolean isClosed() throws SQLException {
    return false;
  }

  @Override
  public boolean isFirst() throws SQLException {
    return false;
  }

  @Override
  public boolean isLast() throws SQLException {
    return false;
  }

  @Override
  public boolean isWrapperFor(Class<?> a0) throws SQLException {
    return false;
  }

  @Override
  public boolean last() throws SQLException {
    return false;
  }

  @Override
  public void moveToCurrentRow() throws SQLException {
  }

  @Override
  public void moveToInsertRow() throws SQLException {
  }

  @Override
  public boolean next() throws SQLException {
    return false;
  }

  @Override
  public boolean previous() throws SQLException {
    return false;
  }

  @Override
  public void refreshRow() throws SQLException {
  }

  @Override
  public boolean relative(int a0) throws SQLException {
    return false;
  }

  @Override
  public boolean rowDeleted() throws SQLException {
    return false;
  }

  @Override
  public boolean rowInserted() throws SQLException {
    return false;
  }

  @Override
  public boolean rowUpdated() throws SQLException {
    return false;
  }

  @Override
  public void setFetchDirection(int a0) throws SQLException {
  }

  @Override
  public void setFetchSize(int a0) throws SQLException {
  }

  @Override
  public <T> T unwrap(Class<T> a0) throws SQLException {
    return null;
  }

  @Override
  public void updateArray(String a0, Array a1) throws SQLException {
  }

  @Override
  public void updateArray(int a0, Array a1) throws SQLException {
  }

  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void updateBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
  }

  @Override
  public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
  }

  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void updateBlob(String a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void updateBlob(String a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void updateBlob(String a0, Blob a1) throws SQLException {
  }

  @Override
  public void updateBlob(int a0, java.io.InputStream a1, long a2) throws SQLException {
  }

  @Override
  public void updateBlob(int a0, java.io.InputStream a1) throws SQLException {
  }

  @Override
  public void updateBlob(int a0, Blob a1) throws SQLException {
  }

  @Override
  public void updateBoolean(String a0, boolean a1) throws SQLException {
  }

  @Override
  public void updateBoolean(int a0, boolean a1) throws SQLException {
  }

  @Override
  public void updateByte(String a0, byte a1) throws SQLException {
  }

  @Override
  public void updateByte(int a0, byte a1) throws SQLException {
  }

  @Override
  public void updateBytes(String a0, byte[] a1) throws SQLException {
  }

  @Override
  public void updateBytes(int a0, byte[] a1) throws SQLException {
  }

  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1, int a2) throws SQLException {
  }

  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, int a2) throws SQLException {
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateClob(String a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateClob(String a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateClob(String a0, Clob a1) throws SQLException {
  }

  @Override
  public void updateClob(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateClob(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateClob(int a0, Clob a1) throws SQLException {
  }

  @Override
  public void updateDate(String a0, Date a1) throws SQLException {
  }

  @Override
  public void updateDate(int a0, Date a1) throws SQLException {
  }

  @Override
  public void updateDouble(String a0, double a1) throws SQLException {
  }

  @Override
  public void updateDouble(int a0, double a1) throws SQLException {
  }

  @Override
  public void updateFloat(String a0, float a1) throws SQLException {
  }

  @Override
  public void updateFloat(int a0, float a1) throws SQLException {
  }

  @Override
  public void updateInt(String a0, int a1) throws SQLException {
  }

  @Override
  public void updateInt(int a0, int a1) throws SQLException {
  }

  @Override
  public void updateLong(String a0, long a1) throws SQLException {
  }

  @Override
  public void updateLong(int a0, long a1) throws SQLException {
  }

  @Override
  public void updateNCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateNCharacterStream(String a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateNClob(String a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateNClob(String a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateNClob(String a0, NClob a1) throws SQLException {
  }

  @Override
  public void updateNClob(int a0, java.io.Reader a1, long a2) throws SQLException {
  }

  @Override
  public void updateNClob(int a0, java.io.Reader a1) throws SQLException {
  }

  @Override
  public void updateNClob(int a0, NClob a1) throws SQLException {
  }

  @Override
  public void updateNString(String a0, String a1) throws SQLException {
  }

  @Override
  public void updateNString(int a0, String a1) throws SQLException {
  }

  @Override
  public void updateNull(String a0) throws SQLException {
  }

  @Override
  public void updateNull(int a0) throws SQLException {
  }

  @Override
  public void updateObject(String a0, Object a1, int a2) throws SQLException {
  }

  @Override
  public void updateObject(String a0, Object a1) throws SQLException {
  }

  @Override
  public void updateObject(int a0, Object a1, int a2) throws SQLException {
  }

  @Override
  public void updateObject(int a0, Object a1) throws SQLException {
  }

  @Override
  public void updateRef(String a0, Ref a1) throws SQLException {
  }

  @Override
  public void updateRef(int a0, Ref a1) throws SQLException {
  }

  @Override
  public void updateRowId(String a0, RowId a1) throws SQLException {
  }

  @Override
  public void updateRowId(int a0, RowId a1) throws SQLException {
  }

  @Override
  public void updateRow() throws SQLException {
  }

  @Override
  public void updateSQLXML(String a0, SQLXML a1) throws SQLException {
  }

  @Override
  public void updateSQLXML(int a0, SQLXML a1) throws SQLException {
  }

  @Override
  public void updateShort(String a0, short a1) throws SQLException {
  }

  @Override
  public void updateShort(int a0, short a1) throws SQLException {
  }

  @Override
  public void updateString(String a0, String a1) throws SQLException {
  }

  @Override
  public void updateString(int a0, String a1) throws SQLException {
  }

  @Override
  public void updateTime(String a0, Time a1) throws SQLException {
  }

  @Override
  public void updateTime(int a0, Time a1) throws SQLException {
  }

  @Override
  public void updateTimestamp(String a0, Timestamp a1) throws SQLException {
  }

  @Override
  public void updateTimestamp(int a0, Timestamp a1) throws SQLException {
  }

  @Override
  public boolean wasNull() throws SQLException {
    return false;
  }

}
