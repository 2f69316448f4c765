package dev.sluice.internal.answer;

import static dev.sluice.internal.answer.Wire.readBytes;
import static dev.sluice.internal.answer.Wire.readString;
import static dev.sluice.internal.answer.Wire.refuse;

import dev.sluice.internal.answer.Wire.Unshareable;
import dev.sluice.internal.answer.Wire.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
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

/**
 * One value on the wire of {@link KeptCodec}: a tag byte naming its exact class, then its
 * payload, exactly (a {@code double}'s bits, a {@code Timestamp}'s nanoseconds, a
 * {@code BigDecimal}'s scale). Only the classes of {@link Tag} are carried, compared by
 * {@code getClass() ==}, and PostgreSQL's {@code PGobject} by its name and reflection (the
 * driver is no dependency): any other class, a subclass included, is refused — nothing is
 * guessed. No Java serialization.
 */
final class WireValue {
  private static final String PG_OBJECT_CLASS = "org.postgresql.util.PGobject";

  private WireValue() {}

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

  static void write(Writer out, Object v) throws Unshareable {
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

  static Object read(ByteBuffer in, boolean parameter) throws Unshareable {
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
      case ZONED -> parameter ? new Zoned(read(in, false), readString(in)) : refuse();
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
    write(out, z.value());
    out.string(z.zone());
  }

  private static void writeException(Writer out, SQLException e) throws Unshareable {
    write(out, e.getMessage());
    write(out, e.getSQLState());
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
    write(out, type);
    write(out, value);
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
    return Class.forName(PG_OBJECT_CLASS, false, WireValue.class.getClassLoader());
  }

  /** A value that must be a string or {@code null}: no recursion, whatever the tag. */
  static String readText(ByteBuffer in) throws Unshareable {
    Tag tag = Tag.read(in);
    return tag == Tag.NULL ? null : tag == Tag.STRING ? readString(in) : refuse();
  }

  /** A value that must be a byte array or {@code null}. */
  static byte[] readRaw(ByteBuffer in) throws Unshareable {
    Tag tag = Tag.read(in);
    return tag == Tag.NULL ? null : tag == Tag.BYTES ? readBytes(in) : refuse();
  }

}
