package dev.sluice.internal.answer;

import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.TimeZone;

/**
 * pgjdbc's getters of {@code date}, {@code time}, {@code timestamp} and {@code timestamptz},
 * re-done from the value's text (the ISO form pgjdbc reads or writes in both transfers). Only
 * values between the years 1900 and 9999 are kept: outside them pgjdbc's calendar arithmetic
 * (the Julian cutover, local mean time offsets) and {@code infinity} need not match
 * {@code java.time}'s.
 *
 * <p>In pgjdbc's text transfer, {@code getTime} of a {@code date} is its midnight and
 * {@code getDate} of a {@code time} is 1 January 1970; in binary transfer both throw. The kept
 * {@code getBytes} tells the two apart: in text transfer it is the text itself.
 */
final class PostgresTime {
  private static final LocalDate EPOCH = LocalDate.of(1970, 1, 1);

  private PostgresTime() {}

  /** Whether pgjdbc's getters of this temporal value are re-done faithfully. */
  static boolean keeps(String text, String typeName) {
    if (text == null) {
      return true;
    }
    try {
      switch (typeName) {
        case "date":
          return inRange(LocalDate.parse(text));
        case "time":
          LocalTime.parse(text);
          return true;
        case "timestamp":
          return inRange(localDateTime(text).toLocalDate());
        default: // timestamptz
          return inRange(offsetDateTime(text).toLocalDate());
      }
    } catch (DateTimeParseException notIso) {
      return false;
    }
  }

  private static boolean inRange(LocalDate d) {
    return d.getYear() >= 1900 && d.getYear() <= 9999;
  }

  static boolean isTemporal(String typeName) {
    return typeName.equals("date") || typeName.equals("time") || typeName.equals("timestamp")
        || typeName.equals("timestamptz");
  }

  private static LocalDateTime localDateTime(String text) {
    return LocalDateTime.parse(text.replace(' ', 'T'));
  }

  /** {@code 2024-02-29 12:14:15.123456+01}, also with {@code +05:30} or {@code +00:53:28}. */
  private static OffsetDateTime offsetDateTime(String text) {
    String iso = text.replace(' ', 'T');
    int sign = Math.max(iso.lastIndexOf('+'), iso.lastIndexOf('-'));
    if (sign > 10 && iso.length() - sign == 3) {
      iso += ":00";
    }
    return OffsetDateTime.parse(iso);
  }

  private static ZoneId zone(Calendar cal) {
    return (cal == null ? TimeZone.getDefault() : cal.getTimeZone()).toZoneId();
  }

  static Date getDate(Dialect.Cell c, Calendar cal) throws SQLException {
    ZoneId zone = zone(cal);
    LocalDate day;
    switch (c.typeName()) {
      case "date" -> day = LocalDate.parse(c.text());
      case "time" -> throw mismatch(c, "date");
      case "timestamp" -> day = localDateTime(c.text()).toLocalDate();
      default -> day = offsetDateTime(c.text()).toInstant().atZone(zone).toLocalDate();
    }
    return new Date(day.atStartOfDay(zone).toInstant().toEpochMilli());
  }

  static Time getTime(Dialect.Cell c, Calendar cal) throws SQLException {
    LocalTime time;
    ZoneId zone = zone(cal);
    switch (c.typeName()) {
      case "date" -> throw mismatch(c, "time");
      case "time" -> time = LocalTime.parse(c.text());
      case "timestamp" -> time = localDateTime(c.text()).toLocalTime();
      default -> { // the calendar is ignored: the time of day in the JVM's zone
        zone = zone(null);
        time = offsetDateTime(c.text()).toInstant().atZone(zone).toLocalTime();
      }
    }
    return new Time(EPOCH.atTime(time).atZone(zone).toInstant().toEpochMilli());
  }

  static Timestamp getTimestamp(Dialect.Cell c, Calendar cal) {
    ZoneId zone = zone(cal);
    switch (c.typeName()) {
      case "date":
        return Timestamp.from(LocalDate.parse(c.text()).atStartOfDay(zone).toInstant());
      case "time":
        return Timestamp.from(EPOCH.atTime(LocalTime.parse(c.text())).atZone(zone).toInstant());
      case "timestamp":
        return Timestamp.from(localDateTime(c.text()).atZone(zone).toInstant());
      default:
        return Timestamp.from(offsetDateTime(c.text()).toInstant());
    }
  }

  /** {@code getObject(i, LocalDate.class)} and its kin, for a temporal column. */
  static Object java(Dialect.Cell c, Class<?> type) throws SQLException {
    String t = c.typeName();
    if (type == LocalDate.class && t.equals("date")) {
      return LocalDate.parse(c.text());
    }
    if (type == LocalDate.class && t.equals("timestamp")) {
      return localDateTime(c.text()).toLocalDate();
    }
    if (type == LocalTime.class && t.equals("time")) {
      return LocalTime.parse(c.text());
    }
    if (type == LocalDateTime.class && t.equals("timestamp")) {
      return localDateTime(c.text());
    }
    if (type == OffsetDateTime.class && t.equals("timestamp")) {
      return localDateTime(c.text()).atOffset(ZoneOffset.UTC);
    }
    if (type == OffsetDateTime.class && t.equals("timestamptz")) {
      Instant instant = offsetDateTime(c.text()).toInstant();
      return instant.atOffset(ZoneOffset.UTC);
    }
    throw cannot(c, type.getName());
  }

  /**
   * pgjdbc's {@code getDate} of a {@code time} and {@code getTime} of a {@code date}: in binary
   * transfer (a statement once server-prepared) it throws this; in text transfer it returns
   * 1970-01-01 or midnight. Which transfer the refused caller's read would have used is not
   * known (it is not the kept read's), so the answer throws: never a value the driver may not
   * have returned.
   */
  private static SQLException mismatch(Dialect.Cell c, String type) {
    return new SQLException("Cannot convert the column of type " + c.typeName()
        + " to requested type " + type + ".", "42821");
  }

  private static SQLException cannot(Dialect.Cell c, String type) {
    return new SQLException("Cannot convert the column of type " + c.typeName()
        + " to requested type " + type + ".", "22023");
  }
}
