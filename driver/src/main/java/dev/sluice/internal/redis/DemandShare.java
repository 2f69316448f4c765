package dev.sluice.internal.redis;

import dev.sluice.internal.limit.FairShares;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import dev.sluice.internal.limit.Ticker;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's side of {@code sluice.instances.division=demand}: it measures the demand that
 * goes out with each heartbeat and turns each registry snapshot into this instance's share.
 *
 * <p>Demand is the calls that reached a door per second, admitted plus rejected (the limiter's own
 * counters, read once per heartbeat), smoothed over {@link #SMOOTHING_NANOS}; nothing is counted
 * while the flag is closed. Every instance runs {@link FairShares} on the same snapshot; a member
 * that counts without publishing a usable value holds budget / live count. A cut applies at once; a
 * raise is published first as a claim (each member publishes the larger of its share in force and
 * its claim) and applied only if the snapshot the same script returns shows the claim plus every
 * other member's published share within the budget.
 *
 * <p>The invariant: while every member reaches Redis, the shares in force sum to at most the
 * budget at every instant. It needs each raise checked against what the others hold now, so a
 * member that vanishes without leaving is still counted at its last published share for one
 * expiry, no raise applies while one is missing, a member that closes leaves a tombstone
 * ({@link Registry.Published#LEFT}), and a newcomer applies no raise during its first expiry.
 * Fields outside the protocol are ignored, with one WARN per member.
 *
 * <p>Not threadsafe on its own: the registry calls it on its one heartbeat thread only; the limiter
 * it sets is threadsafe. The long form (the proof, its two bounded exceptions, the tests):
 * docs/redis.md#dividing-the-budget-by-demand.
 */
public final class DemandShare implements Registry.Demand {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  /** The demand's smoothing time constant: a step in load shows 63 % after this long. */
  static final long SMOOTHING_NANOS = 1_000_000_000L;
  /** Allows for rounding in sums of shares: this part of the budget. */
  static final double ROUNDING = 1e-9;

  private final Limiter limiter;
  private final Ticker ticker;
  private long lastDoors;
  private long lastReadNanos;
  private double demand;
  /** A raise decided at the last heartbeat, applied at the next one; {@code 0}: none. */
  private double raiseTo;
  /** The other members seen, by id: what each last published, and when. */
  private final Map<String, Seen> seen = new HashMap<>();
  /** Members whose values were ignored, warned about once while they stay. */
  private final Set<String> warned = new HashSet<>();
  /** When this member first heard a snapshot, once {@link #heardAny}. */
  private long firstHeardNanos;
  private boolean heardAny;

  public DemandShare(Limiter limiter, Ticker ticker) {
    this.limiter = limiter;
    this.ticker = ticker;
    this.lastDoors = doors();
    this.lastReadNanos = ticker.read();
  }

  /** What another member last published, and when this member saw it. */
  private record Seen(Registry.Published published, long atNanos) {}

  private long doors() {
    return limiter.counts().admitted() + limiter.counts().rejected();
  }

  @Override
  public String published() {
    measure();
    // a raise decided a heartbeat ago is published first, and applied once Redis has it
    double share = Math.max(raiseTo, limiter.bucket().permitsPerSecond());
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
    if (!snapshot.members().containsKey(snapshot.self())) {
      raiseTo = 0;
      return; // cannot happen after our own write; never divide without ourselves
    }
    long now = ticker.read();
    long expiry = snapshot.expiry().toNanos();
    if (!heardAny) {
      heardAny = true;
      firstHeardNanos = now;
    }
    double budget = limiter.share().budget();
    Map<String, Registry.Published> members = sane(snapshot, budget);
    boolean complete = remember(members, snapshot.self(), now, expiry)
        && now - firstHeardNanos >= expiry;
    int count = Math.max(snapshot.live(), members.size());
    double pool = budget * members.size() / count;
    if (raiseTo > 0 && complete && fits(members, snapshot.self(), raiseTo, pool)) {
      limiter.share().setShare(count, raiseTo / budget); // the others can see it, and there is room
    }
    raiseTo = 0;
    double held = limiter.bucket().permitsPerSecond();
    double next = next(budget, count, members, snapshot.self(), held);
    if (next <= held || !complete) {
      limiter.share().setShare(count, Math.min(next, held) / budget);
    } else {
      raiseTo = next;
      // the count may have changed; the share not yet
      limiter.share().setShare(count, held / budget);
    }
  }

  /**
   * The members whose values the protocol allows, this one always included; the others are
   * ignored, each with one WARN while it stays.
   */
  private Map<String, Registry.Published> sane(Registry.Snapshot snapshot, double budget) {
    Map<String, Registry.Published> sane = new HashMap<>();
    warned.retainAll(snapshot.members().keySet());
    snapshot.members().forEach((id, published) -> {
      if (id.equals(snapshot.self())) {
        sane.put(id, published);
      } else if (published.left()) {
        seen.remove(id); // its share is free at once
      } else if (allowed(published, budget)) {
        sane.put(id, published);
      } else if (warned.add(id)) {
        LOG.warn("{} - demand division: member {} of sluice:{}:demand published demand {} and"
            + " share {}, which no Sluice member publishes (two numbers, the share from 0 to the"
            + " budget of {}/s, stamped by Redis' clock); it is ignored and counted, if at all,"
            + " at budget / live count. Is something else writing to that hash?",
            limiter.name(), id, limiter.name(), published.demand(), published.share(),
            Share.rate(budget));
      }
    });
    return sane;
  }

  /**
   * Whether a published value is within the protocol: finite numbers, a demand of at least 0, a
   * share from 0 to the budget.
   *
   * @param published what another member published
   * @param budget the budget, all instances together
   * @return {@code false} for a value no Sluice member publishes
   */
  public static boolean allowed(Registry.Published published, double budget) {
    double demand = published.demand();
    double share = published.share();
    return demand >= 0 && demand < Double.POSITIVE_INFINITY
        && share >= 0 && share <= budget * (1 + ROUNDING);
  }

  /**
   * Records what the others published now, and adds to {@code members} each one seen within the
   * last expiry that this snapshot lacks, with the share it last published.
   *
   * @return whether the snapshot lacked none of them
   */
  private boolean remember(Map<String, Registry.Published> members, String self, long now,
      long expiry) {
    members.forEach((id, published) -> {
      if (!id.equals(self)) {
        seen.put(id, new Seen(published, now));
      }
    });
    seen.values().removeIf(member -> now - member.atNanos() > expiry);
    boolean complete = true;
    for (Map.Entry<String, Seen> member : seen.entrySet()) {
      if (!members.containsKey(member.getKey())) {
        members.put(member.getKey(), member.getValue().published());
        complete = false;
      }
    }
    return complete;
  }

  /** Whether {@code claim}, with what every other member published, fits in the pool. */
  private static boolean fits(Map<String, Registry.Published> members, String self,
      double claim, double pool) {
    double sum = claim;
    for (Map.Entry<String, Registry.Published> member : members.entrySet()) {
      if (!member.getKey().equals(self)) {
        sum += member.getValue().share();
      }
    }
    return sum <= pool * (1 + ROUNDING);
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
