package dev.sluice.internal.limit;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;

/**
 * The rate: this instance's share of the budget, a permit per call from the {@link Bucket} at the
 * depth the call's priority sees, and what transactions charged beyond it ({@link ClassDebts}),
 * paid by the capacity time brings and nobody uses, and by the depth of the next doors of that
 * priority and below. The last limit a door passes: nothing
 * after it can refuse a call it admitted, so it never gives a permit back.
 *
 * <p>This class is threadsafe and lock-free.
 */
final class RateLimit {
  private final String name;
  private final boolean stackTraces;
  private final Bucket bucket;
  private final ClassDebts debts = new ClassDebts();
  /** Why a call is refused: constant, so that a refusal builds no text. */
  private final String reason;

  RateLimit(String name, Bucket bucket, boolean withBreaker, boolean stackTraces) {
    this.name = name;
    this.stackTraces = stackTraces;
    this.bucket = bucket;
    this.reason = withBreaker
        ? "the cache breaker is open and this instance's share of the budget is spent"
        : "this instance's share of the budget is spent";
  }

  /** Takes a permit at the depth {@code priority} sees, once what it owes is paid. */
  boolean tryAcquire(Priority priority) {
    return debts.settle(bucket, priority) && bucket.tryAcquire(priority);
  }

  /**
   * Retry when the debts owed at or above the priority are paid at the rate, from where the
   * bucket stands, and its own permit then fits: the time to the next admitted door. Made only
   * for a refusal that goes on to the caller.
   */
  RateLimitExceededException refuse(Priority priority) {
    return RateLimitExceededException.ofRate(name, bucket.permitsPerSecond(), reason,
        bucket.nanosUntilRepaid(debts.owedBefore(priority), priority), stackTraces);
  }

  /**
   * Charges a statement of an admitted transaction, never refusing it: within the depth of the
   * bucket its priority sees, or else owed by that priority, so that it never spends the reserve
   * of a priority above.
   */
  void charge(Priority priority) {
    debts.charge(bucket, priority);
  }

  /** Limiting stopped: what was owed is forgotten (forgetting by time let a share be exceeded). */
  void forgetDebts() {
    debts.clear();
  }
}
