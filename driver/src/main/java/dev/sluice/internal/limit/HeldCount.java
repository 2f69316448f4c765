package dev.sluice.internal.limit;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The count that divides the budget under equal division, from the registry's live count, so that
 * no single read hands one instance the whole budget.
 *
 * <p>A live count at or above the one in force applies at once: each share gets smaller, the safe
 * direction. A lower one applies only once the registry has said so for {@code confirm} (the
 * registry's {@code sluice.instances.expiry}: by then every running member has renewed itself and
 * every gone one has been pruned); until then the budget stays divided by the larger of the live
 * count and {@code sluice.instances.assumed} (never by more than the count in force). An instance
 * that has just joined starts with the assumed count in force, so a newcomer that reads itself
 * alone — the first of a fleet, or two started together — takes budget / assumed, not the whole
 * budget, until its count is confirmed; and when the others stop, the last one grows by the same
 * rule. Seen on a fleet of two (issue 36): the first instance admitted the whole budget of 70/s for
 * about a second though {@code assumed} was 2, and so did the last one when the other stopped,
 * while a newcomer beside it took its own share.
 *
 * <p>This class is not threadsafe: one registry's heartbeat thread calls it.
 */
public final class HeldCount {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String name;
  private final int assumed;
  private final long confirmNanos;
  private final Ticker ticker;
  private int inForce;
  /** Whether the live count has been below {@link #inForce} since {@link #lowSinceNanos}. */
  private boolean low;
  private long lowSinceNanos;

  /**
   * Makes the count of a member that has just joined: the assumed count is in force.
   *
   * @param name the budget's name, for the log
   * @param assumed {@code sluice.instances.assumed}
   * @param confirm how long a lower count must last before it applies
   * @param ticker the clock
   */
  public HeldCount(String name, int assumed, Duration confirm, Ticker ticker) {
    this.name = name;
    this.assumed = assumed;
    this.confirmNanos = confirm.toNanos();
    this.ticker = ticker;
    this.inForce = assumed;
  }

  /**
   * Returns the count to divide the budget by, after one read of the registry.
   *
   * @param live the registry's live count, this instance included
   * @return the live count, or a larger one while a fall is not confirmed
   */
  public int divisor(int live) {
    if (live >= inForce) {
      low = false;
      inForce = live;
      return live;
    }
    long now = ticker.read();
    int held = Math.max(live, Math.min(inForce, assumed));
    if (!low) {
      low = true;
      lowSinceNanos = now;
      if (confirmNanos > 0) {
        LOG.info("{} - the registry counts {} live instance(s); the budget stays divided by {}"
            + " until that count has lasted {} ms (sluice.instances.expiry), so that one read"
            + " never hands this instance a larger share", name, live, held,
            confirmNanos / 1_000_000);
      }
    }
    if (now - lowSinceNanos >= confirmNanos) {
      low = false;
      inForce = live;
      return live;
    }
    return held;
  }
}
