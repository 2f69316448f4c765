package dev.sluice.internal.limit;

import dev.sluice.Priority;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A count of statements in flight and a cap on it: {@link #tryAcquire()} admits a statement if
 * fewer than {@link #limit()} are running, {@link #release()} ends it.
 *
 * <p>The cap is a volatile {@code int} that a controller (or the user's fixed setting) may change
 * at any time; the count is one {@link AtomicInteger} moved by compare-and-set, so the count never
 * goes above the cap that was read at the moment of admission; only {@link #forceAcquire()} (a
 * transaction, or a connection, begun before limiting began, whose work cannot be refused) counts
 * beyond it. Lowering the cap
 * never takes away what was already admitted: the statements above the new cap run to their end,
 * and admission resumes once the count is below it.
 *
 * <p>Priorities ({@code sluice.reserve}): each {@link Priority} sees its own part of the cap, as
 * it sees its own depth of the bucket ({@link Reserve#classBurst}): {@code CRITICAL} the whole cap,
 * the class {@code k} steps below {@code (1 - reserve)^k} of it, to the nearest whole place and at
 * least one (cap 10, reserve 0.2: 10, 8, 6; cap 2: 2, 2, 1). A class is admitted only while fewer
 * than its part are in flight, of all classes together; so the classes below {@code k} never hold
 * more than their part, and the places above it stay for {@code k} and the classes above, however
 * many lower calls arrive. The parts are computed when the cap is set, never per call.
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
  /** The parts of the cap {@code NORMAL} and {@code SHEDDABLE} see; written before the cap. */
  private volatile int normalLimit;
  private volatile int sheddableLimit;
  /** {@code sluice.reserve}: {@code 0} gives every priority the whole cap. */
  private final double reserve;
  private volatile boolean saturated;

  /**
   * Creates a gate whose whole cap every priority sees.
   *
   * @param limit the first cap, at least 1
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  public ConcurrencyGate(int limit) {
    this(limit, 0);
  }

  /**
   * Creates a gate that keeps the top {@code reserve} part of the cap for higher priorities.
   *
   * @param limit the first cap, at least 1
   * @param reserve {@code sluice.reserve}, {@code 0 <= reserve < 1} (checked by the key)
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  public ConcurrencyGate(int limit, double reserve) {
    this.reserve = reserve;
    setLimit(limit);
  }

  /**
   * Admits one statement if fewer than the cap are in flight.
   *
   * @return whether the statement was admitted; if so, the caller must {@link #release()} once
   */
  public boolean tryAcquire() {
    return tryAcquire(limit);
  }

  /**
   * Admits one statement (or transaction) of {@code priority} if fewer than its part of the cap
   * are in flight, all priorities together.
   *
   * @param priority the caller's priority
   * @return whether it was admitted; if so, the caller must {@link #release()} once
   */
  public boolean tryAcquire(Priority priority) {
    return tryAcquire(limit(priority));
  }

  /**
   * As {@link #tryAcquire(Priority)}, with {@code taken} of the cap held outside the gate (in
   * {@code connection} scope, connections checked out before limiting began).
   *
   * @param priority the caller's priority
   * @param taken places of the cap already taken outside the count, at least 0
   * @return whether it was admitted; if so, the caller must {@link #release()} once
   */
  public boolean tryAcquire(Priority priority, int taken) {
    return tryAcquire(limit(priority) - taken);
  }

  private boolean tryAcquire(int cap) {
    /*
     * Read the cap once, then CAS the count up from a value below it. A failed CAS means another
     * thread moved the count; retry with the fresh value. The loop ends: every failure is some
     * other thread's success (lock-free), and a full gate returns false at once.
     */
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
   * Counts one place whatever the cap: a transaction (or a connection in {@code connection}
   * scope) that began before limiting began and now runs a statement, which is never refused.
   * It may take the count above the cap; admission resumes once the count is back below it.
   */
    public void forceAcquire() {
    inFlight.incrementAndGet();
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
   * Returns the part of the cap {@code priority} sees.
   *
   * @param priority the priority
   * @return its part, at least 1 and at most {@link #limit()}
   */
  public int limit(Priority priority) {
    switch (priority) {
      case CRITICAL:
        return limit;
      case NORMAL:
        return normalLimit;
      default:
        return sheddableLimit;
    }
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
    // the parts before the cap: a reader may pair a new cap with the old parts, never the
    // reverse, and either way for the moment of one change
    normalLimit = Reserve.classBurst(limit, reserve, Priority.NORMAL.ordinal());
    sheddableLimit = Reserve.classBurst(limit, reserve, Priority.SHEDDABLE.ordinal());
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
