package dev.sluice.internal.limit;

import java.util.Arrays;

/**
 * Max-min fair division of a budget by demand ("water-filling", as in Doorman's FAIR_SHARE): the
 * budget is poured evenly over the instances; an instance that wants less than the level it
 * reaches keeps only what it wants, and the rest flows on to the others. Then:
 *
 * <ul>
 *   <li>Every instance counts as wanting at least {@link #FLOOR} of an equal share, so one that is
 *       idle now (or has reported nothing yet) still admits a trickle at once when its load
 *       arrives; its demand (which counts its rejections) then shows at its next heartbeat.
 *   <li>What nobody wants (every demand below its fair level) is handed back evenly, so the
 *       shares always sum to exactly the budget: every instance gets headroom to grow into until
 *       the next heartbeat, and when every instance is idle the division is the equal one.
 * </ul>
 *
 * <p>Every instance runs this on the same registry snapshot and gets the same answer, so the
 * shares in force sum to at most the budget, except while snapshots differ (see
 * {@link DemandShare}). O(n log n) in the number of instances. This class is stateless.
 */
public final class FairShares {
  /** The least an instance counts as wanting: this part of budget / instances. */
  public static final double FLOOR = 0.05;

  private FairShares() {}

  /**
   * Divides {@code budget} by {@code demands}.
   *
   * @param budget what all of them may take together, permits per second
   * @param demands each instance's demand, permits per second; negative or NaN counts as none
   * @return each instance's share, in the order of {@code demands}, summing to {@code budget}
   */
  public static double[] divide(double budget, double[] demands) {
    int n = demands.length;
    double floor = FLOOR * budget / n;
    double[] wants = new double[n];
    for (int i = 0; i < n; i++) {
      wants[i] = demands[i] >= floor ? demands[i] : floor; // NaN fails the compare too
    }
    double[] shares = waterFill(budget, wants);
    double given = 0;
    for (double share : shares) {
      given += share;
    }
    double spare = Math.max(0, budget - given) / n;
    for (int i = 0; i < n; i++) {
      shares[i] += spare;
    }
    return shares;
  }

  /** Max-min fair: smallest wants first, each met in full while it is below the level left. */
  private static double[] waterFill(double budget, double[] wants) {
    int n = wants.length;
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Double.compare(wants[a], wants[b]));
    double[] shares = new double[n];
    double left = budget;
    for (int k = 0; k < n; k++) {
      double level = left / (n - k);
      int i = order[k];
      if (wants[i] <= level) {
        shares[i] = wants[i];
        left -= wants[i];
      } else {
        for (int j = k; j < n; j++) {
          shares[order[j]] = level; // everyone from here wants more than the level: all get it
        }
        return shares;
      }
    }
    return shares;
  }
}
