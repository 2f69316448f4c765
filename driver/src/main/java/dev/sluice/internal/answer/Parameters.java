package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Set;
import java.util.UUID;

/**
 * The parameters set on one prepared statement, as far as they name a read: each value with the
 * setter that set it. A statement records them only while answers are on; with answers off its
 * field stays {@code null} and each setter costs one null check, nothing else.
 *
 * <p>Each value is kept as the setter was given it, a mutable one ({@code byte[]},
 * {@code Timestamp}, {@code Date}, {@code Time}) copied there and then: the driver reads it at
 * the setter too (pgjdbc copies a {@code byte[]} and renders a date as text when it is set), so
 * an application that changes its object afterwards changes neither what the database is sent
 * nor the read's key ({@code AnswerParameterAttackTest}). A {@code Calendar}'s time zone is read
 * at the setter. A setter of a stream, LOB, array, {@code REF}, {@code URL} or an object of
 * another type marks the statement ineligible until {@link #clear()}.
 *
 * <p>Not threadsafe: a statement is used by one thread at a time, as JDBC requires.
 */
public final class Parameters {
  /** How a value was set; part of a read's identity. */
  public enum Setter {
    NULL, BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BIG_DECIMAL, STRING, NSTRING, BYTES,
    DATE, TIME, TIMESTAMP, OBJECT
  }

  /** The classes {@code setObject} may carry: compared by {@code equals}, immutable. */
  private static final Set<Class<?>> VALUE_TYPES = Set.of(Boolean.class, Byte.class,
      Short.class, Integer.class, Long.class, Float.class, Double.class, BigDecimal.class,
      BigInteger.class, String.class, byte[].class, Date.class, Time.class, Timestamp.class,
      LocalDate.class, LocalTime.class, LocalDateTime.class, OffsetDateTime.class,
      OffsetTime.class, Instant.class, UUID.class);

  private static final Object UNSET = null;
  private Object[] values = new Object[4];
  private Setter[] setters = new Setter[4];
  private long[] extras = new long[4];
  private int count;
  private boolean ineligible;
  /**
   * For a record begun after the statement's values may have been set unseen (it was prepared
   * before limiting began, {@link #late}): how many parameters must be set again before the
   * record names a read; {@code 0} once every value was seen.
   */
  private int unseen;

  /**
   * A record begun on a statement whose parameters may already have been set, unseen (it was
   * prepared before limiting began): it names a read only once each of the first
   * {@code placeholders} parameters is set again, or after {@code clearParameters()}. The
   * bound must never be below the statement's real count (the number of {@code ?} in its text
   * is such a bound): a value set before and never again would be missing from the key.
   *
   * @param placeholders at least the statement's number of parameters
   * @return the record
   */
  public static Parameters late(int placeholders) {
    Parameters p = new Parameters();
    p.unseen = placeholders;
    return p;
  }

  /**
   * Records a value set by a typed setter ({@code setInt}, {@code setString}, …).
   *
   * @param index the 1-based parameter index
   * @param setter the setter
   * @param value the value, boxed; {@code null} as the setter would send it
   */
  public void set(int index, Setter setter, Object value) {
    put(index, setter, value, 0);
  }

  /**
   * Records a date, time or timestamp set with a {@code Calendar}: its time zone joins the value.
   *
   * @param index the 1-based parameter index
   * @param setter {@link Setter#DATE}, {@link Setter#TIME} or {@link Setter#TIMESTAMP}
   * @param value the value
   * @param calendar the calendar passed to the setter, or {@code null}
   */
  public void set(int index, Setter setter, Object value, Calendar calendar) {
    Object zoned = calendar == null ? value
        : new Zoned(value, calendar.getTimeZone().getID());
    put(index, setter, zoned, 0);
  }

  /**
   * Records {@code setNull(index, sqlType)} (and the variant with a type name, whose name the
   * driver uses only for user-defined types: such a read is rare, and the type name is dropped).
   *
   * @param index the 1-based parameter index
   * @param sqlType the {@code java.sql.Types} code
   */
  public void setNull(int index, int sqlType) {
    put(index, Setter.NULL, null, sqlType);
  }

  /**
   * Records {@code setObject}; a value of a type outside the value types marks the statement
   * ineligible.
   *
   * @param index the 1-based parameter index
   * @param value the value
   * @param targetSqlType the target type code, or {@code Integer.MIN_VALUE} for none
   * @param scaleOrLength the scale or length argument, or {@code 0}
   */
  public void setObject(int index, Object value, int targetSqlType, int scaleOrLength) {
    if (value != null && !VALUE_TYPES.contains(value.getClass())) {
      ineligible = true;
      return;
    }
    put(index, Setter.OBJECT, value, (long) targetSqlType << 32 | scaleOrLength & 0xFFFFFFFFL);
  }

  /** A setter of a stream, LOB, array, {@code REF}, {@code URL} or {@code SQLXML} was called. */
  public void unsupported() {
    ineligible = true;
  }

  /** {@code clearParameters()}: forgets every value, and any ineligible setter. */
  public void clear() {
    Arrays.fill(values, 0, count, UNSET);
    Arrays.fill(setters, 0, count, null);
    count = 0;
    ineligible = false;
    unseen = 0;
  }

  private void put(int index, Setter setter, Object value, long extra) {
    int i = index - 1;
    if (i < 0) {
      return; // the driver will refuse the call
    }
    if (i >= values.length) {
      grow(i + 1);
    }
    values[i] = copy(value);
    setters[i] = setter;
    extras[i] = extra;
    count = Math.max(count, index);
  }

  /**
   * The value as it is now: a copy of a mutable one, so that a change the application makes after
   * the setter reaches neither the key nor, through it, an answer.
   */
  static Object copy(Object value) {
    if (value instanceof byte[] bytes) {
      return bytes.clone();
    }
    if (value instanceof java.util.Date d) {
      return d.clone(); // Timestamp (its nanos too), Date, Time, and a subclass as itself
    }
    if (value instanceof Zoned z) {
      return new Zoned(copy(z.value()), z.zone());
    }
    return value;
  }

  /**
   * The value set at {@code index} (1-based) as the database was sent it, or {@code null} when
   * it is unset, {@code NULL} or the statement is ineligible: for a {@code set_config(?, ?, ?)}
   * whose arguments are parameters.
   */
  Object valueAt(int index) {
    int i = index - 1;
    return ineligible || i < 0 || i >= count || setters[i] == null ? null : values[i];
  }

  private void grow(int atLeast) {
    int size = Math.max(atLeast, values.length * 2);
    values = Arrays.copyOf(values, size);
    setters = Arrays.copyOf(setters, size);
    extras = Arrays.copyOf(extras, size);
  }

  /**
   * The values as part of a key (each a copy made when set); {@code null} if
   * the statement is ineligible or a parameter below the highest one was never set.
   */
  Snapshot snapshot() {
    if (ineligible || count < unseen) {
      return null; // below: a value set before the record began may be the one sent
    }
    Object[] v = new Object[count];
    for (int i = 0; i < count; i++) {
      if (setters[i] == null) {
        return null;
      }
      v[i] = values[i]; // copied when set, and never changed here: a setter replaces it
    }
    return new Snapshot(v, Arrays.copyOf(setters, count), Arrays.copyOf(extras, count));
  }

  /** The parameters of one key; equal by content. */
  record Snapshot(Object[] values, Setter[] setters, long[] extras) {
    static final Snapshot NONE = new Snapshot(new Object[0], new Setter[0], new long[0]);

    @Override
    public boolean equals(Object o) {
      return o instanceof Snapshot s && Arrays.equals(setters, s.setters)
          && Arrays.equals(extras, s.extras) && Arrays.deepEquals(values, s.values);
    }

    @Override
    public int hashCode() {
      return Arrays.deepHashCode(values) * 31 + Arrays.hashCode(setters);
    }

    /** Roughly the bytes this snapshot holds, for the store's bound. */
    long bytes() {
      long sum = 16L + 16L * values.length;
      for (Object v : values) {
        sum += Sizes.of(v);
      }
      return sum;
    }
  }
}
