package dev.sluice.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes: for tests against a real Redis. */
public final class Await {
  private Await() {}

  /**
   * Waits until {@code condition} holds.
   *
   * @return how long it took, in nanoseconds
   * @throws AssertionError naming {@code what} if it does not hold within {@code limit}
   */
  public static long until(String what, Duration limit, BooleanSupplier condition) {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + limit.toMillis() + " ms: " + what);
      }
      LockSupport.parkNanos(200_000);
    }
    return System.nanoTime() - start;
  }

  /**
   * Checks that {@code condition} holds throughout {@code span}.
   *
   * @throws AssertionError naming {@code what} at the first moment it does not
   */
  public static void during(String what, Duration span, BooleanSupplier condition) {
    long deadline = System.nanoTime() + span.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (!condition.getAsBoolean()) {
        throw new AssertionError("stopped holding: " + what);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }
}
