package dev.sluice.internal.answer;

import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.TimeZone;

/**
 * MariaDB Connector/J's getters of {@code DATE}, {@code DATETIME}, {@code TIMESTAMP} and
 * {@code TIME}, re-done from the value's text as the server sends it ({@code 2024-02-29},
 * {@code 2024-02-29 13:14:15.123456}, {@code 13:14:15}), read in the calendar's zone or the JVM's
 * as the driver reads it when no time-zone option is set ({@link MariaDbDialect#of}).
 *
 * <p>Only values whose every getter is plain arithmetic in {@code java.time} are kept: dates from
 * the year 1900 to 9999 (no zero date {@code 0000-00-00}, which the driver reads as
 * {@code NULL}; no Julian calendar, no local mean time), times from {@code 00:00:00} to
 * {@code 23:59:59.999} in whole milliseconds (not MySQL's negative or 838-hour intervals; the
 * binary protocol drops a {@code TIME}'s microseconds), and date-times that exist once in the
 * JVM's zone (the driver's {@code getString} moves a time in a summer-time gap). Instants are
 * computed as the driver computes them, with a lenient {@code Calendar}.
 *
 * <p>The driver, for each (getters not listed throw):
 * <ul>
 *   <li>{@code DATE}: {@code getDate} and {@code getTimestamp} are its midnight in the zone;
 *       {@code LocalDate}, {@code LocalDateTime}, {@code ZonedDateTime}, {@code Instant};
 *   <li>{@code DATETIME}, {@code TIMESTAMP}: {@code getTimestamp} the instant in the zone, with
 *       its microseconds; {@code getDate} the same instant to the millisecond (not midnight);
 *       {@code getTime} the time of day on 1 January 1970; {@code LocalDate}, {@code LocalTime},
 *       {@code LocalDateTime}, {@code OffsetDateTime}, {@code ZonedDateTime}, {@code Instant};
 *   <li>{@code TIME}: {@code getTime} the time of day on 1 January 1970 less the zone's offset
 *       at the epoch; {@code getTimestamp} that day's time in the zone, with its microseconds;
 *       {@code LocalTime}, {@code LocalDateTime}, {@code ZonedDateTime}, {@code Instant}.
 * </ul>
 *
 * <p>Threadsafe (no state).
 */
final class MariaDbTime {
  private static final LocalDate EPOCH = LocalDate.of(1970, 1, 1);

  private MariaDbTime() {}

  /** The server's temporal types, as both MySQL-protocol dialects name them. */
  static boolean isTemporal(String typeName) {
    return typeName.equals("DATE") || typeName.equals("DATETIME")
        || typeName.equals("TIMESTAMP") || typeName.equals("TIME");
  }

  /** Whether every getter of this value is re-done faithfully. */
  static boolean keeps(String text, String typeName) {
    if (text == null) {
      return true;
    }
    try {
      switch (typeName) {
        case "DATE":
          return inRange(LocalDate.parse(text));
        case "TIME":
          return LocalTime.parse(text).getNano() % 1_000_000 == 0; // binary: milliseconds
        default:
          LocalDateTime t = dateTime(text);
          return inRange(t.toLocalDate())
              && zone(null).getRules().getValidOffsets(t).size() == 1; // getString shifts gaps
      }
    } catch (DateTimeParseException notPlain) {
      return false;
    }
  }

  /** Whether a date-time's text reads as {@code value}. */
  static boolean sameValue(String text, LocalDateTime value) {
    try {
      return dateTime(text).equals(value);
    } catch (DateTimeParseException notPlain) {
      return false;
    }
  }

  private static boolean inRange(LocalDate d) {
    return d.getYear() >= 1900 && d.getYear() <= 9999;
  }

  private static LocalDateTime dateTime(String text) {
    return LocalDateTime.parse(text.replace(' ', 'T'));
  }

  private static ZoneId zone(Calendar cal) {
    return (cal == null ? TimeZone.getDefault() : cal.getTimeZone()).toZoneId();
  }

  /** The value as a date and time: a {@code DATE}'s midnight, a {@code TIME} on 1970-01-01. */
  private static LocalDateTime local(Dialect.Cell c) {
    switch (c.typeName()) {
      case "DATE":
        return LocalDate.parse(c.text()).atStartOfDay();
      case "TIME":
        return EPOCH.atTime(LocalTime.parse(c.text()));
      default:
        return dateTime(c.text());
    }
  }

  /** The driver's instant of a local date and time, to the second: a lenient calendar's. */
  private static long seconds(LocalDateTime t, Calendar cal) {
    Calendar c = (Calendar) (cal == null ? Calendar.getInstance() : cal).clone();
    c.clear();
    c.setLenient(true);
    c.set(t.getYear(), t.getMonthValue() - 1, t.getDayOfMonth(), t.getHour(), t.getMinute(),
        t.getSecond());
    return c.getTimeInMillis();
  }

  static Date getDate(Dialect.Cell c, Calendar cal) throws SQLException {
    if (c.typeName().equals("TIME")) {
      throw cannot(c, "Date");
    }
    LocalDateTime t = local(c);
    return new Date(seconds(t, cal) + t.getNano() / 1_000_000);
  }

  static Time getTime(Dialect.Cell c, Calendar cal) throws SQLException {
    switch (c.typeName()) {
      case "DATE":
        throw cannot(c, "Time");
      case "TIME": {
        LocalTime t = LocalTime.parse(c.text());
        long offset = (cal == null ? TimeZone.getDefault() : cal.getTimeZone()).getOffset(0);
        return new Time(t.toSecondOfDay() * 1000L + t.getNano() / 1_000_000 - offset);
      }
      default:
        LocalDateTime t = EPOCH.atTime(dateTime(c.text()).toLocalTime());
        return new Time(seconds(t, cal) + t.getNano() / 1_000_000);
    }
  }

  static Timestamp getTimestamp(Dialect.Cell c, Calendar cal) {
    LocalDateTime t = local(c);
    Timestamp ts = new Timestamp(seconds(t, cal));
    ts.setNanos(t.getNano());
    return ts;
  }

  /** {@code getObject(i, type)} for the {@code java.time} classes and {@code java.sql}'s. */
  static Object java(Dialect.Cell c, Class<?> type) throws SQLException {
    String t = c.typeName();
    boolean date = t.equals("DATE");
    boolean time = t.equals("TIME");
    if (type == LocalDate.class && !time) {
      return local(c).toLocalDate();
    }
    if (type == LocalTime.class && !date) {
      return local(c).toLocalTime();
    }
    if (type == LocalDateTime.class) {
      return local(c);
    }
    if (type == java.time.OffsetDateTime.class && !date && !time) {
      return local(c).atZone(zone(null)).toOffsetDateTime();
    }
    if (type == ZonedDateTime.class) {
      return local(c).atZone(zone(null));
    }
    if (type == Instant.class) {
      return local(c).atZone(zone(null)).toInstant();
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
    throw cannot(c, type.getName());
  }

  static SQLException cannot(Dialect.Cell c, String type) {
    return new java.sql.SQLDataException("Data type " + c.typeName() + " cannot be decoded as "
        + type);
  }
}
