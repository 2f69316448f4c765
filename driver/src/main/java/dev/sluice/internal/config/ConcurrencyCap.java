package dev.sluice.internal.config;

/**
 * The value of {@code sluice.concurrency}: a fixed cap on statements in flight, all instances
 * together, or {@code auto}, where each instance adapts its own cap.
 *
 * @param total the fixed cap of all instances together; {@code 0} when {@code auto}
 * @param auto whether each instance adapts its cap ({@code sluice.concurrency.min}/{@code .max})
 */
public record ConcurrencyCap(int total, boolean auto) {

  /** The adaptive cap. */
  public static final ConcurrencyCap AUTO = new ConcurrencyCap(0, true);

  /**
   * A fixed cap.
   *
   * @param total statements in flight at once, all instances together
   * @return the cap
   * @throws IllegalArgumentException if {@code total < 1}
   */
  public static ConcurrencyCap of(int total) {
    if (total < 1) {
      throw new IllegalArgumentException("a cap must be positive, but was " + total);
    }
    return new ConcurrencyCap(total, false);
  }

  /** The parser of {@code sluice.concurrency}: {@code auto} or a positive integer, else null. */
  static ConcurrencyCap parse(String text) {
    if ("auto".equalsIgnoreCase(text)) {
      return AUTO;
    }
    int total = Integer.parseInt(text);
    return total < 1 ? null : of(total);
  }

  @Override
  public String toString() {
    return auto ? "auto" : Integer.toString(total);
  }
}
