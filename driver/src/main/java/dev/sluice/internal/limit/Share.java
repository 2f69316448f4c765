package dev.sluice.internal.limit;

import dev.sluice.internal.config.Keys;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * This instance's part of a budget, {@code budget / instances}, and the burst that goes with it:
 * computed whole before anything is stored, so a change of the share is all or nothing. Shared by
 * the build ({@link Enforcer}) and the runtime changes ({@link Limiter}).
 *
 * <p>A share the bucket cannot hold is never rounded up. At build and over JMX it is refused
 * with a message naming the keys; when the registry's live count pushes it below the slowest
 * rate a bucket holds ({@link Bucket#MIN_RATE}), the share becomes "admit nothing new":
 * clamping it up to the minimum would let the fleet take more than the budget (1,200 instances
 * at 0.001/s take 1.2/s of a budget of 1), and keeping the last, larger share would too.
 *
 * <p>This class is immutable and threadsafe.
 */
public final class Share {
  /** The default burst: this much of the share, in seconds. */
  static final double DEFAULT_BURST_SECONDS = 0.1;

  /** Permits per second; {@code 0} when the share is below what a bucket holds. */
  public final double permitsPerSecond;
  /** The burst; {@code 0} when the share admits nothing. */
  public final int burst;

  private Share(double permitsPerSecond, int burst) {
    this.permitsPerSecond = permitsPerSecond;
    this.burst = burst;
  }

  /**
   * Divides the budget, never handing out more than the division gives: below the slowest rate
   * the share admits nothing, above the fastest it is held to the fastest.
   *
   * @param budget permits per second, all instances together
   * @param instances how many share it
   * @param explicitBurst {@code sluice.burst} if it was set, else {@code 0}: the burst follows the
   *     share
   */
  public static Share of(double budget, double instances, int explicitBurst) {
    double share = budget / instances;
    if (!(share >= Bucket.MIN_RATE)) {
      return new Share(0, 0);
    }
    double rate = Math.min(share, Bucket.MAX_RATE);
    int burst = explicitBurst > 0
        ? Math.min(explicitBurst, Bucket.maxBurst(rate)) : defaultBurst(rate);
    return new Share(rate, burst);
  }

  /** Whether a bucket holds {@code share} as it is. */
  public static boolean fits(double share) {
    return share >= Bucket.MIN_RATE && share <= Bucket.MAX_RATE;
  }

  /** The default burst: {@value #DEFAULT_BURST_SECONDS} s of the share, at least one permit. */
  public static int defaultBurst(double share) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.ceil(share * DEFAULT_BURST_SECONDS)));
  }

  public boolean admitsNothing() {
    return permitsPerSecond == 0;
  }

  /** Sets {@code bucket} to this share: it keeps the permits it has, never more than the burst. */
  public void applyTo(Bucket bucket) {
    bucket.setRate(permitsPerSecond, burst);
  }

  /**
   * The error for a budget whose share a bucket cannot hold, such as
   * {@code sluice.budget must be from 0.01 to 10000000000 permits/s with sluice.instances=10 (...),
   * but was "0.005"}.
   *
   * @param given the budget as the user gave it
   * @param instances the count it is divided by
   * @param counted where that count comes from, e.g. {@code sluice.instances=10}
   */
  public static IllegalArgumentException budgetOutOfRange(String given, double instances,
      String counted) {
    String range = "from " + plain(Bucket.MIN_RATE * instances) + " to "
        + plain(Bucket.MAX_RATE * instances) + " permits/s";
    String why = instances == 1 ? "" : " with " + counted + " (each instance's share, budget / "
        + plain(instances) + ", must be from " + plain(Bucket.MIN_RATE) + " to "
        + plain(Bucket.MAX_RATE) + " permits/s)";
    return new IllegalArgumentException(
        Keys.BUDGET.name() + " must be " + range + why + ", but was \"" + given + "\"");
  }

  /**
   * The error for an explicit burst that spans too long a time at {@code share}.
   *
   * @param given the burst as the user gave it
   * @param share this instance's share, permits per second
   */
  public static IllegalArgumentException burstTooLong(String given, double share) {
    return new IllegalArgumentException(Keys.BURST.name() + " must be at most "
        + Bucket.maxBurst(share) + " at this instance's share of " + plain(share)
        + " permits/s (a burst may span at most about 18 years of the share), but was \""
        + given + "\"");
  }

  /**
   * A rate as log lines and messages show it: whole numbers as they are, others to three
   * decimals ({@code 500}, {@code 0.333}).
   *
   * @param permitsPerSecond the rate
   * @return its text
   */
  public static String rate(double permitsPerSecond) {
    return permitsPerSecond == Math.rint(permitsPerSecond) && permitsPerSecond < 1e15
        ? Long.toString((long) permitsPerSecond)
        : String.format(Locale.ROOT, "%.3f", permitsPerSecond);
  }

  /** A rate as a person writes it: {@code 10000000000}, {@code 0.000833333}, never {@code 1E10}. */
  public static String plain(double value) {
    return BigDecimal.valueOf(value).round(new MathContext(6)).stripTrailingZeros()
        .toPlainString();
  }

  @Override
  public String toString() {
    return plain(permitsPerSecond) + " permits/s, burst " + burst;
  }
}
