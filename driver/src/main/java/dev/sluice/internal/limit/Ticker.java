package dev.sluice.internal.limit;

/**
 * A source of monotonic nanoseconds, replaceable in tests.
 *
 * <p>Only differences between two readings mean anything, as with {@link System#nanoTime()}.
 * Implementations must be threadsafe.
 */
@FunctionalInterface
public interface Ticker {

  /**
   * Returns the current reading.
   *
   * @return nanoseconds since an arbitrary fixed origin
   */
  long read();

  /**
   * Returns the ticker backed by {@link System#nanoTime()}.
   *
   * @return the system ticker
   */
  static Ticker system() {
    return System::nanoTime;
  }
}
