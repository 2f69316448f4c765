package dev.sluice.internal.limit;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import java.util.concurrent.atomic.AtomicLong;

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

  /**
   * What each priority's transactions owe the bucket. The statements of an admitted transaction are
   * never refused, so they are charged; a charge that does not fit in the depth the transaction's
   * own priority sees ({@code sluice.reserve}, {@link Bucket#tryAcquire(Priority)}) is owed here by
   * that priority, instead of pushing the bucket's one {@code tat} into the reserve of the
   * priorities above, as {@link Bucket#forceAcquire} would.
   *
   * <p>Before every door and every charge, {@link #settle} places the debts in the bucket from its
   * {@code tat} ({@link Bucket#repay}), highest priority first: the gap between {@code tat} and now
   * (capacity time brought and nobody used) pays any priority's debt; the depth above now pays only
   * what the door's own priority and those above it owe. While anything is left owing at or above
   * it, the door is refused, its retry hint the time the rest takes at the rate plus its own permit
   * ({@link Bucket#nanosUntilRepaid}). A debt is paid only with capacity no call took, and
   * forgotten only when limiting stops ({@link #clear}).
   *
   * <p>A payment is three steps on separate atomics: claim the count ({@code getAndSet(0)}), place
   * what fits with the bucket's one CAS, give back the rest ({@code addAndGet}). No permit is
   * placed twice and none is lost; a race changes only the order in which debts and doors are
   * served.
   *
   * <p>This class is threadsafe, lock-free and allocates nothing. The long form (the races one by
   * one, the issues' figures): docs/how-it-works.md#what-each-priority-owes.
   */
  static final class ClassDebts {
    /** By {@link Priority#ordinal()}: permits owed. */
    private final AtomicLong[] owed = new AtomicLong[Priority.values().length];

    ClassDebts() {
      for (int k = 0; k < owed.length; k++) {
        owed[k] = new AtomicLong();
      }
    }

    /**
     * Charges one statement of an admitted transaction of {@code priority}: after the debts are
     * placed (so that the gap pays them before this permit takes it), within that priority's depth
     * of the bucket, or else owed by it.
     */
    void charge(Bucket bucket, Priority priority) {
      if (!(settle(bucket, priority) && bucket.tryAcquire(priority))) {
        owed[priority.ordinal()].incrementAndGet();
      }
    }

    /**
     * Before a door of {@code priority}: places what every priority owes in the gap that time
     * left unused, and what {@code priority} and those above it owe in its depth too.
     *
     * @return whether nothing is owed any more at or above {@code priority}: the door may then
     *     take its own permit
     */
    boolean settle(Bucket bucket, Priority priority) {
      for (int k = 0; k < owed.length; k++) {
        AtomicLong debt = owed[k];
        if (debt.get() == 0) {
          continue; // the usual case: one read
        }
        boolean atOrAbove = k <= priority.ordinal();
        long claimed = debt.getAndSet(0);
        long placed = claimed == 0 ? 0 : bucket.repay(claimed, atOrAbove ? priority : null);
        if (placed < claimed) {
          debt.addAndGet(claimed - placed);
          return !atOrAbove; // and the gap is used up: what is owed below waits for the next
        }
      }
      return true;
    }

    /**
     * What a door of {@code priority} must pay before its own permit.
     *
     * @return permits owed by {@code priority} and the priorities above it
     */
    long owedBefore(Priority priority) {
      long total = 0;
      for (int k = priority.ordinal(); k >= 0; k--) {
        total += owed[k].get();
      }
      return total;
    }

    /** Forgets every debt: limiting stopped, and the database's load with it. */
    void clear() {
      for (AtomicLong debt : owed) {
        debt.set(0);
      }
    }
  }
}
