package dev.sluice.internal.limit;

import dev.sluice.Priority;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What each priority's transactions owe the bucket. The statements of an admitted transaction are
 * never refused, so they are charged; a charge that does not fit in the depth the transaction's own
 * priority sees ({@code sluice.reserve}, {@link Bucket#tryAcquire(Priority)}) is owed here by that
 * priority, instead of pushing the bucket's one {@code tat} into the reserve of the priorities
 * above, as {@link Bucket#forceAcquire} would.
 *
 * <p>Before every door and every charge, {@link #settle} places the debts in the bucket from its
 * {@code tat} ({@link Bucket#repay}), highest priority first: the gap between {@code tat} and now
 * (capacity time brought and nobody used) pays any priority's debt; the depth above now pays only
 * what the door's own priority and those above it owe. While anything is left owing at or above
 * it, the door is refused, its retry hint the time the rest takes at the rate plus its own permit
 * ({@link Bucket#nanosUntilRepaid}). A debt is paid only with capacity no call took, and forgotten
 * only when limiting stops ({@link #clear}).
 *
 * <p>A payment is three steps on separate atomics: claim the count ({@code getAndSet(0)}), place
 * what fits with the bucket's one CAS, give back the rest ({@code addAndGet}). No permit is placed
 * twice and none is lost; a race changes only the order in which debts and doors are served.
 *
 * <p>This class is threadsafe, lock-free and allocates nothing. The long form (the races one by
 * one, the issues' figures): docs/how-it-works.md#what-each-priority-owes.
 */
final class ClassDebts {
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
