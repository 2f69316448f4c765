package dev.sluice.internal.redis;

import dev.sluice.internal.limit.FairShares;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import dev.sluice.internal.limit.Ticker;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;

/**
 * This instance's side of {@code sluice.instances.division=demand}: it measures the demand that
 * goes out with each heartbeat and turns each registry snapshot into this instance's share.
 *
 * <p><b>Demand</b> is the calls that reached a door per second, admitted plus rejected (the
 * limiter's own counters, read once per heartbeat), smoothed by an exponential moving average with
 * a time constant of {@link #SMOOTHING_NANOS}. While the flag is closed nothing is counted (the
 * flag-closed path is one memory read), so every instance reports no demand and the division is
 * the equal one until the first heartbeat after limiting starts. The cache's misses before the
 * outage are not used as a weight: counting them would put work on the flag-closed path, they
 * follow traffic only where hit ratios are alike, and one heartbeat into the outage the real
 * demand is known anyway.
 *
 * <p><b>Shares</b>: every instance runs {@link FairShares} on the same snapshot. Members that
 * count in the registry without publishing a demand (an instance with {@code equal}, or an older
 * version) are taken to hold budget / live count each, and the rest of the budget is divided by
 * demand. Changes follow Doorman's rule, cut at once and raise a heartbeat later, with the
 * published shares as the ledger:
 *
 * <ul>
 *   <li>a cut applies at once: to the target, and further down into the room the others'
 *       published shares leave (never below the floor), so that an instance whose view is a
 *       heartbeat old never holds what the others still hold;
 *   <li>a raise is decided on one snapshot and published with the next heartbeat, and applied
 *       only once Redis has taken that publication: the others see a share before it is used. It
 *       takes only what the others' published shares leave free, each raiser its part of that
 *       slack in proportion to how far it is below its target, so that members raising from
 *       one snapshot never take the same slack twice.
 * </ul>
 *
 * <p>A published share is therefore never below the share in force. A newcomer starts at budget /
 * {@code sluice.instances.assumed}, counted by itself before the others have seen it: the one
 * overshoot by design, at most that much for at most a heartbeat.
 *
 * <p>When Redis does not answer, no snapshot arrives and the share stays as it was; a raise
 * waiting for that publication is dropped.
 *
 * <p>This class is not threadsafe on its own: the registry calls it on its one heartbeat thread
 * only; the limiter it sets is threadsafe.
 */
public final class DemandShare implements Registry.Demand {
  /** The demand's smoothing time constant: a step in load shows 63 % after this long. */
  static final long SMOOTHING_NANOS = 1_000_000_000L;

  private final Limiter limiter;
  private final Ticker ticker;
  private long lastDoors;
  private long lastReadNanos;
  private double demand;
  /** A raise decided at the last heartbeat, applied at the next one; {@code 0}: none. */
  private double raiseTo;

  public DemandShare(Limiter limiter, Ticker ticker) {
    this.limiter = limiter;
    this.ticker = ticker;
    this.lastDoors = doors();
    this.lastReadNanos = ticker.read();
  }

  private long doors() {
    return limiter.admitted() + limiter.rejected();
  }

  @Override
  public String published() {
    measure();
    // a raise decided a heartbeat ago is published first, and applied once Redis has it
    double share = raiseTo > 0 ? raiseTo : limiter.bucket().permitsPerSecond();
    return Share.plain(demand) + " " + exact(share);
  }

  /** A share as published: 12 digits, so that rounding never makes room that is not there. */
  private static String exact(double share) {
    return new BigDecimal(share).round(new MathContext(12, RoundingMode.CEILING))
        .stripTrailingZeros().toPlainString();
  }

  /** Folds the doors since the last read into the smoothed demand. */
  public void measure() {
    long now = ticker.read();
    long elapsed = now - lastReadNanos;
    if (elapsed <= 0) {
      return;
    }
    long doors = doors();
    double rate = (doors - lastDoors) * 1e9 / elapsed;
    double weight = 1 - Math.exp(-(double) elapsed / SMOOTHING_NANOS);
    demand += weight * (rate - demand);
    lastDoors = doors;
    lastReadNanos = now;
  }

  /** The publication failed: the raise it carried is dropped, as nobody has seen it. */
  @Override
  public void missed() {
    raiseTo = 0;
  }

  @Override
  public void heard(Registry.Snapshot snapshot) {
    if (raiseTo > 0) { // the others can see it now
      limiter.setShare(limiter.instances(), raiseTo / limiter.budget());
      raiseTo = 0;
    }
    Map<String, Registry.Published> members = snapshot.members();
    if (!members.containsKey(snapshot.self())) {
      return; // cannot happen after our own write; never divide without ourselves
    }
    int count = Math.max(snapshot.live(), members.size());
    double budget = limiter.budget();
    double held = limiter.bucket().permitsPerSecond();
    double next = next(budget, count, members, snapshot.self(), held);
    if (next <= held) {
      raiseTo = 0;
      limiter.setShare(count, next / budget);
    } else {
      raiseTo = next;
      limiter.setShare(count, held / budget); // the count may have changed; the share not yet
    }
  }

  /**
   * The share to hold. A cut applies at once, to the target and within the room the others'
   * published shares leave; a raise is applied at the next heartbeat, taking only this
   * instance's part of the slack those shares leave.
   */
  private double next(double budget, int count, Map<String, Registry.Published> members,
      String self, double held) {
    Division division = Division.of(budget, count, members, self, held);
    double target = division.targets[division.self];
    double room = division.slack() + held; // what the others' published shares leave
    if (target <= held || room < held) {
      // a cut, at once: to the target, and into the room the others leave, but never below the
      // floor (at most the target): when every instance counts others' stale shares, none cuts
      // to nothing
      double floor = Math.min(target, FairShares.FLOOR * budget / count);
      return Math.max(floor, Math.min(target, room));
    }
    return held + Math.min(target - held, division.slack() * division.claim());
  }

  /**
   * One snapshot divided: every member's target, and the shares they said they hold.
   *
   * @param targets each member's fair share of the pool, permits per second
   * @param holding each member's published share (this one's: what it holds now); a member that
   *     published none is taken to hold its target
   * @param pool the part of the budget divided by demand: members that count without publishing
   *     hold budget / live count each
   * @param self this instance's index
   */
  public record Division(double[] targets, double[] holding, double pool, int self) {
    static Division of(double budget, int count, Map<String, Registry.Published> members,
        String self, double held) {
      int n = members.size();
      double[] demands = new double[n];
      double[] holding = new double[n];
      int at = 0;
      int selfAt = -1;
      for (Map.Entry<String, Registry.Published> member : members.entrySet()) {
        if (member.getKey().equals(self)) {
          selfAt = at;
        }
        demands[at] = member.getValue().demand();
        holding[at++] = member.getValue().share();
      }
      double pool = budget * n / count;
      double[] targets = FairShares.divide(pool, demands);
      for (int i = 0; i < n; i++) {
        holding[i] = i == selfAt ? held : Double.isFinite(holding[i]) ? holding[i] : targets[i];
      }
      return new Division(targets, holding, pool, selfAt);
    }

    /** What no member holds. */
    double slack() {
      double held = 0;
      for (double share : holding) {
        held += share;
      }
      return pool - held;
    }

    /**
     * This member's part of the slack: its shortfall over every member's, so that members raising
     * from the same snapshot never take the same slack twice.
     */
    double claim() {
      double shortfalls = 0;
      for (int i = 0; i < targets.length; i++) {
        shortfalls += Math.max(0, targets[i] - holding[i]);
      }
      double mine = Math.max(0, targets[self] - holding[self]);
      return shortfalls > 0 ? mine / shortfalls : 0;
    }
  }
}
