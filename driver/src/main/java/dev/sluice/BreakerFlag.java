package dev.sluice;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Says whether the cache breaker is open, which is when the limiter charges permits.
 *
 * <p>"Open" means the cache in front of the database is considered down, the fallback path to the
 * database is live, and every gated JDBC call must take a permit. While the flag is closed, calls
 * pass untouched and uncounted, except during the recovery after it closes, when the limiter
 * holds the cap until demand has settled ({@code sluice.recovery.settle}).
 *
 * <p>{@link #isOpen()} is called on every gated JDBC call, from many threads at once:
 * implementations must be threadsafe and answer from local memory, never over the network.
 */
@FunctionalInterface
public interface BreakerFlag {

  /**
   * Returns whether the flag is open.
   *
   * @return {@code true} if the limiter should charge permits now
   */
  boolean isOpen();

  /**
   * Returns a flag that is always open: Sluice is then a plain rate limiter. This is the default
   * when no flag and no Redis are configured.
   *
   * @return the always-open flag
   */
  static BreakerFlag alwaysOpen() {
    /* One instance, made on first use: the limiter knows this flag by identity. (An enum: a
       local class's static field may not make an instance of it, javac 25 says.) */
    enum AlwaysOpen implements BreakerFlag {
      INSTANCE;

      @Override
      public boolean isOpen() {
        return true;
      }

      @Override
      public String toString() {
        return "BreakerFlag.alwaysOpen()";
      }
    }
    return AlwaysOpen.INSTANCE;
  }

  /**
   * Returns a flag that asks {@code isOpen} on each call: wrap the application's own circuit
   * breaker with it, for example {@code BreakerFlag.of(() -> breaker.getState() == OPEN)}. The
   * supplier is called on every gated JDBC call, so it must be cheap and must not block.
   *
   * @param isOpen answers whether the cache breaker is open
   * @return a flag backed by {@code isOpen}
   * @throws NullPointerException if {@code isOpen} is null
   */
  static BreakerFlag of(BooleanSupplier isOpen) {
    Objects.requireNonNull(isOpen, "isOpen");
    final class Supplied implements BreakerFlag {
      @Override
      public boolean isOpen() {
        return isOpen.getAsBoolean();
      }

      @Override
      public String toString() {
        return "BreakerFlag.of(" + isOpen + ")";
      }
    }
    return new Supplied();
  }

  /**
   * Returns a flag, closed at first, that is opened and closed by hand.
   *
   * @return a new manual flag
   */
  static Manual manual() {
    return new Manual();
  }

  /**
   * A flag opened with {@link #trip()} and closed with {@link #reset()}, from any thread.
   *
   * <p>This class is threadsafe: the state is one volatile field.
   */
  final class Manual implements BreakerFlag {
    private volatile boolean open;

    private Manual() {}

    @Override
    public boolean isOpen() {
      return open;
    }

    /** Opens the flag: from now on the limiter charges permits. */
    public void trip() {
      open = true;
    }

    /** Closes the flag: from now on calls pass uncharged. */
    public void reset() {
      open = false;
    }

    @Override
    public String toString() {
      return "BreakerFlag.manual(" + (open ? "open" : "closed") + ")";
    }
  }
}
