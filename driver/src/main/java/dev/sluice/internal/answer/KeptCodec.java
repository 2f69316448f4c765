package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A kept result as bytes and back, exactly, to share it with the other instances of its budget:
 * its key, column metadata, every value's {@code getObject}, {@code getString} and
 * {@code getBytes}, and its age (not the local clock, which means nothing elsewhere).
 *
 * <p>The format (big-endian): a version byte; the age in nanoseconds; the dialect's name; the
 * key (SQL, each parameter's setter by name, its extra and its value, {@code maxRows}, user,
 * catalog, schema); the column count and each column's {@link Columns#PROPERTIES} answers; the
 * row count and each value's three forms. A value is a tag byte and its payload; a string is its
 * UTF-8 bytes (not Java's modified UTF-8), a string or byte array prefixed by its length.
 *
 * <p>Only the classes listed here are carried, compared by {@code getClass() ==}, and
 * PostgreSQL's {@code PGobject} by its name and reflection (the driver is no dependency): a
 * result holding any other, a subclass included, is not shared — nothing is guessed. No Java
 * serialization. Decoding trusts nothing: every count and length is checked against the bytes
 * left before anything is allocated, so garbage costs at most a few times its own size, and any
 * malformed, truncated or foreign input decodes to {@code null}.
 *
 * <p>Stateless, so threadsafe.
 */
final class KeptCodec {
  /** The largest encoding; a larger result is not shared. */
  static final int MAX_BYTES = 1 << 20;

  private static final byte VERSION = 1;
  private static final AtomicBoolean WARMED = new AtomicBoolean();
  private static final String PG_OBJECT_CLASS = "org.postgresql.util.PGobject";
  private static final Dialect[] DIALECTS = {PostgresDialect.INSTANCE, H2Dialect.INSTANCE};

  /**
   * A value's class on the wire, its ordinal the tag byte: append only. {@code PG_OBJECT} is
   * PostgreSQL's {@code PGobject}, known by its name.
   */
  private enum Tag {
    NULL(null), BOOLEAN(Boolean.class), BYTE(Byte.class), SHORT(Short.class),
    INT(Integer.class), LONG(Long.class), FLOAT(Float.class), DOUBLE(Double.class),
    BIG_DECIMAL(BigDecimal.class), BIG_INTEGER(BigInteger.class), STRING(String.class),
    BYTES(byte[].class), DATE(Date.class), TIME(Time.class), TIMESTAMP(Timestamp.class),
    UUID(java.util.UUID.class), LOCAL_DATE(LocalDate.class), LOCAL_TIME(LocalTime.class),
    LOCAL_DATE_TIME(LocalDateTime.class), OFFSET_DATE_TIME(OffsetDateTime.class),
    OFFSET_TIME(OffsetTime.class), INSTANT(Instant.class), ZONED(Zoned.class),
    SQL_EXCEPTION(SQLException.class), PG_OBJECT(null);

    private static final Tag[] ALL = values();
    /** A plain loop, not a stream: a stream's first use costs a cold JVM tens of ms. */
    private static final Map<Class<?>, Tag> BY_CLASS = new HashMap<>();

    static {
      for (Tag t : ALL) {
        if (t.type != null) {
          BY_CLASS.put(t.type, t);
        }
      }
    }

    private final Class<?> type;

    Tag(Class<?> type) {
      this.type = type;
    }

    /** The tag of {@code v}'s exact class; refuses a class not carried, a subclass too. */
    static Tag of(Object v) throws Unshareable {
      Tag tag = v == null ? NULL : BY_CLASS.get(v.getClass());
      if (tag == null && v.getClass().getName().equals(PG_OBJECT_CLASS)) {
        return PG_OBJECT;
      }
      return tag == null ? refuse() : tag;
    }

    static Tag read(ByteBuffer in) throws Unshareable {
      int b = in.get();
      return b >= 0 && b < ALL.length ? ALL[b] : refuse();
    }
  }

  private KeptCodec() {}

  /**
   * Encodes and decodes a small result {@code rounds} times, so that the codec is loaded and
   * compiled when sharing starts rather than when an outage's first results arrive: then the
   * machine is busiest, a background thread gets a small share of its CPUs, and an interpreted
   * codec left results a quarter of a second late in the drill's first second.
   *
   * <p>Once per JVM: the compiled code serves every budget, and a second budget's warm-up would
   * only burn a core.
   *
   * @param rounds how many times; a few thousand let the JIT compile the codec
   */
  static void warmUp(int rounds) {
    if (!WARMED.compareAndSet(false, true)) {
      return;
    }
    Kept kept = sample("SELECT id, name FROM items WHERE id = 1", 0);
    if (kept == null) {
      return;
    }
    for (int i = 0; i < rounds; i++) {
      byte[] encoded = encode(kept, i);
      if (encoded == null || decode(encoded, i) == null) {
        return;
      }
    }
  }

  /**
   * A kept result of one row, an {@code INTEGER} 1 and a {@code VARCHAR} "one", as H2 returns
   * them: what {@link #warmUp} encodes.
   *
   * @return the result, or {@code null} if {@code sql} is not a read
   */
  static Kept sample(String sql, long keptAtNanos) {
    Object[] column = {"id", "id", 4, "INTEGER", "java.lang.Integer", 32, 0, 11, 0, false,
        false, true, false, true, "PUBLIC", "ITEMS", "SLUICE", false, true, false};
    Object[] answers = new Object[2 * Columns.PROPERTIES];
    System.arraycopy(column, 0, answers, 0, column.length);
    System.arraycopy(column, 0, answers, column.length, column.length);
    answers[column.length] = "name";
    answers[column.length + 1] = "name";
    answers[column.length + 2] = 12;
    answers[column.length + 3] = "CHARACTER VARYING";
    answers[column.length + 4] = "java.lang.String";
    Columns columns = Columns.of(2, answers);
    ReadKey key = ReadKey.of(sql, null, 0, "sluice", null, null);
    return columns == null || key == null ? null
        : new Kept(key, columns, H2Dialect.INSTANCE, new Object[] {1, "one"},
            new String[] {"1", "one"}, new byte[][] {null, null}, 1, 0, keptAtNanos);
  }

  /**
   * The bytes of {@code kept}, carrying its age at {@code nowNanos}.
   *
   * @return the encoding, or {@code null} when it cannot be shared exactly: a value, parameter or
   *     column answer of a class not carried, a string that is not valid UTF-16 (a lone
   *     surrogate), or more than {@link #MAX_BYTES}
   */
  static byte[] encode(Kept kept, long nowNanos) {
    try {
      Writer out = new Writer();
      out.room(9).put(VERSION).putLong(Math.max(0, nowNanos - kept.keptAtNanos()));
      out.string(kept.dialect().name());
      writeKey(out, kept.key());
      Object[] answers = kept.columns().answers();
      out.room(4).putInt(kept.columns().count());
      for (Object a : answers) {
        writeValue(out, a);
      }
      out.room(4).putInt(kept.rows());
      for (int r = 0; r < kept.rows(); r++) {
        for (int c = 1; c <= kept.columns().count(); c++) {
          writeValue(out, kept.object(r, c));
          writeValue(out, kept.text(r, c));
          writeValue(out, kept.bytes(r, c));
        }
      }
      return out.toBytes();
    } catch (Unshareable e) {
      return null;
    }
  }

  /**
   * The result {@code bytes} encode, kept {@code age} before {@code nowNanos}.
   *
   * @return the result, or {@code null} for bytes that are not a whole encoding of this version,
   *     or name a dialect, tag or class not known here
   */
  static Kept decode(byte[] bytes, long nowNanos) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      long age = in.get() == VERSION ? in.getLong() : -1;
      if (age < 0) {
        return null;
      }
      Dialect dialect = dialect(readString(in));
      ReadKey key = readKey(in);
      int count = count(in, Columns.PROPERTIES);
      Object[] answers = new Object[count * Columns.PROPERTIES];
      for (int i = 0; i < answers.length; i++) {
        answers[i] = readValue(in, false);
      }
      Columns columns = Columns.of(count, answers);
      int rows = in.getInt();
      long values = (long) rows * count;
      if (columns == null || rows < 0 || values * 3 > in.remaining()) {
        return null;
      }
      Object[] objects = new Object[(int) values];
      String[] texts = new String[(int) values];
      byte[][] raws = new byte[(int) values][];
      long size = Kept.baseBytes(key, columns);
      for (int i = 0; i < values; i++) {
        objects[i] = readValue(in, false);
        texts[i] = readText(in);
        raws[i] = readRaw(in);
        size += Kept.valueBytes(objects[i], texts[i], raws[i]);
      }
      return in.hasRemaining() ? null
          : new Kept(key, columns, dialect, objects, texts, raws, rows, size, nowNanos - age);
    } catch (Unshareable | RuntimeException e) {
      return null; // truncated (BufferUnderflowException), out of range (DateTimeException)…
    }
  }

  private static void writeKey(Writer out, ReadKey key) throws Unshareable {
    out.string(key.sql());
    Parameters.Snapshot p = key.parameters();
    out.room(4).putInt(p.values().length);
    for (int i = 0; i < p.values().length; i++) {
      out.string(p.setters()[i].name());
      out.room(8).putLong(p.extras()[i]);
      writeValue(out, p.values()[i]);
    }
    out.room(4).putInt(key.maxRows());
    writeValue(out, key.user());
    writeValue(out, key.catalog());
    writeValue(out, key.schema());
  }

  private static ReadKey readKey(ByteBuffer in) throws Unshareable {
    String sql = readString(in);
    int n = count(in, 13); // each: a setter's name (4 bytes or more), its extra, a value's tag
    Object[] values = new Object[n];
    Parameters.Setter[] setters = new Parameters.Setter[n];
    long[] extras = new long[n];
    for (int i = 0; i < n; i++) {
      setters[i] = Parameters.Setter.valueOf(readString(in));
      extras[i] = in.getLong();
      values[i] = readValue(in, true);
    }
    return new ReadKey(sql, new Parameters.Snapshot(values, setters, extras), in.getInt(),
        readText(in), readText(in), readText(in));
  }

  private static void writeValue(Writer out, Object v) throws Unshareable {
    Tag tag = Tag.of(v);
    out.room(1).put((byte) tag.ordinal());
    switch (tag) {
      case NULL -> { }
      case BOOLEAN -> out.room(1).put((byte) ((Boolean) v ? 1 : 0));
      case BYTE -> out.room(1).put((Byte) v);
      case SHORT -> out.room(2).putShort((Short) v);
      case INT -> out.room(4).putInt((Integer) v);
      case LONG -> out.room(8).putLong((Long) v);
      case FLOAT -> out.room(4).putInt(Float.floatToRawIntBits((Float) v));
      case DOUBLE -> out.room(8).putLong(Double.doubleToRawLongBits((Double) v));
      case BIG_DECIMAL -> {
        out.room(4).putInt(((BigDecimal) v).scale());
        out.bytes(((BigDecimal) v).unscaledValue().toByteArray());
      }
      case BIG_INTEGER -> out.bytes(((BigInteger) v).toByteArray());
      case STRING -> out.string((String) v);
      case BYTES -> out.bytes((byte[]) v);
      case DATE, TIME -> out.room(8).putLong(((java.util.Date) v).getTime());
      case TIMESTAMP -> out.room(12).putLong(((Timestamp) v).getTime())
          .putInt(((Timestamp) v).getNanos());
      case UUID -> out.room(16).putLong(((UUID) v).getMostSignificantBits())
          .putLong(((UUID) v).getLeastSignificantBits());
      case LOCAL_DATE -> out.room(8).putLong(((LocalDate) v).toEpochDay());
      case LOCAL_TIME -> out.room(8).putLong(((LocalTime) v).toNanoOfDay());
      case LOCAL_DATE_TIME -> writeDateTime(out, (LocalDateTime) v);
      case OFFSET_DATE_TIME -> {
        writeDateTime(out, ((OffsetDateTime) v).toLocalDateTime());
        out.room(4).putInt(((OffsetDateTime) v).getOffset().getTotalSeconds());
      }
      case OFFSET_TIME -> out.room(12).putLong(((OffsetTime) v).toLocalTime().toNanoOfDay())
          .putInt(((OffsetTime) v).getOffset().getTotalSeconds());
      case INSTANT -> out.room(12).putLong(((Instant) v).getEpochSecond())
          .putInt(((Instant) v).getNano());
      case ZONED -> writeZoned(out, (Zoned) v);
      case SQL_EXCEPTION -> writeException(out, (SQLException) v);
      case PG_OBJECT -> writePgObject(out, v);
    }
  }

  private static Object readValue(ByteBuffer in, boolean parameter) throws Unshareable {
    return switch (Tag.read(in)) {
      case NULL -> null;
      case BOOLEAN -> switch (in.get()) {
        case 0 -> Boolean.FALSE;
        case 1 -> Boolean.TRUE;
        default -> refuse();
      };
      case BYTE -> in.get();
      case SHORT -> in.getShort();
      case INT -> in.getInt();
      case LONG -> in.getLong();
      case FLOAT -> Float.intBitsToFloat(in.getInt());
      case DOUBLE -> Double.longBitsToDouble(in.getLong());
      case BIG_DECIMAL -> {
        int scale = in.getInt();
        yield new BigDecimal(new BigInteger(readBytes(in)), scale);
      }
      case BIG_INTEGER -> new BigInteger(readBytes(in));
      case STRING -> readString(in);
      case BYTES -> readBytes(in);
      case DATE -> new Date(in.getLong());
      case TIME -> new Time(in.getLong());
      case TIMESTAMP -> {
        Timestamp t = new Timestamp(in.getLong());
        t.setNanos(in.getInt());
        yield t;
      }
      case UUID -> new UUID(in.getLong(), in.getLong());
      case LOCAL_DATE -> LocalDate.ofEpochDay(in.getLong());
      case LOCAL_TIME -> LocalTime.ofNanoOfDay(in.getLong());
      case LOCAL_DATE_TIME -> readDateTime(in);
      case OFFSET_DATE_TIME -> OffsetDateTime.of(readDateTime(in), offset(in));
      case OFFSET_TIME -> OffsetTime.of(LocalTime.ofNanoOfDay(in.getLong()), offset(in));
      case INSTANT -> Instant.ofEpochSecond(in.getLong(), in.getInt());
      // Only a parameter is zoned, and only once: the recursion is one level deep.
      case ZONED -> parameter ? new Zoned(readValue(in, false), readString(in)) : refuse();
      case SQL_EXCEPTION -> new SQLException(readText(in), readText(in), in.getInt());
      case PG_OBJECT -> readPgObject(readText(in), readText(in));
    };
  }

  private static void writeDateTime(Writer out, LocalDateTime t) throws Unshareable {
    out.room(16).putLong(t.toLocalDate().toEpochDay()).putLong(t.toLocalTime().toNanoOfDay());
  }

  private static LocalDateTime readDateTime(ByteBuffer in) {
    return LocalDateTime.of(LocalDate.ofEpochDay(in.getLong()),
        LocalTime.ofNanoOfDay(in.getLong()));
  }

  private static ZoneOffset offset(ByteBuffer in) {
    return ZoneOffset.ofTotalSeconds(in.getInt());
  }

  private static void writeZoned(Writer out, Zoned z) throws Unshareable {
    if (z.value() instanceof Zoned) {
      throw new Unshareable(); // never made: a Calendar's setter wraps the value once
    }
    writeValue(out, z.value());
    out.string(z.zone());
  }

  private static void writeException(Writer out, SQLException e) throws Unshareable {
    writeValue(out, e.getMessage());
    writeValue(out, e.getSQLState());
    out.room(4).putInt(e.getErrorCode());
  }

  /** A {@code PGobject} (its exact class) by its type and value. */
  private static void writePgObject(Writer out, Object v) throws Unshareable {
    Object type;
    Object value;
    try {
      type = v.getClass().getMethod("getType").invoke(v);
      value = v.getClass().getMethod("getValue").invoke(v);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      throw new Unshareable();
    }
    if (!(type == null || type instanceof String) || !(value == null || value instanceof String)) {
      throw new Unshareable();
    }
    writeValue(out, type);
    writeValue(out, value);
  }

  /** A new {@code PGobject}, of the class the context's class loader or ours can load. */
  private static Object readPgObject(String type, String value) throws Unshareable {
    try {
      Class<?> c = pgObjectClass();
      Object o = c.getConstructor().newInstance();
      c.getMethod("setType", String.class).invoke(o, type);
      c.getMethod("setValue", String.class).invoke(o, value);
      return o;
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new Unshareable();
    }
  }

  private static Class<?> pgObjectClass() throws ClassNotFoundException {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null) {
      try {
        return Class.forName(PG_OBJECT_CLASS, false, context);
      } catch (ClassNotFoundException | LinkageError e) {
        // try ours
      }
    }
    return Class.forName(PG_OBJECT_CLASS, false, KeptCodec.class.getClassLoader());
  }

  private static Dialect dialect(String name) throws Unshareable {
    for (Dialect d : DIALECTS) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new Unshareable();
  }

  /** A count of items of at least {@code minBytes} each, which the bytes left can hold. */
  private static int count(ByteBuffer in, int minBytes) throws Unshareable {
    int n = in.getInt();
    if (n < 0 || (long) n * minBytes > in.remaining()) {
      throw new Unshareable();
    }
    return n;
  }

  private static byte[] readBytes(ByteBuffer in) throws Unshareable {
    byte[] b = new byte[count(in, 1)];
    in.get(b);
    return b;
  }

  private static String readString(ByteBuffer in) throws Unshareable {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(readBytes(in)))
          .toString();
    } catch (CharacterCodingException e) {
      throw new Unshareable();
    }
  }

  /** A value that must be a string or {@code null}: no recursion, whatever the tag. */
  private static String readText(ByteBuffer in) throws Unshareable {
    Tag tag = Tag.read(in);
    return tag == Tag.NULL ? null : tag == Tag.STRING ? readString(in) : refuse();
  }

  /** A value that must be a byte array or {@code null}. */
  private static byte[] readRaw(ByteBuffer in) throws Unshareable {
    Tag tag = Tag.read(in);
    return tag == Tag.NULL ? null : tag == Tag.BYTES ? readBytes(in) : refuse();
  }

  private static <T> T refuse() throws Unshareable {
    throw new Unshareable();
  }

  /** A buffer that grows up to {@link #MAX_BYTES}, and refuses beyond. */
  private static final class Writer {
    ByteBuffer buf = ByteBuffer.allocate(256);

    /** The buffer, with room for {@code n} more bytes. */
    ByteBuffer room(long n) throws Unshareable {
      if (buf.remaining() < n) {
        long need = buf.position() + n;
        if (need > MAX_BYTES) {
          throw new Unshareable();
        }
        ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(MAX_BYTES,
            Math.max(need, 2L * buf.capacity())));
        buf = bigger.put(buf.flip());
      }
      return buf;
    }

    void bytes(byte[] b) throws Unshareable {
      room(4L + b.length).putInt(b.length).put(b);
    }

    void string(String s) throws Unshareable {
      if (s.length() > MAX_BYTES) {
        throw new Unshareable(); // at least a byte a character: too long, before encoding it
      }
      try {
        ByteBuffer utf8 = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(s));
        room(4 + utf8.remaining()).putInt(utf8.remaining()).put(utf8);
      } catch (CharacterCodingException e) {
        throw new Unshareable(); // a lone surrogate: UTF-8 cannot carry it exactly
      }
    }

    byte[] toBytes() {
      byte[] b = new byte[buf.position()];
      buf.flip().get(b);
      return b;
    }
  }

  /** The result cannot be carried exactly, or the bytes are no result: stackless. */
  private static final class Unshareable extends Exception {
    private static final long serialVersionUID = 1L;

    Unshareable() {
      super(null, null, false, false);
    }
  }
}
