package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.limit.Bucket;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The bucket's invariant, for any arrival pattern on a fake ticker: over any window of length t,
 * admitted ≤ rate × t + burst; with forced permits, admitted + forced ≤ rate × t + burst + the
 * debt still outstanding at the window's end.
 */
class TokenBucketPropertiesTest {

  /** One arrival: how long after the previous one, how many permits, and whether it is forced. */
  record Arrival(long gapNanos, int permits, boolean forced) {}

  @Property(tries = 300)
  void anyWindow_admittedWithinRateTimesLengthPlusBurst(
      @ForAll("rates") double rate,
      @ForAll @IntRange(min = 1, max = 40) int burst,
      @ForAll("arrivals") @Size(min = 1, max = 250) List<Arrival> arrivals) {
    check(rate, burst, arrivals, false);
  }

  @Property(tries = 300)
  void anyWindow_admittedPlusForcedWithinBoundPlusOutstandingDebt(
      @ForAll("rates") double rate,
      @ForAll @IntRange(min = 1, max = 40) int burst,
      @ForAll("arrivals") @Size(min = 1, max = 250) List<Arrival> arrivals) {
    check(rate, burst, arrivals, true);
  }

  private static void check(double rate, int burst, List<Arrival> arrivals, boolean allowForce) {
    FakeTicker ticker = new FakeTicker(0);
    Bucket bucket = Bucket.of(rate, burst, ticker);
    double intervalNanos = 1e9 / rate;
    List<double[]> charged = new ArrayList<>(); // {time, permits, debt after this charge}
    for (Arrival a : arrivals) {
      ticker.advanceNanos((long) (a.gapNanos() * intervalNanos / 1000));
      long now = ticker.read();
      int permits = Math.min(a.permits(), burst);
      boolean taken;
      if (allowForce && a.forced()) {
        bucket.forceAcquire(permits);
        taken = true;
      } else {
        taken = bucket.tryAcquire(permits);
      }
      if (taken) {
        // the debt, in permits: how far the bucket is past empty right after this charge
        double debt = Math.max(0, bucket.nanosUntilAvailable(1) / intervalNanos - 1);
        charged.add(new double[] {now, permits, debt});
      }
    }
    for (int i = 0; i < charged.size(); i++) {
      double sum = 0;
      for (int j = i; j < charged.size(); j++) {
        sum += charged.get(j)[1];
        double start = charged.get(i)[0];
        double end = charged.get(j)[0];
        double debt = allowForce ? charged.get(j)[2] : 0;
        double bound = rate * (end - start) / 1e9 + burst + debt + 1e-6;
        assertThat(sum)
            .as("permits charged in [%s, %s] ns at %s/s, burst %d", start, end, rate, burst)
            .isLessThanOrEqualTo(bound);
      }
    }
  }

  @Provide
  Arbitrary<Double> rates() {
    return Arbitraries.of(0.001, 0.5, 3.0, 7.0, 10.0, 333.0, 1000.0, 48_271.0, 1e6, 3e8, 1e9);
  }

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    // gaps in thousandths of an interval: many arrivals close together, some long pauses
    Arbitrary<Long> gaps = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.longs().between(0, 1500)),
        net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(0, 50_000)));
    Arbitrary<Integer> permits = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, Arbitraries.just(1)),
        net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(1, 5)));
    Arbitrary<Boolean> forced = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.just(false)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(true)));
    return Combinators.combine(gaps, permits, forced).as(Arrival::new).list();
  }
}
