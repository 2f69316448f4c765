package dev.sluice.internal.answer;

import java.time.Duration;

/**
 * The settings of answers instead of refusals, checked: {@code sluice.stale.max-age},
 * {@code wait}, {@code max-rows} and {@code memory}, parsed by their keys
 * ({@code internal.config.Keys}) and built into this record at the composition root
 * ({@code Enforcer.answerSettings}).
 *
 * @param maxAge the oldest a kept result may be to be answered; zero turns answers off
 * @param joinWait ({@code sluice.stale.wait}) the longest a read about to be refused waits for an identical read in flight
 * @param maxRows the most rows a kept result may have
 * @param memoryBytes the bytes all kept results of one budget may keep reachable together
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

  private static void check(boolean ok, String key, String constraint, Object value) {
    if (!ok) {
      throw new IllegalArgumentException(key + " must " + constraint + ", but was " + value);
    }
  }
}
