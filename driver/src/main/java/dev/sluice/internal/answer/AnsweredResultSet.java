package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * A result answered from a kept one: forward-only, read-only, its {@code getStatement()} the
 * caller's statement, its {@code getMetaData()} the kept metadata, its {@code getWarnings()} the
 * {@code StaleResultWarning} saying how old it is and why it was answered. Each getter converts
 * the kept value as the driver would ({@link Dialect}); the kept values themselves are shared by
 * every answer and never handed out, only copies of the mutable ones.
 *
 * <p>Beyond the values it behaves as the driver's result does (pgjdbc's, as
 * {@code AnsweredResultSetFidelityTest} compares on the real PostgreSQL): it is closed when the
 * caller's statement is (closing the statement, or the connection that closes it, or running it
 * again, which the statement's wrapper does); its fetch size is the statement's at execution;
 * a scroll, an update or a fetch direction other than forward is refused as on a forward-only,
 * read-only result ({@code 24000}); its cursor name is {@code null}. It unwraps only to itself:
 * there is no driver's result behind it.
 *
 * <p>Not threadsafe, like any {@code ResultSet}.
 */
final class AnsweredResultSet extends ResultSetBase {
  private final Kept kept;
  private final Dialect dialect;
  private final Statement statement;
  private final StaleWarnings warnings;
  private final String budgetName;
  /** Made at the first {@link #getWarnings()}: most callers never ask. */
  private SQLWarning warning;
  /** How old the kept result was when it answered; -1 where not told. */
  final long ageMillis;
  /** Whether it answered by joining an identical read in flight. */
  final boolean joined;
  private int row = -1;
  private boolean closed;
  private boolean lastWasNull;
  private int fetchSize;

  AnsweredResultSet(Kept kept, Dialect dialect, Statement statement, SQLWarning warning) {
    this(kept, dialect, statement, (name, age, join) -> warning, null, -1, false);
  }

  /**
   * An answer, whose warning {@code warnings} makes when the caller asks for it.
   *
   * @param budgetName the budget that would have refused the read, for the warning
   */
  AnsweredResultSet(Kept kept, Dialect dialect, Statement statement, StaleWarnings warnings,
      String budgetName, long ageMillis, boolean joined) {
    this.kept = kept;
    this.dialect = dialect;
    this.statement = statement;
    this.warnings = warnings;
    this.budgetName = budgetName;
    this.ageMillis = ageMillis;
    this.joined = joined;
    this.fetchSize = fetchSizeOf(statement);
  }

  /** The driver's result takes its statement's fetch size when it is made. */
  private static int fetchSizeOf(Statement statement) {
    try {
      return statement == null ? 0 : statement.getFetchSize();
    } catch (SQLException | RuntimeException e) {
      return 0;
    }
  }

  private Dialect.Cell cell(int column) throws SQLException {
    checkOpen();
    if (row < 0 || row >= kept.rows()) {
      throw new SQLException("ResultSet not positioned properly, perhaps you need to call next.",
          "24000");
    }
    Columns columns = kept.columns();
    if (column < 1 || column > columns.count()) {
      throw new SQLException("The column index is out of range: " + column
          + ", number of columns: " + columns.count() + ".", "22023");
    }
    Object object = kept.object(row, column);
    lastWasNull = object == null;
    return new Dialect.Cell(object, kept.text(row, column), kept.bytes(row, column),
        columns.getColumnType(column), columns.getColumnTypeName(column));
  }

  private void checkOpen() throws SQLException {
    if (isClosed()) {
      throw new SQLException("This ResultSet is closed.", "55000");
    }
  }

  private static SQLException forwardOnly() {
    return new SQLException(
        "Operation requires a scrollable ResultSet, but this ResultSet is FORWARD_ONLY.",
        "24000");
  }

  // ---- the cursor

  @Override
  public boolean next() throws SQLException {
    checkOpen();
    if (row < kept.rows()) {
      row++;
    }
    return row < kept.rows();
  }

  @Override
  public void close() {
    closed = true;
  }

  /**
   * Closed by its own {@code close()}, or once the caller's statement is closed (by the caller,
   * or with its connection): asked of the statement, so that nothing on the statement's path
   * has to tell the answer.
   */
  @Override
  public boolean isClosed() {
    if (!closed && statement != null) {
      try {
        closed = statement.isClosed();
      } catch (SQLException | RuntimeException e) {
        closed = true; // a statement that cannot say is one whose results cannot be read
      }
    }
    return closed;
  }

  // ---- what a forward-only result refuses, as the driver refuses it

  @Override
  public boolean absolute(int row) throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public boolean relative(int rows) throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public void beforeFirst() throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public void afterLast() throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public boolean first() throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public boolean last() throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public boolean previous() throws SQLException {
    checkOpen();
    throw forwardOnly();
  }

  @Override
  public String getCursorName() throws SQLException {
    checkOpen();
    return null; // no named cursor: the whole result was read
  }

  @Override
  public boolean wasNull() throws SQLException {
    checkOpen();
    return lastWasNull;
  }

  @Override
  public int findColumn(String label) throws SQLException {
    checkOpen();
    return kept.columns().find(label);
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    return kept.columns();
  }

  /** The caller's statement, closed or not, as Sluice's wrapper of a live result returns it. */
  @Override
  public Statement getStatement() {
    return statement;
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    checkOpen();
    SQLWarning w = warning;
    if (w == null) {
      w = warnings.stale(budgetName, ageMillis, joined);
      warning = w;
    }
    return w;
  }

  @Override
  public void clearWarnings() {
    // the warning is what marks the answer; it stays readable
  }

  @Override
  public int getType() throws SQLException {
    checkOpen();
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getConcurrency() throws SQLException {
    checkOpen();
    return ResultSet.CONCUR_READ_ONLY;
  }

  /** pgjdbc's result does not implement it; any other driver's tells its statement's. */
  @Override
  public int getHoldability() throws SQLException {
    checkOpen();
    if (dialect instanceof PostgresDialect) {
      throw new SQLFeatureNotSupportedException("getHoldability is not implemented by pgjdbc's"
          + " result, nor by its answer", "0A000");
    }
    return statement == null ? ResultSet.CLOSE_CURSORS_AT_COMMIT
        : statement.getResultSetHoldability();
  }

  @Override
  public int getFetchDirection() throws SQLException {
    checkOpen();
    return ResultSet.FETCH_FORWARD;
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    if (direction == ResultSet.FETCH_REVERSE || direction == ResultSet.FETCH_UNKNOWN) {
      throw forwardOnly();
    }
    if (direction != ResultSet.FETCH_FORWARD) {
      throw new SQLException("Invalid fetch direction constant: " + direction + ".", "22023");
    }
  }

  @Override
  public int getFetchSize() throws SQLException {
    checkOpen();
    return fetchSize;
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    if (rows < 0) {
      throw new SQLException("Fetch size must be a value greater to or equal to 0.", "22023");
    }
    fetchSize = rows;
  }

  @Override
  public int getRow() throws SQLException {
    checkOpen();
    return row >= 0 && row < kept.rows() ? row + 1 : 0;
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    checkOpen();
    return row < 0 && kept.rows() > 0;
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    checkOpen();
    return row >= kept.rows() && kept.rows() > 0;
  }

  @Override
  public boolean isFirst() throws SQLException {
    checkOpen();
    return row == 0 && kept.rows() > 0;
  }

  @Override
  public boolean isLast() throws SQLException {
    checkOpen();
    return row == kept.rows() - 1;
  }

  @Override
  public boolean rowUpdated() throws SQLException {
    checkOpen();
    return false;
  }

  @Override
  public boolean rowInserted() throws SQLException {
    checkOpen();
    return false;
  }

  @Override
  public boolean rowDeleted() throws SQLException {
    checkOpen();
    return false;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("An answered result wraps no driver's result: " + iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }

  // ---- the getters by index

  @Override
  public Object getObject(int column) throws SQLException {
    return Values.copy(cell(column).object());
  }

  @Override
  public <T> T getObject(int column, Class<T> type) throws SQLException {
    return dialect.getObject(cell(column), type);
  }

  @Override
  public String getString(int column) throws SQLException {
    return cell(column).text();
  }

  @Override
  public boolean getBoolean(int column) throws SQLException {
    return dialect.getBoolean(cell(column));
  }

  @Override
  public byte getByte(int column) throws SQLException {
    return dialect.getByte(cell(column));
  }

  @Override
  public short getShort(int column) throws SQLException {
    return dialect.getShort(cell(column));
  }

  @Override
  public int getInt(int column) throws SQLException {
    return dialect.getInt(cell(column));
  }

  @Override
  public long getLong(int column) throws SQLException {
    return dialect.getLong(cell(column));
  }

  @Override
  public float getFloat(int column) throws SQLException {
    return dialect.getFloat(cell(column));
  }

  @Override
  public double getDouble(int column) throws SQLException {
    return dialect.getDouble(cell(column));
  }

  @Override
  public BigDecimal getBigDecimal(int column) throws SQLException {
    return dialect.getBigDecimal(cell(column));
  }

  @Override
  public byte[] getBytes(int column) throws SQLException {
    return dialect.getBytes(cell(column));
  }

  @Override
  public Date getDate(int column) throws SQLException {
    return dialect.getDate(cell(column), null);
  }

  @Override
  public Date getDate(int column, Calendar cal) throws SQLException {
    return dialect.getDate(cell(column), cal);
  }

  @Override
  public Time getTime(int column) throws SQLException {
    return dialect.getTime(cell(column), null);
  }

  @Override
  public Time getTime(int column, Calendar cal) throws SQLException {
    return dialect.getTime(cell(column), cal);
  }

  @Override
  public Timestamp getTimestamp(int column) throws SQLException {
    return dialect.getTimestamp(cell(column), null);
  }

  @Override
  public Timestamp getTimestamp(int column, Calendar cal) throws SQLException {
    return dialect.getTimestamp(cell(column), cal);
  }

  @Override
  public String getNString(int column) throws SQLException {
    return getString(column);
  }

  // ---- the getters by label

  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(findColumn(label));
  }

  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return getObject(findColumn(label), type);
  }

  @Override
  public String getString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  @Override
  public boolean getBoolean(String label) throws SQLException {
    return getBoolean(findColumn(label));
  }

  @Override
  public byte getByte(String label) throws SQLException {
    return getByte(findColumn(label));
  }

  @Override
  public short getShort(String label) throws SQLException {
    return getShort(findColumn(label));
  }

  @Override
  public int getInt(String label) throws SQLException {
    return getInt(findColumn(label));
  }

  @Override
  public long getLong(String label) throws SQLException {
    return getLong(findColumn(label));
  }

  @Override
  public float getFloat(String label) throws SQLException {
    return getFloat(findColumn(label));
  }

  @Override
  public double getDouble(String label) throws SQLException {
    return getDouble(findColumn(label));
  }

  @Override
  public BigDecimal getBigDecimal(String label) throws SQLException {
    return getBigDecimal(findColumn(label));
  }

  @Override
  public byte[] getBytes(String label) throws SQLException {
    return getBytes(findColumn(label));
  }

  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(findColumn(label));
  }

  @Override
  public Date getDate(String label, Calendar cal) throws SQLException {
    return getDate(findColumn(label), cal);
  }

  @Override
  public Time getTime(String label) throws SQLException {
    return getTime(findColumn(label));
  }

  @Override
  public Time getTime(String label, Calendar cal) throws SQLException {
    return getTime(findColumn(label), cal);
  }

  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  @Override
  public Timestamp getTimestamp(String label, Calendar cal) throws SQLException {
    return getTimestamp(findColumn(label), cal);
  }

  @Override
  public String getNString(String label) throws SQLException {
    return getString(findColumn(label));
  }
}
