package dev.sluice.internal.answer;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * Every {@code ResultSet} method refusing: updates as on a read-only result, the rest as not
 * supported. {@link AnsweredResultSet} overrides what an answered result does; this class keeps
 * the 195 methods of the interface out of its way. Written once from {@code java.sql.ResultSet}
 * by a throwaway program; {@code AnsweredResultSetTest} fails if a method of the interface is
 * missing (the class would not compile).
 */
@SuppressWarnings("deprecation")
abstract class ResultSetBase implements java.sql.ResultSet {

  static SQLException readOnly() {
    return new SQLException("An answered result is read-only (CONCUR_READ_ONLY)", "0A000");
  }

  static SQLException unsupported(String method) {
    return new SQLFeatureNotSupportedException(method + " is not supported on an answered"
        + " result (forward-only, read-only, kept values only)", "0A000");
  }

  @Override
  public boolean absolute(int a0) throws SQLException {
    throw unsupported("absolute");
  }

  @Override
  public void afterLast() throws SQLException {
    throw unsupported("afterLast");
  }

  @Override
  public void beforeFirst() throws SQLException {
    throw unsupported("beforeFirst");
  }

  @Override
  public void cancelRowUpdates() throws SQLException {
    throw readOnly();
  }

  @Override
  public void clearWarnings() throws SQLException {
    throw unsupported("clearWarnings");
  }

  @Override
  public void close() throws SQLException {
    throw unsupported("close");
  }

  @Override
  public void deleteRow() throws SQLException {
    throw readOnly();
  }

  @Override
  public int findColumn(String a0) throws SQLException {
    throw unsupported("findColumn");
  }

  @Override
  public boolean first() throws SQLException {
    throw unsupported("first");
  }

  @Override
  public Array getArray(String a0) throws SQLException {
    throw unsupported("getArray");
  }

  @Override
  public Array getArray(int a0) throws SQLException {
    throw unsupported("getArray");
  }

  @Override
  public InputStream getAsciiStream(String a0) throws SQLException {
    throw unsupported("getAsciiStream");
  }

  @Override
  public InputStream getAsciiStream(int a0) throws SQLException {
    throw unsupported("getAsciiStream");
  }

  @Override
  public BigDecimal getBigDecimal(String a0, int a1) throws SQLException {
    throw unsupported("getBigDecimal");
  }

  @Override
  public BigDecimal getBigDecimal(String a0) throws SQLException {
    throw unsupported("getBigDecimal");
  }

  @Override
  public BigDecimal getBigDecimal(int a0, int a1) throws SQLException {
    throw unsupported("getBigDecimal");
  }

  @Override
  public BigDecimal getBigDecimal(int a0) throws SQLException {
    throw unsupported("getBigDecimal");
  }

  @Override
  public InputStream getBinaryStream(String a0) throws SQLException {
    throw unsupported("getBinaryStream");
  }

  @Override
  public InputStream getBinaryStream(int a0) throws SQLException {
    throw unsupported("getBinaryStream");
  }

  @Override
  public Blob getBlob(String a0) throws SQLException {
    throw unsupported("getBlob");
  }

  @Override
  public Blob getBlob(int a0) throws SQLException {
    throw unsupported("getBlob");
  }

  @Override
  public boolean getBoolean(String a0) throws SQLException {
    throw unsupported("getBoolean");
  }

  @Override
  public boolean getBoolean(int a0) throws SQLException {
    throw unsupported("getBoolean");
  }

  @Override
  public byte getByte(String a0) throws SQLException {
    throw unsupported("getByte");
  }

  @Override
  public byte getByte(int a0) throws SQLException {
    throw unsupported("getByte");
  }

  @Override
  public byte[] getBytes(String a0) throws SQLException {
    throw unsupported("getBytes");
  }

  @Override
  public byte[] getBytes(int a0) throws SQLException {
    throw unsupported("getBytes");
  }

  @Override
  public Reader getCharacterStream(String a0) throws SQLException {
    throw unsupported("getCharacterStream");
  }

  @Override
  public Reader getCharacterStream(int a0) throws SQLException {
    throw unsupported("getCharacterStream");
  }

  @Override
  public Clob getClob(String a0) throws SQLException {
    throw unsupported("getClob");
  }

  @Override
  public Clob getClob(int a0) throws SQLException {
    throw unsupported("getClob");
  }

  @Override
  public int getConcurrency() throws SQLException {
    throw unsupported("getConcurrency");
  }

  @Override
  public String getCursorName() throws SQLException {
    throw unsupported("getCursorName");
  }

  @Override
  public Date getDate(String a0, Calendar a1) throws SQLException {
    throw unsupported("getDate");
  }

  @Override
  public Date getDate(String a0) throws SQLException {
    throw unsupported("getDate");
  }

  @Override
  public Date getDate(int a0, Calendar a1) throws SQLException {
    throw unsupported("getDate");
  }

  @Override
  public Date getDate(int a0) throws SQLException {
    throw unsupported("getDate");
  }

  @Override
  public double getDouble(String a0) throws SQLException {
    throw unsupported("getDouble");
  }

  @Override
  public double getDouble(int a0) throws SQLException {
    throw unsupported("getDouble");
  }

  @Override
  public int getFetchDirection() throws SQLException {
    throw unsupported("getFetchDirection");
  }

  @Override
  public int getFetchSize() throws SQLException {
    throw unsupported("getFetchSize");
  }

  @Override
  public float getFloat(String a0) throws SQLException {
    throw unsupported("getFloat");
  }

  @Override
  public float getFloat(int a0) throws SQLException {
    throw unsupported("getFloat");
  }

  @Override
  public int getHoldability() throws SQLException {
    throw unsupported("getHoldability");
  }

  @Override
  public int getInt(String a0) throws SQLException {
    throw unsupported("getInt");
  }

  @Override
  public int getInt(int a0) throws SQLException {
    throw unsupported("getInt");
  }

  @Override
  public long getLong(String a0) throws SQLException {
    throw unsupported("getLong");
  }

  @Override
  public long getLong(int a0) throws SQLException {
    throw unsupported("getLong");
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    throw unsupported("getMetaData");
  }

  @Override
  public Reader getNCharacterStream(String a0) throws SQLException {
    throw unsupported("getNCharacterStream");
  }

  @Override
  public Reader getNCharacterStream(int a0) throws SQLException {
    throw unsupported("getNCharacterStream");
  }

  @Override
  public NClob getNClob(String a0) throws SQLException {
    throw unsupported("getNClob");
  }

  @Override
  public NClob getNClob(int a0) throws SQLException {
    throw unsupported("getNClob");
  }

  @Override
  public String getNString(String a0) throws SQLException {
    throw unsupported("getNString");
  }

  @Override
  public String getNString(int a0) throws SQLException {
    throw unsupported("getNString");
  }

  @Override
  public <T> T getObject(String a0, Class<T> a1) throws SQLException {
    throw unsupported("getObject");
  }

  @Override
  public Object getObject(String a0, Map<String, Class<?>> a1) throws SQLException {
    throw unsupported("getObject");
  }

  @Override
  public Object getObject(String a0) throws SQLException {
    throw unsupported("getObject");
  }

  @Override
  public <T> T getObject(int a0, Class<T> a1) throws SQLException {
    throw unsupported("getObject");
  }

  @Override
  public Object getObject(int a0, Map<String, Class<?>> a1) throws SQLException {
    throw unsupported("getObject");
  }

  @Override
  public Object getObject(int a0) throws SQLException {
    throw unsupported("getObject");
  }

  @Override
  public Ref getRef(String a0) throws SQLException {
    throw unsupported("getRef");
  }

  @Override
  public Ref getRef(int a0) throws SQLException {
    throw unsupported("getRef");
  }

  @Override
  public int getRow() throws SQLException {
    throw unsupported("getRow");
  }

  @Override
  public RowId getRowId(String a0) throws SQLException {
    throw unsupported("getRowId");
  }

  @Override
  public RowId getRowId(int a0) throws SQLException {
    throw unsupported("getRowId");
  }

  @Override
  public SQLXML getSQLXML(String a0) throws SQLException {
    throw unsupported("getSQLXML");
  }

  @Override
  public SQLXML getSQLXML(int a0) throws SQLException {
    throw unsupported("getSQLXML");
  }

  @Override
  public short getShort(String a0) throws SQLException {
    throw unsupported("getShort");
  }

  @Override
  public short getShort(int a0) throws SQLException {
    throw unsupported("getShort");
  }

  @Override
  public Statement getStatement() throws SQLException {
    throw unsupported("getStatement");
  }

  @Override
  public String getString(String a0) throws SQLException {
    throw unsupported("getString");
  }

  @Override
  public String getString(int a0) throws SQLException {
    throw unsupported("getString");
  }

  @Override
  public Time getTime(String a0, Calendar a1) throws SQLException {
    throw unsupported("getTime");
  }

  @Override
  public Time getTime(String a0) throws SQLException {
    throw unsupported("getTime");
  }

  @Override
  public Time getTime(int a0, Calendar a1) throws SQLException {
    throw unsupported("getTime");
  }

  @Override
  public Time getTime(int a0) throws SQLException {
    throw unsupported("getTime");
  }

  @Override
  public Timestamp getTimestamp(String a0, Calendar a1) throws SQLException {
    throw unsupported("getTimestamp");
  }

  @Override
  public Timestamp getTimestamp(String a0) throws SQLException {
    throw unsupported("getTimestamp");
  }

  @Override
  public Timestamp getTimestamp(int a0, Calendar a1) throws SQLException {
    throw unsupported("getTimestamp");
  }

  @Override
  public Timestamp getTimestamp(int a0) throws SQLException {
    throw unsupported("getTimestamp");
  }

  @Override
  public int getType() throws SQLException {
    throw unsupported("getType");
  }

  @Override
  public URL getURL(String a0) throws SQLException {
    throw unsupported("getURL");
  }

  @Override
  public URL getURL(int a0) throws SQLException {
    throw unsupported("getURL");
  }

  @Override
  public InputStream getUnicodeStream(String a0) throws SQLException {
    throw unsupported("getUnicodeStream");
  }

  @Override
  public InputStream getUnicodeStream(int a0) throws SQLException {
    throw unsupported("getUnicodeStream");
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    throw unsupported("getWarnings");
  }

  @Override
  public void insertRow() throws SQLException {
    throw readOnly();
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    throw unsupported("isAfterLast");
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    throw unsupported("isBeforeFirst");
  }

  @Override
  public boolean isClosed() throws SQLException {
    throw unsupported("isClosed");
  }

  @Override
  public boolean isFirst() throws SQLException {
    throw unsupported("isFirst");
  }

  @Override
  public boolean isLast() throws SQLException {
    throw unsupported("isLast");
  }

  @Override
  public boolean isWrapperFor(Class<?> a0) throws SQLException {
    throw unsupported("isWrapperFor");
  }

  @Override
  public boolean last() throws SQLException {
    throw unsupported("last");
  }

  @Override
  public void moveToCurrentRow() throws SQLException {
    throw readOnly();
  }

  @Override
  public void moveToInsertRow() throws SQLException {
    throw readOnly();
  }

  @Override
  public boolean next() throws SQLException {
    throw unsupported("next");
  }

  @Override
  public boolean previous() throws SQLException {
    throw unsupported("previous");
  }

  @Override
  public void refreshRow() throws SQLException {
    throw readOnly();
  }

  @Override
  public boolean relative(int a0) throws SQLException {
    throw unsupported("relative");
  }

  @Override
  public boolean rowDeleted() throws SQLException {
    throw unsupported("rowDeleted");
  }

  @Override
  public boolean rowInserted() throws SQLException {
    throw unsupported("rowInserted");
  }

  @Override
  public boolean rowUpdated() throws SQLException {
    throw unsupported("rowUpdated");
  }

  @Override
  public void setFetchDirection(int a0) throws SQLException {
    throw unsupported("setFetchDirection");
  }

  @Override
  public void setFetchSize(int a0) throws SQLException {
    throw unsupported("setFetchSize");
  }

  @Override
  public <T> T unwrap(Class<T> a0) throws SQLException {
    throw unsupported("unwrap");
  }

  @Override
  public void updateArray(String a0, Array a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateArray(int a0, Array a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(String a0, InputStream a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(String a0, InputStream a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(String a0, InputStream a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(int a0, InputStream a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(int a0, InputStream a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateAsciiStream(int a0, InputStream a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBigDecimal(String a0, BigDecimal a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBigDecimal(int a0, BigDecimal a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(String a0, InputStream a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(String a0, InputStream a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(String a0, InputStream a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(int a0, InputStream a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(int a0, InputStream a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBinaryStream(int a0, InputStream a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(String a0, InputStream a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(String a0, InputStream a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(String a0, Blob a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(int a0, InputStream a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(int a0, InputStream a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBlob(int a0, Blob a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBoolean(String a0, boolean a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBoolean(int a0, boolean a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateByte(String a0, byte a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateByte(int a0, byte a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBytes(String a0, byte[] a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateBytes(int a0, byte[] a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(String a0, Reader a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(String a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(String a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(int a0, Reader a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(int a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateCharacterStream(int a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(String a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(String a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(String a0, Clob a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(int a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(int a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateClob(int a0, Clob a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateDate(String a0, Date a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateDate(int a0, Date a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateDouble(String a0, double a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateDouble(int a0, double a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateFloat(String a0, float a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateFloat(int a0, float a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateInt(String a0, int a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateInt(int a0, int a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateLong(String a0, long a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateLong(int a0, long a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(String a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(String a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(int a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNCharacterStream(int a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(String a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(String a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(String a0, NClob a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(int a0, Reader a1, long a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(int a0, Reader a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNClob(int a0, NClob a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNString(String a0, String a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNString(int a0, String a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNull(String a0) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateNull(int a0) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(String a0, Object a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(String a0, Object a1, SQLType a2, int a3) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(String a0, Object a1, SQLType a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(String a0, Object a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, Object a1, int a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, Object a1, SQLType a2, int a3) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, Object a1, SQLType a2) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateObject(int a0, Object a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateRef(String a0, Ref a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateRef(int a0, Ref a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateRow() throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateRowId(String a0, RowId a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateRowId(int a0, RowId a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateSQLXML(String a0, SQLXML a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateSQLXML(int a0, SQLXML a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateShort(String a0, short a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateShort(int a0, short a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateString(String a0, String a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateString(int a0, String a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateTime(String a0, Time a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateTime(int a0, Time a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateTimestamp(String a0, Timestamp a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public void updateTimestamp(int a0, Timestamp a1) throws SQLException {
    throw readOnly();
  }

  @Override
  public boolean wasNull() throws SQLException {
    throw unsupported("wasNull");
  }

}
