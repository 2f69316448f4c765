package dev.sluice.internal.limit;

import static dev.sluice.internal.limit.ConnectionState.CHECKOUT_PLACE;
import static dev.sluice.internal.limit.ConnectionState.HELD;
import static dev.sluice.internal.limit.ConnectionState.TRANSACTION;
import static dev.sluice.internal.limit.ConnectionState.TX_PLACE;

import java.sql.SQLException;

/**
 * The ends of what a door began: a statement returns, a transaction ends, a connection closes, a
 * checkout fails. Each gives back the place in flight it held ({@code sluice.concurrency}),
 * exactly once, and a statement whose latency was sampled reports it to the cap. The
 * {@link Limiter} decides at the doors; the connection wrapper reports the ends here, with the
 * state ({@link ConnectionState}) the door returned. Without a cap every end is a change of
 * state bits and nothing else.
 *
 * <p>This class is threadsafe; nothing here blocks, allocates or logs.
 */
public final class Places {
  /** The cap on statements in flight; {@code null}: none. */
  private final Concurrency concurrency;
  /** A cap in {@code connection} scope: a checkout that took no place still counts until closed. */
  private final boolean countsCheckouts;
  /** Whether an adaptive cap samples statements while not limiting (statement scope only). */
  private final boolean sampleWhileClosed;

  Places(Concurrency concurrency, boolean sampleWhileClosed) {
    this.concurrency = concurrency;
    this.countsCheckouts = concurrency != null && concurrency.countsCheckouts();
    this.sampleWhileClosed = sampleWhileClosed;
  }

  /**
   * The state of a connection just checked out. With an adaptive cap, its count towards its next
   * flag-closed sample starts at a random phase ({@link ConnectionState#randomSamplePhase}).
   *
   * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned
   * @return the state bits, with {@code CHECKOUT_PLACE} when the checkout took a place
   */
  public int checkedOut(int checkoutHeld) {
    if (checkoutHeld == 0 && countsCheckouts) {
      concurrency.openedUnplaced(); // counts against the cap until closed, limiting or not
    }
    int state = ConnectionState.initial() | (checkoutHeld != 0 ? CHECKOUT_PLACE : 0);
    return sampleWhileClosed ? state | ConnectionState.randomSamplePhase() : state;
  }

  /**
   * Called once {@code setAutoCommit(autoCommit)} returned ({@code switched}) or threw. The switch
   * to auto-commit ends the transaction either way (it commits, and a failed commit still ends
   * it): its place is given back. A failed switch to manual commit began nothing: a place its door
   * took is given back.
   *
   * @param before the state before the call
   * @param next what {@link Limiter#beforeAutoCommit} returned
   * @param autoCommit the value set
   * @param switched whether the driver accepted it
   * @return the state to keep
   */
  public int afterAutoCommit(int before, int next, boolean autoCommit, boolean switched) {
    if (autoCommit) {
      release(before & TX_PLACE);
      return switched ? next : ConnectionState.afterFailedSwitchToAutoCommit(before);
    }
    if (switched) {
      return next;
    }
    release(next & ~before & TX_PLACE);
    return before;
  }

  /**
   * Called after {@code commit()} or {@code rollback()} (not to a savepoint) returned or threw:
   * a failed one ends the transaction too (on PostgreSQL a commit that fails has rolled the
   * transaction back), so that a transaction never outlives its real end.
   *
   * @param state the connection's state
   * @return the state with the transaction ended
   */
  public int afterEnd(int state) {
    release(state & TX_PLACE);
    return state & ~TRANSACTION;
  }

  /**
   * Called when the connection is closed or aborted, once: gives back the place its open
   * transaction or, in {@code connection} scope, its checkout holds (or, for a checkout made
   * while not limiting, its count against the cap).
   *
   * @param state the connection's state
   */
  public void afterClose(int state) {
    release(state & TX_PLACE);
    if ((state & CHECKOUT_PLACE) != 0) {
      afterCheckout(HELD, null);
    } else if (countsCheckouts) {
      concurrency.closedUnplaced();
    }
  }

  /**
   * Called once a checkout that {@link Limiter#beforeCheckout} admitted ends: the connection
   * closed, or the delegate failed to hand one out ({@code failure}, which may be the pool's
   * timeout).
   *
   * @param held what {@link Limiter#beforeCheckout} returned
   * @param failure the delegate's failure, or {@code null}
   */
  public void afterCheckout(int held, SQLException failure) {
    if (concurrency != null) {
      if (held != 0) {
        concurrency.releaseUnused();
      }
      if (failure != null) {
        concurrency.checkoutFailed(failure);
      }
    }
  }

  /**
   * When an admitted statement starts, to pass to {@link #afterStatement}: read only for a
   * statement that was {@code SAMPLED} (there is a cap then).
   *
   * @return a {@link Ticker} reading, or {@code 0}
   */
  public long startNanos() {
    return concurrency.startNanos();
  }

  /**
   * Called when a statement that was {@code HELD} or {@code SAMPLED} has returned or thrown:
   * gives its place back if it held one, and reports its latency and outcome where the cap adapts.
   *
   * @param held what {@link ConnectionState#held} made of the door's answer
   * @param startNanos what {@link #startNanos()} returned when it was admitted
   * @param sql its text, or {@code null} (a batch)
   * @param failure what it threw, or {@code null}: a {@code RuntimeException} or an {@code Error}
   *     is reported as {@code null}, never as overload
   */
  public void afterStatement(int held, long startNanos, String sql, SQLException failure) {
    concurrency.release((held & HELD) != 0, (held & ConnectionState.SAMPLED) != 0, startNanos,
        sql, failure);
  }

  /** Gives back a transaction's place, if {@code place} is {@code TX_PLACE}. */
  private void release(int place) {
    if (place != 0) {
      concurrency.releaseUnused();
    }
  }
}
