package dev.sluice.internal.answer;

import java.sql.Date;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;

/**
 * MySQL Connector/J's getters of {@code DATE}, {@code DATETIME}, {@code TIMESTAMP} and
 * {@code TIME}, re-done from the value's text ({@code getString}) as the driver computes them when
 * the connection sets no time option ({@link MySqlDialect#of}): the JVM's zone is the session's,
 * and the {@code java.sql} values come from a {@code Calendar} set field by field — the driver's
 * own (Gregorian, {@code Locale.US}, not lenient) or a clone of the caller's.
 *
 * <p>Only values whose every getter is that arithmetic are kept: dates from 1900 to 9999, times
 * from {@code 00:00:00} to {@code 23:59:59.999999}, and values whose every local date-time a getter
 * computes (the value, its date's midnight, its time on 1 January 1970, that day's midnight)
 * exists exactly once in the JVM's zone.
 *
 * <p>Threadsafe (no state). The long form, getter by getter:
 * docs/answers.md#mysql-connectorjs-dates-and-times.
 */
final class MySqlTime {
  private static final LocalDate EPOCH = LocalDate.of(1970, 1, 1);

  private MySqlTime() {}

  /** Whether every getter of this value is re-done faithfully. */
  static boolean keeps(String text, String typeName) {
    if (text == null) {
      return true;
    }
    try {
      LocalDateTime t = local(text, typeName);
      int year = t.getYear();
      return (typeName.equals("TIME") || year >= 1900 && year <= 9999)
          && once(t) && once(t.toLocalDate().atStartOfDay())
          && once(EPOCH.atTime(t.toLocalTime())) && once(EPOCH.atStartOfDay());
    } catch (DateTimeParseException notPlain) {
      return false;
    }
  }

  /** Whether {@code t} exists exactly once in the JVM's zone. */
  private static boolean once(LocalDateTime t) {
    return jvmZone().getRules().getValidOffsets(t).size() == 1;
  }

  private static ZoneId jvmZone() {
    return TimeZone.getDefault().toZoneId();
  }

  /** The value as a date and time: a {@code DATE}'s midnight, a {@code TIME} on 1970-01-01. */
  private static LocalDateTime local(String text, String typeName) {
    switch (typeName) {
      case "DATE":
        return LocalDate.parse(text).atStartOfDay();
      case "TIME":
        return EPOCH.atTime(LocalTime.parse(text)); // 24:00 and beyond, or negative: unparsed
      default:
        return LocalDateTime.parse(text.replace(' ', 'T'));
    }
  }

  private static LocalDateTime local(Dialect.Cell c) {
    return local(c.text(), c.typeName());
  }

  /** The calendar the driver reads with: a clone of the caller's, else its own in the zone. */
  private static Calendar calendar(Calendar cal) {
    if (cal != null) {
      return (Calendar) cal.clone();
    }
    Calendar own = Calendar.getInstance(TimeZone.getDefault(), Locale.US);
    own.setLenient(false);
    return own;
  }

  static Date getDate(Dialect.Cell c, Calendar cal) {
    if (c.typeName().equals("TIME")) {
      return Date.valueOf(EPOCH);
    }
    LocalDate d = local(c).toLocalDate();
    Calendar k = calendar(cal);
    k.clear();
    k.set(d.getYear(), d.getMonthValue() - 1, d.getDayOfMonth());
    return new Date(k.getTimeInMillis());
  }

  static Time getTime(Dialect.Cell c, Calendar cal) {
    Calendar k = calendar(cal);
    if (c.typeName().equals("DATE")) {
      k.clear();
      return new Time(k.getTimeInMillis());
    }
    LocalTime t = local(c).toLocalTime();
    k.set(1970, Calendar.JANUARY, 1, t.getHour(), t.getMinute(), t.getSecond());
    k.set(Calendar.MILLISECOND, 0);
    return new Time(t.getNano() / 1_000_000 + k.getTimeInMillis());
  }

  static Timestamp getTimestamp(Dialect.Cell c, Calendar cal) {
    Calendar k = calendar(cal);
    LocalDateTime t = local(c);
    if (c.typeName().equals("DATE")) {
      k.clear();
      k.set(t.getYear(), t.getMonthValue() - 1, t.getDayOfMonth(), 0, 0, 0);
      return new Timestamp(k.getTimeInMillis());
    }
    k.set(t.getYear(), t.getMonthValue() - 1, t.getDayOfMonth(), t.getHour(), t.getMinute(),
        t.getSecond());
    Timestamp ts = new Timestamp(k.getTimeInMillis());
    ts.setNanos(t.getNano());
    return ts;
  }

  /** {@code getObject(i, type)} for the {@code java.time} classes and {@code java.sql}'s. */
  static Object java(Dialect.Cell c, Class<?> type) throws SQLException {
    LocalDateTime t = local(c);
    if (type == LocalDate.class) {
      return t.toLocalDate();
    }
    if (type == LocalTime.class) {
      return t.toLocalTime();
    }
    if (type == LocalDateTime.class) {
      return t;
    }
    if (type == OffsetDateTime.class) {
      return t.atZone(jvmZone()).toOffsetDateTime();
    }
    if (type == ZonedDateTime.class) {
      return t.atZone(jvmZone());
    }
    if (type == Date.class) {
      return getDate(c, null);
    }
    if (type == Time.class) {
      return getTime(c, null);
    }
    if (type == Timestamp.class) {
      return getTimestamp(c, null);
    }
    if (type == java.util.Date.class) {
      return java.util.Date.from(getTimestamp(c, null).toInstant());
    }
    throw new SQLDataException("Unsupported conversion from " + c.typeName() + " to "
        + type.getName());
  }
}
