package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The cache model on explicit timestamps: no clock, no threads. */
class SimulatedCacheTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long T0 = -5 * SECOND; // nanoTime may be negative

  private static SimulatedCache cache(int keys, double skew, int ttlSeconds) {
    return new SimulatedCache(keys, skew, ttlSeconds * SECOND, T0);
  }

  @Test
  void popularity_zipf_followsOneOverKToTheSkewAndSumsToOne() {
    SimulatedCache cache = cache(1000, 1.4, 30);

    double sum = 0;
    for (int k = 0; k < cache.keys(); k++) {
      sum += cache.popularity(k);
    }
    assertThat(sum).isCloseTo(1, within(1e-9));
    assertThat(cache.popularity(0) / cache.popularity(9)).isCloseTo(Math.pow(10, 1.4),
        within(1e-6));
    assertThat(cache(100, 0, 30).popularity(57)).isCloseTo(0.01, within(1e-12));
  }

  @Test
  void key_uniformDraws_fallOnKeysInProportionToTheirPopularity() {
    SimulatedCache cache = cache(1000, 1.4, 30);
    int draws = 1_000_000;
    int[] counts = new int[cache.keys()];

    for (int i = 0; i < draws; i++) {
      counts[cache.key((i + 0.5) / draws)]++; // an even grid over [0, 1): exact inverse transform
    }

    for (int k : new int[] {0, 1, 9, 99}) {
      assertThat(counts[k] / (double) draws).as("key " + k)
          .isCloseTo(cache.popularity(k), within(2.0 / draws));
    }
    assertThat(cache.key(0)).isZero();
    assertThat(cache.key(Math.nextDown(1.0))).isEqualTo(cache.keys() - 1);
  }

  @Test
  void get_entryStoredByPut_hitsUntilItsTtlEnds() {
    SimulatedCache cache = cache(10, 1, 30);
    long now = T0 + 2 * SECOND;

    assertThat(cache.get(3, now)).isFalse();
    cache.put(3, now);

    assertThat(cache.get(3, now)).isTrue();
    assertThat(cache.get(3, now + 30 * SECOND - 1)).isTrue();
    assertThat(cache.get(3, now + 30 * SECOND)).isFalse();
    assertThat(cache.get(4, now)).isFalse();
  }

  @Test
  void fail_cacheDown_answersAndStoresNothing() {
    SimulatedCache cache = cache(10, 1, 30);
    cache.put(1, T0);

    cache.fail();
    cache.put(2, T0);

    assertThat(cache.isUp()).isFalse();
    assertThat(cache.get(1, T0)).isFalse();
    cache.restore(false);
    assertThat(cache.get(1, T0)).isTrue();
    assertThat(cache.get(2, T0)).as("stored while down").isFalse();
  }

  @Test
  void restore_empty_comesBackWithNoEntry() {
    SimulatedCache cache = cache(10_000, 1.4, 30);
    cache.warmUp(20_000, T0, 42);
    assertThat(cache.size(T0)).isPositive();

    cache.fail();
    cache.restore(true);

    assertThat(cache.isUp()).isTrue();
    assertThat(cache.size(T0)).isZero();
    assertThat(cache.get(0, T0)).isFalse();
  }

  @Test
  void restore_warm_keepsEveryEntry() {
    SimulatedCache cache = cache(10_000, 1.4, 30);
    cache.warmUp(20_000, T0, 42);
    int before = cache.size(T0);

    cache.fail();
    cache.restore(false);

    assertThat(cache.size(T0)).isEqualTo(before);
  }

  @Test
  void warmUp_steadyState_holdsTheHotKeysAndAnswersTheModelsHitRatio() {
    SimulatedCache cache = cache(10_000, 1.4, 30);
    cache.warmUp(20_000, T0, 42);

    // the drill's default: 99% of reads answered, 1% left for the database
    assertThat(cache.steadyHitRatio(20_000)).isCloseTo(0.99, within(0.002));
    assertThat(cache.get(0, T0)).isTrue();
    assertThat(cache.get(9, T0)).isTrue();
    double answered = 0;
    for (int k = 0; k < cache.keys(); k++) {
      answered += cache.get(k, T0) ? cache.popularity(k) : 0;
    }
    assertThat(answered).isCloseTo(cache.steadyHitRatio(20_000), within(0.005));
  }

  @Test
  void answerCeiling_isWhatAStoreOfTheAdmittedReadsAnswers_simulatedReadByRead() {
    SimulatedCache cache = cache(10_000, 1.4, 30);
    // one of the drill's four instances: 5,000 reads/s, 125 admitted, a 4 s outage, max-age 5 s
    double model = cache.answerCeiling(5_000, 125, 4, 5);
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    double[] keptAt = new double[cache.keys()];
    int outages = 20; // the hottest keys' first admission sways one outage by a point or two
    int reads = 4 * 5_000;
    long answered = 0;
    for (int outage = 0; outage < outages; outage++) {
      java.util.Arrays.fill(keptAt, Double.NEGATIVE_INFINITY); // the store starts empty
      for (int i = 0; i < reads; i++) {
        double t = i / 5_000.0;
        int key = cache.key(random.nextDouble());
        if (random.nextDouble() < 125.0 / 5_000) {
          keptAt[key] = t; // admitted: the database answers, its result is kept
          answered++;
        } else if (t - keptAt[key] <= 5) {
          answered++; // refused, and answered from the kept result
        }
      }
    }

    assertThat((double) answered / reads / outages).isCloseTo(model, within(0.005));
    assertThat(model).isCloseTo(0.786, within(0.005)); // the drill's per-instance bound
    assertThat(cache.answerCeiling(20_000, 500, 4, 5)).as("one store for the whole budget")
        .isCloseTo(0.863, within(0.005));
    assertThat(cache.answerCeiling(5_000, 5_000, 4, 5)).as("everything admitted").isEqualTo(1);
    assertThat(cache.answerCeiling(5_000, 125, 40, 5)).as("a long outage: steady state")
        .isGreaterThan(model);
  }

  @Test
  void warmUp_entries_expireSpreadOverTheTtlNotAllAtOnce() {
    SimulatedCache cache = cache(10_000, 1.4, 30);
    cache.warmUp(20_000, T0, 42);
    int full = cache.size(T0);

    int half = cache.size(T0 + 15 * SECOND);

    assertThat(half).isBetween(full * 4 / 10, full * 6 / 10);
    assertThat(cache.size(T0 + 30 * SECOND)).isZero();
  }
}
