package dev.sluice.internal.answer;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The column metadata of a kept result, read once from the driver's {@code ResultSetMetaData}:
 * every answer of every column, or the exception the driver threw for it, which is thrown again.
 * The answered result's {@code getMetaData()}.
 *
 * <p>Immutable, so threadsafe.
 */
final class Columns implements ResultSetMetaData {
  /** The properties, in the order of {@link #read}, each with the class of its answer. */
  private enum P {
    LABEL(String.class), NAME(String.class), TYPE(Integer.class), TYPE_NAME(String.class),
    CLASS_NAME(String.class), PRECISION(Integer.class), SCALE(Integer.class),
    DISPLAY_SIZE(Integer.class), NULLABLE(Integer.class), AUTO_INCREMENT(Boolean.class),
    CASE_SENSITIVE(Boolean.class), SEARCHABLE(Boolean.class), CURRENCY(Boolean.class),
    SIGNED(Boolean.class), SCHEMA(String.class), TABLE(String.class), CATALOG(String.class),
    READ_ONLY(Boolean.class), WRITABLE(Boolean.class), DEFINITELY_WRITABLE(Boolean.class);

    private final Class<?> kind;

    P(Class<?> kind) {
      this.kind = kind;
    }

    /** Whether {@code answer} is one a driver can give: of the kind, or its exception. */
    boolean fits(Object answer) {
      return answer == null ? kind == String.class
          : answer.getClass() == kind || answer instanceof SQLException;
    }
  }

  /** How many properties each column has: the answers per column. */
  static final int PROPERTIES = P.values().length;

  private interface Read {
    Object from(ResultSetMetaData m, int column) throws SQLException;
  }

  private static final Read[] READS = {
      ResultSetMetaData::getColumnLabel, ResultSetMetaData::getColumnName,
      ResultSetMetaData::getColumnType, ResultSetMetaData::getColumnTypeName,
      ResultSetMetaData::getColumnClassName, ResultSetMetaData::getPrecision,
      ResultSetMetaData::getScale, ResultSetMetaData::getColumnDisplaySize,
      ResultSetMetaData::isNullable, ResultSetMetaData::isAutoIncrement,
      ResultSetMetaData::isCaseSensitive, ResultSetMetaData::isSearchable,
      ResultSetMetaData::isCurrency, ResultSetMetaData::isSigned,
      ResultSetMetaData::getSchemaName, ResultSetMetaData::getTableName,
      ResultSetMetaData::getCatalogName, ResultSetMetaData::isReadOnly,
      ResultSetMetaData::isWritable, ResultSetMetaData::isDefinitelyWritable,
  };

  private final int count;
  private final Object[] answers; // [column - 1][property], flattened
  private final Map<String, Integer> byLabel;
  private final long bytes;

  private Columns(int count, Object[] answers, Map<String, Integer> byLabel) {
    this.count = count;
    this.answers = answers;
    this.byLabel = byLabel;
    this.bytes = estimate(answers);
  }

  /** Reads every property of every column from the driver's metadata. */
  static Columns read(ResultSetMetaData meta) throws SQLException {
    int count = meta.getColumnCount();
    Object[] answers = new Object[count * READS.length];
    Map<String, Integer> byLabel = new HashMap<>();
    for (int c = 1; c <= count; c++) {
      for (int p = 0; p < READS.length; p++) {
        answers[(c - 1) * READS.length + p] = answer(meta, c, READS[p]);
      }
      byLabel.putIfAbsent(meta.getColumnLabel(c).toLowerCase(Locale.ROOT), c);
    }
    return new Columns(count, answers, byLabel);
  }

  /**
   * Columns rebuilt from another's {@link #answers()} (a shared result, {@code KeptCodec}), or
   * {@code null} when they cannot be: not {@link #PROPERTIES} a column, an answer not of its
   * property's kind, or a label that is not a {@code String} (with which {@link #read} fails).
   */
  static Columns of(int count, Object[] answers) {
    if (count < 0 || answers.length != (long) count * PROPERTIES) {
      return null;
    }
    P[] properties = P.values();
    for (int i = 0; i < answers.length; i++) {
      if (!properties[i % PROPERTIES].fits(answers[i])) {
        return null;
      }
    }
    Map<String, Integer> byLabel = new HashMap<>();
    for (int c = 1; c <= count; c++) {
      if (!(answers[(c - 1) * PROPERTIES + P.LABEL.ordinal()] instanceof String label)) {
        return null;
      }
      byLabel.putIfAbsent(label.toLowerCase(Locale.ROOT), c);
    }
    return new Columns(count, answers.clone(), byLabel);
  }

  /** Every answer (or exception) of every column, column by column in property order: a copy. */
  Object[] answers() {
    return answers.clone();
  }

  private static Object answer(ResultSetMetaData meta, int column, Read read) {
    try {
      return read.from(meta, column);
    } catch (SQLException e) {
      return e;
    }
  }

  /** The first column of {@code label}, case-insensitively, as JDBC's {@code findColumn}. */
  int find(String label) throws SQLException {
    Integer column = label == null ? null : byLabel.get(label.toLowerCase(Locale.ROOT));
    if (column == null) {
      throw new SQLException("The column name " + label + " was not found in this ResultSet.",
          "42703");
    }
    return column;
  }

  /** Whether each column's type can be kept at all: no LOB, stream, array, REF, STRUCT, XML. */
  boolean keepable() throws SQLException {
    for (int c = 1; c <= count; c++) {
      if (!isValueType(getColumnType(c))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isValueType(int sqlType) {
    switch (sqlType) {
      case Types.BLOB, Types.CLOB, Types.NCLOB, Types.LONGVARBINARY, Types.LONGVARCHAR,
          Types.LONGNVARCHAR, Types.ARRAY, Types.REF, Types.REF_CURSOR, Types.STRUCT,
          Types.SQLXML, Types.JAVA_OBJECT, Types.DATALINK, Types.DISTINCT, Types.ROWID:
        return false;
      default:
        return true;
    }
  }

  int count() {
    return count;
  }

  /** Roughly the bytes held, for the store's bound. */
  long bytes() {
    return bytes;
  }

  /**
   * This object, its array of answers and what they hold (a small box or a {@code Boolean} is
   * the JDK's shared one: nothing), and the map of labels: its table and a node per column.
   */
  private static long estimate(Object[] answers) {
    int count = answers.length / PROPERTIES;
    long table = Integer.highestOneBit(Math.max(16, count * 4 / 3 + 1) * 2 - 1);
    long sum = 32 + Sizes.aligned(Sizes.ARRAY + Sizes.REFERENCE * answers.length)
        + 48 + Sizes.aligned(Sizes.ARRAY + Sizes.REFERENCE * table) + 32L * count;
    for (Object a : answers) {
      sum += Sizes.of(a);
    }
    return sum;
  }

  private Object get(int column, P property) throws SQLException {
    if (column < 1 || column > count) {
      throw new SQLException("The column index is out of range: " + column
          + ", number of columns: " + count + ".", "22023");
    }
    Object a = answers[(column - 1) * READS.length + property.ordinal()];
    if (a instanceof SQLException e) {
      throw e;
    }
    return a;
  }

  private String text(int column, P property) throws SQLException {
    return (String) get(column, property);
  }

  private int number(int column, P property) throws SQLException {
    return (Integer) get(column, property);
  }

  private boolean flag(int column, P property) throws SQLException {
    return (Boolean) get(column, property);
  }

  @Override
  public int getColumnCount() {
    return count;
  }

  @Override
  public boolean isAutoIncrement(int column) throws SQLException {
    return flag(column, P.AUTO_INCREMENT);
  }

  @Override
  public boolean isCaseSensitive(int column) throws SQLException {
    return flag(column, P.CASE_SENSITIVE);
  }

  @Override
  public boolean isSearchable(int column) throws SQLException {
    return flag(column, P.SEARCHABLE);
  }

  @Override
  public boolean isCurrency(int column) throws SQLException {
    return flag(column, P.CURRENCY);
  }

  @Override
  public int isNullable(int column) throws SQLException {
    return number(column, P.NULLABLE);
  }

  @Override
  public boolean isSigned(int column) throws SQLException {
    return flag(column, P.SIGNED);
  }

  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    return number(column, P.DISPLAY_SIZE);
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    return text(column, P.LABEL);
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return text(column, P.NAME);
  }

  @Override
  public String getSchemaName(int column) throws SQLException {
    return text(column, P.SCHEMA);
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    return number(column, P.PRECISION);
  }

  @Override
  public int getScale(int column) throws SQLException {
    return number(column, P.SCALE);
  }

  @Override
  public String getTableName(int column) throws SQLException {
    return text(column, P.TABLE);
  }

  @Override
  public String getCatalogName(int column) throws SQLException {
    return text(column, P.CATALOG);
  }

  @Override
  public int getColumnType(int column) throws SQLException {
    return number(column, P.TYPE);
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return text(column, P.TYPE_NAME);
  }

  @Override
  public boolean isReadOnly(int column) throws SQLException {
    return flag(column, P.READ_ONLY);
  }

  @Override
  public boolean isWritable(int column) throws SQLException {
    return flag(column, P.WRITABLE);
  }

  @Override
  public boolean isDefinitelyWritable(int column) throws SQLException {
    return flag(column, P.DEFINITELY_WRITABLE);
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    return text(column, P.CLASS_NAME);
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("Kept column metadata does not wrap " + iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
