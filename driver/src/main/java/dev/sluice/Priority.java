package dev.sluice;

import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * How much a database call matters while Sluice is limiting: under a flood, {@code SHEDDABLE}
 * calls are refused first and {@code CRITICAL} calls last (see {@code sluice.reserve}).
 *
 * <pre>{@code
 * Priority.CRITICAL.run(() -> orders.save(order));          // a write that must get through
 * List<Item> panel = Priority.SHEDDABLE.call(recommender::top); // a read that can wait
 * }</pre>
 *
 * <p>A call made outside any {@code run}/{@code call} block is {@code NORMAL}, except on a
 * connection marked read-only ({@code setReadOnly(true)}, as Spring's
 * {@code @Transactional(readOnly = true)} does), where it is {@code SHEDDABLE}. A transaction takes
 * the priority in force at its door (its first statement, or the switch to manual commit); its
 * later statements are never refused.
 *
 * <p>The priority is held per thread, in a {@link ThreadLocal} (no lock, no {@code synchronized}:
 * a virtual thread never pins here). Sluice reads it only when a decision needs it, that is while
 * limiting; the flag-closed path never looks. It is not inherited by threads a block starts.
 *
 * <p>This class is threadsafe.
 */
public enum Priority {
  /** Calls that must get through: a payment, a write that keeps data consistent. */
  CRITICAL,
  /** The default: calls made outside any block, on a connection that is not read-only. */
  NORMAL,
  /** Calls that can wait or be served stale: a prefetch, a recommendation panel. */
  SHEDDABLE;

  /**
   * The block's priority on this thread, unset ({@code null}) outside any block: the connection
   * then decides (read-only or not). Private: the limiters read it through {@link #ofCode()}, and
   * only a block sets it.
   */
  private static final ThreadLocal<Priority> CURRENT = new ThreadLocal<>();
  private static final Priority[] ALL = values();
  /**
   * {@link #ofCode()} as the limiters take it ({@code Enforcer} passes it to each): made here, so
   * a door's read of the block's priority enters this class alone.
   */
  static final Supplier<Priority> OF_CODE = Priority::ofCode;

  /**
   * Runs {@code action} with this priority for the JDBC calls the current thread makes in it,
   * restoring the previous priority afterwards, even when it throws.
   *
   * @param action what to run
   * @throws NullPointerException if {@code action} is null
   */
  public void run(Runnable action) {
    checkNotNull(action, "run");
    Priority previous = CURRENT.get();
    CURRENT.set(this);
    try {
      action.run();
    } finally {
      restore(previous);
    }
  }

  /**
   * Calls {@code action} with this priority for the JDBC calls the current thread makes in it,
   * restoring the previous priority afterwards, even when it throws.
   *
   * @param action what to call
   * @param <T> what it returns
   * @return what {@code action} returned
   * @throws NullPointerException if {@code action} is null
   * @throws Exception whatever {@code action} throws, unchanged
   */
  public <T> T call(Callable<T> action) throws Exception {
    checkNotNull(action, "call");
    Priority previous = CURRENT.get();
    CURRENT.set(this);
    try {
      return action.call();
    } finally {
      restore(previous);
    }
  }

  /**
   * Returns the priority of the JDBC calls the current thread makes now.
   *
   * @return the priority of the innermost {@code run}/{@code call} block, {@code NORMAL} outside
   *     any (a read-only connection still makes its calls {@code SHEDDABLE} there)
   */
  public static Priority current() {
    Priority p = CURRENT.get();
    return p == null ? NORMAL : p;
  }

  /** Every priority, highest first, without the copy {@link #values()} makes. */
  static Priority of(int ordinal) {
    return ALL[ordinal];
  }

  /**
   * The priority of the innermost block on this thread, or {@code null} outside any: what a
   * limiter's door reads ({@link #OF_CODE}), one thread-local read.
   */
  static Priority ofCode() {
    return CURRENT.get();
  }

  /** The priority in lower case, as metrics tags and logs write it. */
  String tag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The message is built only when thrown: a block costs no allocation. */
  private void checkNotNull(Object action, String method) {
    if (action == null) {
      throw new NullPointerException(
          "Priority." + name() + "." + method + "(action): action is null");
    }
  }

  private static void restore(Priority previous) {
    if (previous == null) {
      CURRENT.remove(); // a pooled thread leaves no trace of the block
    } else {
      CURRENT.set(previous);
    }
  }
}
