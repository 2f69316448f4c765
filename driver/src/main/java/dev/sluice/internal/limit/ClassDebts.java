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
 * <h2>Who pays, and when</h2>
 *
 * <p>Before every door and every charge, {@link #settle} places the debts in the bucket from its
 * {@code tat} ({@link Bucket#repay}), highest priority first: the gap between {@code tat} and now
 * &mdash; capacity that time brought and nobody used &mdash; pays any priority's debt; the depth
 * above now pays only what the door's own priority and those above it owe, as their doors always
 * did. While anything is left owing at or above it, the door is refused, and its retry hint is
 * the time the rest takes at the rate, plus its own permit ({@link Bucket#nanosUntilRepaid}):
 * a caller that waits exactly that long, with nobody else calling, is admitted (issue 35: each
 * door used to pay one permit and time nothing, so a priority that owed was locked out for its
 * debt times the interval between its calls, and the hint sent it back too early, again).
 * So a {@code SHEDDABLE} debt never delays a {@code CRITICAL} call (it fills only the gap, never
 * a depth above now), a {@code CRITICAL} debt delays everyone, and in the long run the database
 * sees no more than the share: a debt is paid only with capacity no call took (issue 20 measured
 * 171/s of 100/s when a debt was forgotten by time alone, while the priorities above used the
 * share). What is owed is forgotten when limiting stops ({@link #clear}).
 *
 * <h2>Memory ordering</h2>
 *
 * <p>The counts and the bucket's {@code tat} are separate atomics, so a payment is three steps:
 * claim the count ({@code getAndSet(0)}), place what fits with the bucket's one CAS, give back
 * what did not ({@code addAndGet}). The claim is atomic, so no permit is claimed by two doors and
 * none is placed twice; what was claimed is either placed or given back, so none is lost (only
 * {@link #clear} forgets). Between the claim and the give-back another door may read the count
 * low and be admitted ahead of that debt: its own permit still passed its depth on {@code tat}
 * by the bucket's CAS, and the debt is placed after it, so the total and every reserve hold and
 * only the order changes. A door that saw no debt (another claimed it) may take a gap with its
 * own permit that the claimant then misses: that debt is paid later, never twice. The gap lies
 * after the debt was made: a permit is owed only after {@code tryAcquire} found {@code tat}
 * ahead of the clock, and {@code tat} never moves back. A give-back that races with
 * {@link #clear} keeps that debt into the next outage: paid again, never by the database's loss.
 *
 * <p>This class is threadsafe, lock-free and allocates nothing. The request path reads three
 * volatile longs per door while limiting (none while not); a debt costs its claim, the bucket's
 * CAS and, when it does not fit, the give-back.
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
