package dev.sluice.internal.limit;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A count of statements in flight and a cap on it: {@link #tryAcquire()} admits a statement if
 * fewer than {@link #limit()} are running, {@link #release()} ends it.
 *
 * <p>The cap is a volatile {@code int} that a controller (or the user's fixed setting) may change
 * at any time; the count is one {@link AtomicInteger} moved by compare-and-set, so the count never
 * goes above the cap that was read at the moment of admission; only {@link #forceAcquire()} (a
 * statement of a transaction already admitted, never refused) counts beyond it. Lowering the cap
 * never takes away what was already admitted: the statements above the new cap run to their end,
 * and admission resumes once the count is below it.
 *
 * <p>The gate also notes whether it was <em>saturated</em> since the controller last asked — an
 * admission that filled it, or a refusal — so that a controller raises the cap only when the cap
 * is what held the callers back. That costs a volatile read on the admitting path and a write only
 * on the rare call that fills the gate.
 *
 * <p>This class is threadsafe, lock-free and allocates nothing.
 */
public final class ConcurrencyGate {

  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile int limit;
  private volatile boolean saturated;

  /**
   * Creates a gate.
   *
   * @param limit the first cap, at least 1
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  public ConcurrencyGate(int limit) {
    setLimit(limit);
  }

  /**
   * Admits one statement if fewer than the cap are in flight.
   *
   * @return whether the statement was admitted; if so, the caller must {@link #release()} once
   */
  public boolean tryAcquire() {
    /*
     * Read the cap once, then CAS the count up from a value below it. A failed CAS means another
     * thread moved the count; retry with the fresh value. The loop ends: every failure is some
     * other thread's success (lock-free), and a full gate returns false at once.
     */
    int cap = limit;
    for (int running = inFlight.get(); running < cap; running = inFlight.get()) {
      if (inFlight.compareAndSet(running, running + 1)) {
        if (running + 1 == cap && !saturated) {
          saturated = true;
        }
        return true;
      }
    }
    if (!saturated) {
      saturated = true;
    }
    return false;
  }

  /**
   * Counts one statement in flight whatever the cap: a statement of a transaction already
   * admitted, which is never refused. It may take the count above the cap; admission resumes
   * once the count is back below it.
   */
  public void forceAcquire() {
    inFlight.incrementAndGet();
  }

  /**
   * Returns whether a statement would be admitted now: fewer than the cap are in flight. A hint
   * for a door that admits no statement itself (a transaction's start); another thread may take
   * the room first.
   *
   * @return whether the count is below the cap
   */
  public boolean hasRoom() {
    return inFlight.get() < limit;
  }

  /**
   * Ends one admitted statement.
   *
   * @throws IllegalStateException if nothing is in flight: a release without an acquire, or a
   *     second release of the same statement (the count is left at zero)
   */
  public void release() {
    if (inFlight.getAndDecrement() <= 0) {
      inFlight.incrementAndGet();
      throw new IllegalStateException("release() without a matching tryAcquire()");
    }
  }

  /**
   * Returns the statements now in flight.
   *
   * @return the count, never negative
   */
  public int inFlight() {
    return inFlight.get();
  }

  /**
   * Returns the current cap.
   *
   * @return the cap, at least 1
   */
  public int limit() {
    return limit;
  }

  /**
   * Sets the cap; statements already admitted are not affected.
   *
   * @param limit the new cap, at least 1
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  public void setLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, but was " + limit);
    }
    this.limit = limit;
  }

  /**
   * Returns whether the gate filled up or refused a statement since the last call, and clears it.
   *
   * @return whether the cap held callers back since the last call
   */
  public boolean takeSaturated() {
    if (!saturated) {
      return false;
    }
    saturated = false;
    return true;
  }
}
