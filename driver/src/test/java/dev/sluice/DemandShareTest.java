package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.FairShares;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import dev.sluice.internal.redis.DemandShare;
import dev.sluice.internal.redis.Registry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Demand division (issue 15, item 1) on a fake clock: a fleet of real limiters whose heartbeats
 * go to an in-memory registry at different phases, offered loads stepped every 10 ms.
 */
class DemandShareTest {
  private static final double BUDGET = 1000;
  private static final int ASSUMED = 10;
  private static final long STEP_NANOS = 10_000_000L;
  private static final long HEARTBEAT_NANOS = 1_000_000_000L;
  /** The shares in force never sum above the budget once every member published a share. */
  private static final double DRIFT_BOUND = BUDGET + 1e-6;

  private final FakeTicker ticker = new FakeTicker();
  /** The registry: member id → what it published. */
  private final Map<String, Registry.Published> registry = new LinkedHashMap<>();
  /** Members that count without publishing (equal division, older versions). */
  private int countingOnly;
  private final List<Node> fleet = new ArrayList<>();
  private long now;
  /** The most the shares in force summed to, at any step. */
  private double worstShareSum;
  private long[] lastRun = new long[0];

  /** One instance: a limiter that always limits, its demand share, and its offered load. */
  private final class Node {
    final String id;
    final Limiter limiter;
    final DemandShare share;
    final long phaseNanos;
    double offered;
    double owed;
    long admitted;
    boolean beating = true;

    Node(String id, double offered, long phaseNanos) {
      this.id = id;
      this.offered = offered;
      this.phaseNanos = phaseNanos;
      Settings settings = Settings.empty().with(Keys.NAME, "users-db").with(Keys.BUDGET, BUDGET);
      Share first = Share.of(BUDGET, ASSUMED, 0);
      limiter = new Limiter("users-db", settings,
          Bucket.of(first.permitsPerSecond, first.burst, ticker), BreakerFlag.alwaysOpen(),
          ASSUMED, false, ticker, RateLimitExceededException.REFUSALS);
      share = new DemandShare(limiter, ticker);
    }

    void offer() {
      owed += offered * STEP_NANOS / 1e9;
      for (; owed >= 1; owed--) {
        try {
          limiter.admit();
          admitted++;
        } catch (RateLimitExceededException refused) {
          // counted by the limiter as demand
        }
      }
    }

    void beat() {
      registry.put(id, Registry.Published.parse(share.published()));
      share.heard(new Registry.Snapshot(id, registry.size() + countingOnly,
          new HashMap<>(registry)));
    }

    double rate() {
      return limiter.bucket().permitsPerSecond();
    }
  }

  private Node join(double offered) {
    Node node = new Node("i" + fleet.size(), offered, (fleet.size() * 370_000_000L) % HEARTBEAT_NANOS);
    fleet.add(node);
    node.beat(); // Registry.start() beats once at once
    return node;
  }

  private void leave(Node node) {
    fleet.remove(node);
    registry.remove(node.id);
  }

  /** Runs the fleet for {@code seconds}; returns the calls admitted in each second, all together. */
  private long[] run(int seconds) {
    long[] perSecond = new long[seconds];
    for (int s = 0; s < seconds; s++) {
      long before = admittedByAll();
      for (long t = 0; t < HEARTBEAT_NANOS; t += STEP_NANOS) {
        ticker.advanceNanos(STEP_NANOS);
        now += STEP_NANOS;
        for (Node node : fleet) {
          node.offer();
          if (node.beating && (now - node.phaseNanos) % HEARTBEAT_NANOS == 0) {
            node.beat();
          }
        }
        double sum = fleet.stream().mapToDouble(Node::rate).sum();
        worstShareSum = Math.max(worstShareSum, sum);
      }
      perSecond[s] = admittedByAll() - before;
    }
    lastRun = perSecond;
    return perSecond;
  }

  @org.junit.jupiter.api.AfterEach
  void figures() {
    System.out.printf("FIGURES worst sum of shares in force: %.3f of %.0f; seconds: %s%n",
        worstShareSum, BUDGET, java.util.Arrays.toString(lastRun));
  }

  private long admittedByAll() {
    return fleet.stream().mapToLong(n -> n.admitted).sum();
  }

  private static long min(long[] values, int from) {
    long least = Long.MAX_VALUE;
    for (int i = from; i < values.length; i++) {
      least = Math.min(least, values[i]);
    }
    return least;
  }

  @Test
  void loads6to3to1_overTheBudget_theDatabaseGetsNearlyAllOfIt() {
    Node busy = join(0);
    Node middle = join(0);
    Node quiet = join(0);
    run(3); // the flag closed: nothing counted, the equal division
    busy.offered = 720;
    middle.offered = 360;
    quiet.offered = 120;

    long[] perSecond = run(12);

    // water-filling: 120 met; level 880 / 2 = 440: 360 met; the busy one gets the 520 left
    assertThat(quiet.rate()).isCloseTo(120, within(15.0));
    assertThat(middle.rate()).isCloseTo(360, within(15.0));
    assertThat(busy.rate()).isCloseTo(520, within(15.0));
    assertThat(min(perSecond, 5)).as("each second once converged").isGreaterThan(900);
    assertThat(worstShareSum).as("shares in force, summed").isLessThanOrEqualTo(DRIFT_BOUND);
  }

  @Test
  void beat_targetBelowTheShare_cutAtOnce_raisedOnlyAtTheNextBeat() {
    Node a = join(0);
    Node b = join(0);
    run(3);
    assertThat(a.rate()).isCloseTo(500, within(1e-6)); // both idle: the equal division

    registry.put("other", new Registry.Published(1000, 0)); // a busy member appears
    a.beat();
    double cut = a.rate();
    assertThat(cut).isLessThan(BUDGET / 3);

    registry.remove("other");
    b.beat(); // b cuts too (its room), then a sees the slack
    a.beat();
    assertThat(a.rate()).as("a raise waits a heartbeat").isEqualTo(cut);
    run(3);
    assertThat(a.rate()).isCloseTo(500, within(1.0));
    assertThat(b.rate()).isCloseTo(500, within(1.0));
  }

  @Test
  void join_newcomerStartsAtTheAssumedShare_overshootBoundedByIt() {
    join(720);
    join(360);
    join(120);
    run(6);
    worstShareSum = 0;

    Node late = join(200);
    assertThat(late.rate()).isLessThanOrEqualTo(BUDGET / ASSUMED);
    run(6);

    assertThat(worstShareSum).as("shares in force while the fleet takes the newcomer in")
        .isLessThanOrEqualTo(BUDGET + BUDGET / ASSUMED);
    double sum = fleet.stream().mapToDouble(Node::rate).sum();
    assertThat(sum).isLessThanOrEqualTo(BUDGET + 1e-6);
    assertThat(late.rate()).isGreaterThan(150);
  }

  @Test
  void leave_othersGrowIntoTheFreedShare_neverAboveTheBudget() {
    join(720);
    Node middle = join(360);
    Node quiet = join(120);
    run(6);
    worstShareSum = 0;

    leave(middle);
    long[] perSecond = run(6);

    assertThat(worstShareSum).isLessThanOrEqualTo(DRIFT_BOUND);
    assertThat(min(perSecond, 3)).isGreaterThan(800); // 720 + 120 offered, all of it admitted
    assertThat(quiet.rate()).isGreaterThan(120);
  }

  @Test
  void staleMember_prunedFromTheSnapshot_itsShareReturnsToTheLiveOnes() {
    Node busy = join(2000);
    Node stale = join(2000);
    run(5);
    assertThat(busy.rate()).isCloseTo(500, within(30.0));

    stale.beating = false; // it stops beating; Redis prunes its field after the expiry
    registry.remove(stale.id);
    fleet.remove(stale);
    run(3);

    assertThat(busy.rate()).isCloseTo(BUDGET, within(1e-6));
  }

  @Test
  void everyInstanceIdle_theDivisionIsEqual() {
    join(0);
    join(0);
    join(0);
    join(0);
    run(4);
    assertThat(fleet).allSatisfy(n -> assertThat(n.rate()).isCloseTo(250, within(1e-6)));
  }

  @Test
  void oneInstanceWithAllTheDemand_takesAllButTheIdleOnesFloors() {
    Node busy = join(5000);
    join(0);
    join(0);
    run(6);
    double floor = FairShares.FLOOR * BUDGET / 3;
    assertThat(busy.rate()).isCloseTo(BUDGET - 2 * floor, within(1.0));
  }

  @Test
  void countingOnlyMembers_takeBudgetOverLiveCount_theRestDividedByDemand() {
    countingOnly = 2; // two instances on equal division: 250 each of the 1000
    Node busy = join(2000);
    Node quiet = join(100);
    run(6);
    assertThat(busy.rate() + quiet.rate()).isCloseTo(500, within(15.0))
        .isLessThanOrEqualTo(500 + 1e-6);
    assertThat(quiet.rate()).isCloseTo(100, within(15.0));
  }

  @Test
  void noSnapshot_redisUnreachable_theShareStaysWhereItWas() {
    Node busy = join(720);
    join(280);
    run(5);
    double before = busy.rate();
    fleet.forEach(n -> n.beating = false); // no beat reaches Redis: no snapshot arrives

    run(5);

    assertThat(busy.rate()).isEqualTo(before);
    assertThat(before).isLessThan(BUDGET);
  }
}
