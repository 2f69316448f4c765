package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.Reserve;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The reservation ({@code sluice.reserve}) on a fake ticker: a flood of a lower priority never
 * takes the reserve from a higher one, nothing is wasted when no one above needs it, and the
 * total never exceeds the rate plus the burst. Higher-priority arrivals are Poisson (random
 * exponential gaps, seeded), not evenly spaced: evenly spaced arrivals would flatter the scheme.
 */
class TokenBucketPriorityTest {
  /** The flood tries every 10 µs: 100,000 calls a second, far beyond any rate below. */
  private static final long FLOOD_STEP_NANOS = 10_000;

  /** What one simulated run saw. */
  static final class Run {
    long highArrived;
    long highAdmitted;
    long lowAdmitted;
    /** The largest excess of the total admitted over {@code rate * t + burst}, in permits. */
    double worstExcess = Double.NEGATIVE_INFINITY;

    double highShare() {
      return (double) highAdmitted / highArrived;
    }
  }

  /**
   * Runs a flood of {@code low} (when {@code flood}) against Poisson arrivals of {@code high} at
   * {@code highRate} per second, for {@code seconds}.
   */
  static Run simulate(double rate, int burst, double reserve, Priority high, double highRate,
      Priority low, boolean flood, int seconds, long seed) {
    FakeTicker ticker = new FakeTicker(0);
    Bucket bucket = Bucket.of(rate, burst, reserve, ticker);
    Random random = new Random(seed);
    Run run = new Run();
    long end = seconds * 1_000_000_000L;
    long nextHigh = highRate == 0 ? Long.MAX_VALUE : exponential(random, highRate);
    for (long t = 0; t < end; t += FLOOD_STEP_NANOS) {
      while (nextHigh <= t) {
        ticker.set(nextHigh);
        run.highArrived++;
        if (bucket.tryAcquire(high)) {
          run.highAdmitted++;
        }
        nextHigh += exponential(random, highRate);
      }
      ticker.set(t);
      if (flood && bucket.tryAcquire(low)) {
        run.lowAdmitted++;
      }
      double allowed = rate * t / 1e9 + burst;
      run.worstExcess = Math.max(run.worstExcess, run.highAdmitted + run.lowAdmitted - allowed);
    }
    return run;
  }

  private static long exponential(Random random, double perSecond) {
    return Math.max(1, (long) (-Math.log(1 - random.nextDouble()) / perSecond * 1e9));
  }

  @Test
  void classBurst_reserve_eachPrioritySeesItsPartOfTheOneAbove() {
    Bucket bucket = Bucket.of(100, 10, 0.2, new FakeTicker());
    assertThat(bucket.burst(Priority.CRITICAL)).isEqualTo(10);
    assertThat(bucket.burst(Priority.NORMAL)).isEqualTo(8);
    assertThat(bucket.burst(Priority.SHEDDABLE)).isEqualTo(6); // 6.4, rounded down
    assertThat(Reserve.classBurst(1, 0.2, 2)).as("burst 1: no room, no reserve").isEqualTo(1);
    assertThat(Reserve.classBurst(2, 0.2, 1)).as("0.4 of a permit rounds to none")
        .isEqualTo(2);
    assertThat(Reserve.classBurst(3, 0.2, 1)).as("0.6 of a permit rounds to one")
        .isEqualTo(2);
    assertThat(Reserve.classBurst(100, 0, 2)).as("reserve 0: one bucket").isEqualTo(100);
    assertThat(Reserve.classBurst(100, 0.99, 2)).as("never below one").isEqualTo(1);
  }

  @Test
  void tryAcquire_stoppedClock_eachPriorityEmptiesOnlyItsPart() {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(100, 10, 0.2, ticker);
    assertThat(drain(bucket, Priority.SHEDDABLE)).isEqualTo(6);
    assertThat(drain(bucket, Priority.NORMAL)).isEqualTo(2);
    assertThat(drain(bucket, Priority.CRITICAL)).isEqualTo(2);
    assertThat(bucket.tryAcquire()).as("the public method sees the same, empty bucket").isFalse();
  }

  @Test
  void tryAcquire_publicMethod_seesTheWholeBucketAsBefore() {
    Bucket bucket = Bucket.of(100, 10, 0.2, new FakeTicker());
    int taken = 0;
    while (bucket.tryAcquire()) {
      taken++;
    }
    assertThat(taken).isEqualTo(10);
  }

  @Test
  void nanosUntilAvailable_lowerPriority_waitsForItsOwnEdge() {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(100, 10, 0.2, ticker);
    drain(bucket, Priority.SHEDDABLE);
    assertThat(bucket.nanosUntilAvailable(Priority.CRITICAL)).isZero();
    assertThat(bucket.nanosUntilAvailable(Priority.SHEDDABLE)).isEqualTo(10_000_000); // 1 permit
  }

  @Test
  void tryAcquire_sheddableFloodAgainstPoissonCritical_admitsTheCriticalDemand() {
    // the default burst at 1,000/s is 100 (100 ms): CRITICAL has 36 permits above the flood
    Run run = simulate(1000, 100, 0.2, Priority.CRITICAL, 200, Priority.SHEDDABLE, true, 30, 1);
    assertThat(run.highArrived).isGreaterThan(5_000);
    assertThat(run.highShare()).isGreaterThanOrEqualTo(0.99);
    assertThat(run.worstExcess).isLessThanOrEqualTo(0);
    assertThat(run.highAdmitted + run.lowAdmitted).as("the share is all used")
        .isGreaterThanOrEqualTo(30 * 1000);
  }

  @Test
  void tryAcquire_normalFloodAgainstPoissonCritical_admitsTheCriticalDemand() {
    Run run = simulate(1000, 100, 0.2, Priority.CRITICAL, 200, Priority.NORMAL, true, 30, 2);
    assertThat(run.highShare()).isGreaterThanOrEqualTo(0.99);
    assertThat(run.worstExcess).isLessThanOrEqualTo(0);
  }

  @Test
  void tryAcquire_sheddableFloodAgainstPoissonNormal_admitsTheNormalDemand() {
    // NORMAL sees 80, SHEDDABLE 64: 16 permits of depth
    Run run = simulate(1000, 100, 0.2, Priority.NORMAL, 200, Priority.SHEDDABLE, true, 30, 3);
    assertThat(run.highShare()).isGreaterThanOrEqualTo(0.99);
    assertThat(run.worstExcess).isLessThanOrEqualTo(0);
  }

  @Test
  void tryAcquire_smallShareDefaultBurst_stillAdmitsTheCriticalDemand() {
    // 200/s: the default burst is 20, SHEDDABLE sees 13 (12.8), so 7 permits of depth
    Run run = simulate(200, 20, 0.2, Priority.CRITICAL, 40, Priority.SHEDDABLE, true, 120, 4);
    assertThat(run.highShare()).isGreaterThanOrEqualTo(0.99);
    assertThat(run.worstExcess).isLessThanOrEqualTo(0);
  }

  @Test
  void tryAcquire_burstOne_hasNoReserve_theDocumentedLimit() {
    Run run = simulate(100, 1, 0.2, Priority.CRITICAL, 20, Priority.SHEDDABLE, true, 60, 5);
    assertThat(run.highShare()).as("the flood takes each permit as it frees").isLessThan(0.5);
    assertThat(run.worstExcess).isLessThanOrEqualTo(0);
  }

  @Test
  void tryAcquire_noHigherDemand_theLowerPriorityGetsTheWholeShare() {
    Run run = simulate(1000, 100, 0.2, Priority.CRITICAL, 0, Priority.SHEDDABLE, true, 10, 6);
    // every permit the rate frees, plus the part of the first burst SHEDDABLE sees (64)
    assertThat(run.lowAdmitted).isBetween(10L * 1000 + 63, 10L * 1000 + 64);
  }

  @Test
  void tryAcquire_higherDemandAboveTheReserve_isServedFirstAndTheTotalHolds() {
    // CRITICAL asks for 90 % of the share: it gets nearly all of it, the flood the rest
    Run run = simulate(1000, 100, 0.2, Priority.CRITICAL, 900, Priority.SHEDDABLE, true, 30, 7);
    assertThat(run.highShare()).isGreaterThan(0.9);
    assertThat(run.worstExcess).isLessThanOrEqualTo(0);
    assertThat(run.highAdmitted + run.lowAdmitted).isBetween(30_000L, 30_100L);
  }

  @Test
  void tryAcquire_sixteenThreadsMixedPriorities_admitExactlyWhatEachMayReach() throws Exception {
    FakeTicker ticker = new FakeTicker();
    Bucket bucket = Bucket.of(1000, 100, 0.2, ticker);
    long[] first = hammer(bucket);
    assertThat(first[0] + first[1] + first[2]).isEqualTo(100);
    assertThat(first[2]).as("SHEDDABLE reaches 64").isLessThanOrEqualTo(64);
    assertThat(first[1] + first[2]).as("NORMAL reaches 80").isLessThanOrEqualTo(80);

    ticker.advanceNanos(50_000_000); // 50 more permits
    long[] second = hammer(bucket);
    assertThat(second[0] + second[1] + second[2]).isEqualTo(50);
  }

  /** 16 threads, priorities mixed, each trying 5,000 times on a stopped clock. */
  private static long[] hammer(Bucket bucket) throws InterruptedException {
    LongAdder[] admitted = {new LongAdder(), new LongAdder(), new LongAdder()};
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      Priority priority = Priority.values()[t % 3];
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 5000; i++) {
          if (bucket.tryAcquire(priority)) {
            admitted[priority.ordinal()].increment();
          }
        }
      });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    return new long[] {admitted[0].sum(), admitted[1].sum(), admitted[2].sum()};
  }

  private static int drain(Bucket bucket, Priority priority) {
    int taken = 0;
    while (bucket.tryAcquire(priority)) {
      taken++;
    }
    return taken;
  }
}
