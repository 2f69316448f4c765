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
   * @throws IllegalArgumentException naming {@code sluice.concurrency} if {@code total < 1}
   */
  public static ConcurrencyCap of(int total) {
    if (total < 1) {
      throw Keys.CONCURRENCY.invalid(total);
    }
    return new ConcurrencyCap(total, false);
  }

  static ConcurrencyCap parse(String text) {
    return "auto".equalsIgnoreCase(text) ? AUTO : of(Integer.parseInt(text));
  }

  @Override
  public String toString() {
    return auto ? "auto" : Integer.toString(total);
  }
}
