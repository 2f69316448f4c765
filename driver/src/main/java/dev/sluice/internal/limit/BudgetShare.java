package dev.sluice.internal.limit;

import dev.sluice.internal.config.Keys;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's share of the budget: the budget, the count of instances dividing it (or, under
 * demand division, this instance's part), and every change to them -- a registry count, a demand
 * measure, an operator's new budget. Each change is computed first ({@link Share}) and applied to
 * the bucket and the concurrency cap all or nothing, under one lock, so that the share is always
 * budget / divisor of one moment. The bucket keeps the permits it has, never more than the new
 * burst: no change hands out a fresh burst.
 *
 * <p>This class is threadsafe. It is never on the request path: the {@link Limiter} reads only
 * the bucket the share is applied to.
 */
public final class BudgetShare {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String name;
  private final Bucket bucket;
  /** The cap on statements in flight, divided as the budget is; {@code null}: none. */
  private final Concurrency concurrency;
  /** {@code sluice.burst} if it was set; {@code 0}: the burst follows the share. */
  private final int explicitBurst;
  /** Serialises changes of the share (no monitor, no pinning). */
  private final ReentrantLock lock = new ReentrantLock();
  /** Written only under {@link #lock}; read anywhere. */
  private volatile double budget;
  private volatile double instances;
  /** Under demand division, this instance's share / budget; {@code NaN}: budget / instances. */
  private volatile double part = Double.NaN;
  /** Guarded by {@link #lock}: whether the share is below what a bucket holds. */
  private boolean admitsNothing;

  BudgetShare(String name, double budget, double instances, int explicitBurst, Bucket bucket,
      Concurrency concurrency) {
    this.name = name;
    this.budget = budget;
    this.instances = instances;
    this.explicitBurst = explicitBurst;
    this.bucket = bucket;
    this.concurrency = concurrency;
  }

  /**
   * Sets how many instances share the budget now (the registry's live count). All or nothing:
   * the new share and burst are computed first and the count is stored only once the bucket took
   * them. It never refuses a count: a share below the slowest rate a bucket holds admits nothing
   * new (one WARN naming the keys) rather than more than the share. The bucket keeps the permits
   * it has, never more than the new burst: no change hands out a fresh burst.
   */
  public void setInstances(double count) {
    setShare(count, Double.NaN);
  }

  /**
   * Sets this instance's part of the budget under demand division, as {@link #setInstances}
   * does the count: all or nothing, never a fresh burst. A budget changed later keeps the part.
   *
   * @param count the live count, for the figures
   * @param part this instance's share / budget, from 0 to 1; {@code NaN}: budget / count
   */
  public void setShare(double count, double part) {
    lock.lock(); // with setBudget: the share is always budget / divisor of one moment
    try {
      if (count != instances || Double.compare(part, this.part) != 0) {
        double divisor = divisor(count, part);
        Share share = Share.of(budget, divisor, explicitBurst);
        share.applyTo(bucket);
        if (concurrency != null) {
          concurrency.divide(capDivisor(divisor)); // the cap is divided as the budget is
        }
        boolean recount = count != instances;
        instances = count;
        this.part = part;
        logShare(share, recount);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * What the cap is divided by: {@code divisor}, nudged down by a part in 10<sup>9</sup> so that
   * a part computed as {@code share / budget} and inverted again (0.5 becoming 1.999999999...)
   * never loses a whole place to rounding. The fleet's places stay within the total: the parts
   * sum to at most one, and each instance's place count is rounded down.
   */
  private static double capDivisor(double divisor) {
    return divisor * (1 - 1e-9);
  }

  /** What the budget is divided by: the count, or {@code 1 / part} under demand division. */
  private static double divisor(double count, double part) {
    return Double.isNaN(part) ? count : 1 / part;
  }

  private void logShare(Share share, boolean recount) {
    String count = Share.rate(instances);
    if (!recount && !Double.isNaN(part)) { // demand moves the share at every heartbeat: quietly
      LOG.debug("{} - demand division: this instance admits {}/s of the budget of {}/s, burst {}",
          name, Share.rate(share.permitsPerSecond),
          Share.rate(budget), share.burst);
    } else if (share.admitsNothing() && !admitsNothing) {
      LOG.warn("{} - {} instances share the budget of {} permits/s: each share ({}/s) is below"
          + " the slowest rate a bucket holds ({}/s), so this instance admits nothing new until"
          + " at most {} instances share it; to give each a share, raise sluice.budget to at"
          + " least {} or run fewer instances (sluice.instances=redis)", name, count,
          Share.plain(budget), Share.plain(budget / instances), Share.plain(Bucket.MIN_RATE),
          Share.plain(Math.floor(budget / Bucket.MIN_RATE)),
          Share.plain(instances * Bucket.MIN_RATE));
    } else if (!share.admitsNothing()) {
      LOG.info("{} - {} instances share the budget of {} permits/s: this instance admits {}/s,"
          + " burst {}", name, count, Share.rate(budget),
          Share.rate(share.permitsPerSecond), share.burst);
    }
    admitsNothing = share.admitsNothing();
  }

  /**
   * Changes the budget at runtime (an operator's JMX call): the share becomes
   * {@code budget / instances} (under demand division, the same part of the new budget) at once,
   * and the burst follows it unless {@code sluice.burst} was set. The bucket keeps the permits it
   * has, never more than the new burst.
   *
   * @param permitsPerSecond the new budget, all instances together
   * @param by who asked, for the log line
   * @throws IllegalArgumentException naming {@code sluice.budget}, the value and the range, if it
   *     is not positive and finite or makes a share a bucket cannot hold; then nothing changes
   */
  public void setBudget(double permitsPerSecond, String by) {
    if (!(permitsPerSecond > 0 && Double.isFinite(permitsPerSecond))) {
      throw Keys.BUDGET.invalid(permitsPerSecond);
    }
    lock.lock();
    try {
      changeBudget(permitsPerSecond, by);
    } finally {
      lock.unlock();
    }
  }

  private void changeBudget(double permitsPerSecond, String by) {
    double divisor = divisor(instances, part);
    if (!Share.fits(permitsPerSecond / divisor)) {
      throw Share.budgetOutOfRange(Share.plain(permitsPerSecond), divisor,
          "the " + Share.rate(instances) + " instances sharing it now");
    }
    Share share = Share.of(permitsPerSecond, divisor, explicitBurst);
    share.applyTo(bucket);
    double before = budget;
    budget = permitsPerSecond;
    admitsNothing = false;
    LOG.warn("{} - budget changed by {} from {} to {} permits/s: this instance admits {}/s,"
        + " burst {}", name, by, Share.rate(before),
        Share.rate(permitsPerSecond),
        Share.rate(share.permitsPerSecond), share.burst);
  }

  /** @return the budget, all instances together, in permits per second */
  public double budget() {
    return budget;
  }

  /** @return how many instances share the budget now */
  public double instances() {
    return instances;
  }
}
