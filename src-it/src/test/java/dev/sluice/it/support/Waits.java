package dev.sluice.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition with a deadline: for events on real servers, never for our own logic. */
public final class Waits {
  private Waits() {}

  /** Returns once {@code condition} holds; throws {@link AssertionError} after {@code timeout}. */
  public static void until(Duration timeout, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting until "
            + what);
      }
      sleep(Duration.ofMillis(20));
    }
  }

  /** Sleeps, restoring the interrupt flag. */
  public static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
