package dev.sluice.internal.answer;

import java.time.Duration;
import java.util.Locale;

/**
 * The settings of answers instead of refusals, checked. Not yet in the key table
 * ({@code internal.config.Keys}); when wired, each key's parser is the static method here of
 * the same name and its constraint the text of its message:
 *
 * <ul>
 *   <li>{@code sluice.stale.max-age}: a duration {@code >= 0}, default {@code 0} (off);
 *   <li>{@code sluice.stale.wait}: a duration {@code >= 0}, default {@code 50ms};
 *   <li>{@code sluice.stale.max-rows}: an integer {@code >= 1}, default {@code 1000};
 *   <li>{@code sluice.stale.memory}: a size {@code > 0} such as {@code 32MB}, {@code 512KB} or
 *       bytes, default {@code 32MB}.
 * </ul>
 *
 * @param maxAge the oldest a kept result may be to be answered; zero turns answers off
 * @param joinWait ({@code sluice.stale.wait}) the longest a read about to be refused waits for an identical read in flight
 * @param maxRows the most rows a kept result may have
 * @param memoryBytes the estimated bytes all kept results of one budget may hold together
 */
public record AnswerSettings(Duration maxAge, Duration joinWait, int maxRows, long memoryBytes) {
  /** Answers off. */
  public static final AnswerSettings OFF =
      new AnswerSettings(Duration.ZERO, Duration.ofMillis(50), 1000, 32L << 20);

  /**
   * Checks each setting.
   *
   * @throws IllegalArgumentException naming the key and the value of the first bad setting
   */
  public AnswerSettings {
    check(maxAge != null && !maxAge.isNegative(), "sluice.stale.max-age",
        "be a duration of 0 or more such as `0`, `5s` or `PT5S`", maxAge);
    check(joinWait != null && !joinWait.isNegative(), "sluice.stale.wait",
        "be a duration of 0 or more such as `0`, `50ms` or `PT0.05S`", joinWait);
    check(maxRows >= 1, "sluice.stale.max-rows", "be a positive integer", maxRows);
    check(memoryBytes > 0, "sluice.stale.memory",
        "be a size above 0 such as `32MB`, `512KB` or a number of bytes", memoryBytes);
  }

  /** Whether answers are on ({@code max-age > 0}). */
  public boolean on() {
    return !maxAge.isZero();
  }

  /**
   * Parses the four keys' texts; {@code null} leaves a key at its default.
   *
   * @throws IllegalArgumentException {@code <key> must <constraint>, but was <value>}
   */
  public static AnswerSettings parse(String maxAge, String wait, String maxRows, String memory) {
    return new AnswerSettings(
        maxAge == null ? OFF.maxAge() : duration("sluice.stale.max-age", maxAge),
        wait == null ? OFF.joinWait() : duration("sluice.stale.wait", wait),
        maxRows == null ? OFF.maxRows() : positiveInt("sluice.stale.max-rows", maxRows),
        memory == null ? OFF.memoryBytes() : size("sluice.stale.memory", memory));
  }

  /** A duration {@code >= 0}: {@code 0}, {@code 250ms}, {@code 5s}, {@code 1m}, {@code PT5S}. */
  static Duration duration(String key, String text) {
    Duration d = null;
    try {
      d = parseDuration(text.trim());
    } catch (RuntimeException notADuration) {
      // reported below
    }
    check(d != null && !d.isNegative(), key,
        "be a duration of 0 or more such as `0`, `250ms`, `5s` or `PT5S`", text);
    return d;
  }

  private static Duration parseDuration(String t) {
    String lower = t.toLowerCase(Locale.ROOT);
    if (lower.equals("0")) {
      return Duration.ZERO;
    }
    if (lower.startsWith("p")) {
      return Duration.parse(t);
    }
    String[] suffixes = {"ms", "s", "m", "h"};
    Duration[] units = {Duration.ofMillis(1), Duration.ofSeconds(1), Duration.ofMinutes(1),
        Duration.ofHours(1)};
    for (int i = 0; i < suffixes.length; i++) {
      if (lower.endsWith(suffixes[i])) {
        return units[i].multipliedBy(
            Long.parseLong(lower.substring(0, lower.length() - suffixes[i].length())));
      }
    }
    return null;
  }

  /** An integer {@code >= 1}. */
  static int positiveInt(String key, String text) {
    int v = 0;
    try {
      v = Integer.parseInt(text.trim());
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    check(v >= 1, key, "be a positive integer", text);
    return v;
  }

  /** A size above 0: bytes, or a number with {@code KB}, {@code MB}, {@code GB} (powers of 1024). */
  static long size(String key, String text) {
    long v = 0;
    try {
      v = parseSize(text.trim().toUpperCase(Locale.ROOT));
    } catch (NumberFormatException | ArithmeticException notASize) {
      // reported below
    }
    check(v > 0, key, "be a size above 0 such as `32MB`, `512KB` or a number of bytes", text);
    return v;
  }

  private static long parseSize(String t) {
    String[] suffixes = {"KB", "MB", "GB", "B"};
    int[] shifts = {10, 20, 30, 0};
    for (int i = 0; i < suffixes.length; i++) {
      if (t.endsWith(suffixes[i])) {
        long n = Long.parseLong(t.substring(0, t.length() - suffixes[i].length()).trim());
        return Math.multiplyExact(n, 1L << shifts[i]);
      }
    }
    return Long.parseLong(t);
  }

  private static void check(boolean ok, String key, String constraint, Object value) {
    if (!ok) {
      throw new IllegalArgumentException(key + " must " + constraint + ", but was " + value);
    }
  }
}
