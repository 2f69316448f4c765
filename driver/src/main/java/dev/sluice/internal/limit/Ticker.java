package dev.sluice.internal.limit;

import java.util.function.LongSupplier;

/**
 * A source of monotonic nanoseconds, replaceable in tests.
 *
 * <p>Only differences between two readings mean anything, as with {@link System#nanoTime()}.
 * Implementations must be threadsafe. It is also the {@link LongSupplier} the answers take as
 * their clock, so that one budget's limits and answers read the same clock without a lambda of
 * the composition root between them.
 */
@FunctionalInterface
public interface Ticker extends LongSupplier {

  /**
   * Returns the current reading.
   *
   * @return nanoseconds since an arbitrary fixed origin
   */
  long read();

  /** @return {@link #read()} */
  @Override
  default long getAsLong() {
    return read();
  }

  /**
   * Returns the ticker backed by {@link System#nanoTime()}.
   *
   * @return the system ticker
   */
  static Ticker system() {
    return System::nanoTime;
  }
}
