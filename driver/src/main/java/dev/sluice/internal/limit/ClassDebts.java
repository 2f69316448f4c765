package dev.sluice.internal.limit;

import dev.sluice.Priority;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What each priority's transactions owe the bucket: the statements of an admitted transaction
 * are never refused, so they are charged, and a charge that does not fit in the depth the
 * transaction's own priority sees ({@code sluice.reserve}, {@link Bucket#tryAcquire(Priority)}) is
 * owed by that priority instead of pushing the bucket into the reserve of the priorities above.
 *
 * <h2>Why not the bucket's own debt</h2>
 *
 * <p>Forcing the charge into the bucket ({@link Bucket#forceAcquire}) pushes its one timestamp
 * past every priority's depth: ten-statement {@code SHEDDABLE} transactions then spend the top of
 * the bucket that {@code sluice.reserve} keeps for {@code CRITICAL} (issue 20 measured 70-77 % of
 * {@code CRITICAL} calls admitted where 97 % is promised). Here a priority's charges stay within its
 * own depth, and what does not fit is owed by the priority that ran it.
 *
 * <h2>Who pays</h2>
 *
 * <p>A door of priority {@code p} first pays, from its own depth, what {@code p} and the priorities
 * above it owe ({@link #settle}); while anything is left owing, the door is refused. So a debt is
 * paid from the bucket's capacity, as the bucket's own debt would be (in the long run the
 * database sees no more than the share), but only by its own priority and those below: a
 * {@code SHEDDABLE} debt never delays a {@code CRITICAL} call, and a {@code CRITICAL} debt delays
 * everyone, as it always did.
 *
 * <p>What is owed is forgotten when limiting stops ({@link #clear}), never by time alone: the
 * bucket's own debt is forgotten as the clock passes it because every priority waits meanwhile;
 * here the priorities above go on using the share, so forgetting a debt by time would let the
 * database see more than the share (measured: 171/s of a share of 100/s under a flood of
 * transactions, when a debt was forgotten once as old as paying it would take). The price: a
 * priority that stops while it owes pays its debt with its first doors when it comes back in the
 * same outage, at most its debt, from the bucket's capacity.
 *
 * <p>This class is threadsafe, lock-free and allocates nothing. The request path reads one to
 * three volatile longs per door while limiting (none while not); a charge that fits costs the
 * bucket's CAS, one that does not an increment.
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
   * Charges one statement of an admitted transaction of {@code priority}: within that priority's
   * depth of the bucket, or else owed by it.
   */
  void charge(Bucket bucket, Priority priority) {
    if (!bucket.tryAcquire(priority)) {
      owed[priority.ordinal()].incrementAndGet();
    }
  }

  /**
   * Before a door of {@code priority}: pays, from its depth of the bucket, what it and the
   * priorities above it owe, one permit per CAS until the bucket has no more room for it.
   *
   * @return whether nothing is owed any more: the door may then take its own permit
   */
  boolean settle(Bucket bucket, Priority priority) {
    for (int k = priority.ordinal(); k >= 0; k--) {
      AtomicLong debt = owed[k];
      while (debt.get() > 0) {
        if (!bucket.tryAcquire(priority)) {
          return false;
        }
        payOne(debt);
      }
    }
    return true;
  }

  /**
   * One permit paid. Another door may have paid the last one meanwhile: the count never goes
   * below zero, and the permit is then simply spent (one too many charged, never one too few).
   */
  private static void payOne(AtomicLong debt) {
    for (long d = debt.get(); d > 0; d = debt.get()) {
      if (debt.compareAndSet(d, d - 1)) {
        return;
      }
    }
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
