package dev.sluice.internal.answer;

/**
 * A date or time parameter set with a {@code Calendar}, named by the calendar's time zone: the
 * same value in another zone is another read ({@link Parameters#set(int, Parameters.Setter,
 * Object, java.util.Calendar)}).
 *
 * @param value the date, time or timestamp
 * @param zone the calendar's time-zone ID
 */
record Zoned(Object value, String zone) {}
