package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Water-filling against hand-computed cases (issue 15, item 1). */
class FairSharesTest {
  private static final double EPS = 1e-9;

  @Test
  void divide_busiestAboveTheLevel_quietOnesMetInFullAndTheRestSplitByTheBusy() {
    // level 100/3 = 33.3: 20 met; 80 left for two, level 40: both want more, both get 40
    assertThat(FairShares.divide(100, new double[] {20, 60, 120}))
        .containsExactly(new double[] {20, 40, 40}, within(EPS));
  }

  @Test
  void divide_loads6to3to1AtTheBudget_eachGetsItsDemand() {
    assertThat(FairShares.divide(1000, new double[] {600, 300, 100}))
        .containsExactly(new double[] {600, 300, 100}, within(EPS));
  }

  @Test
  void divide_everyDemandBelowItsLevel_spareHandedBackEvenly() {
    // 60 wanted, 40 spare: 13.33 more each
    assertThat(FairShares.divide(100, new double[] {10, 20, 30}))
        .containsExactly(new double[] {10 + 40.0 / 3, 20 + 40.0 / 3, 30 + 40.0 / 3}, within(EPS));
  }

  @Test
  void divide_oneInstanceHasAllTheDemand_itTakesAllButTheOthersFloors() {
    double floor = FairShares.FLOOR * 100 / 3; // 1.67
    assertThat(FairShares.divide(100, new double[] {0, 0, 500}))
        .containsExactly(new double[] {floor, floor, 100 - 2 * floor}, within(EPS));
  }

  @Test
  void divide_everyInstanceIdle_isTheEqualDivision() {
    assertThat(FairShares.divide(90, new double[] {0, 0, 0}))
        .containsExactly(new double[] {30, 30, 30}, within(EPS));
  }

  @Test
  void divide_unreadableOrNegativeDemand_countsAsNone() {
    assertThat(FairShares.divide(90, new double[] {Double.NaN, -5, 0}))
        .containsExactly(new double[] {30, 30, 30}, within(EPS));
  }

  @Test
  void divide_oneInstance_takesTheWholeBudget() {
    assertThat(FairShares.divide(50, new double[] {3})).containsExactly(50);
  }

  @Test
  void divide_anyDemands_sumToTheBudgetAndNoneBelowItsDemandOrTheLevel() {
    Random random = new Random(15);
    for (int round = 0; round < 2_000; round++) {
      int n = 1 + random.nextInt(12);
      double budget = 1 + random.nextDouble() * 10_000;
      double[] demands = new double[n];
      Arrays.setAll(demands, i -> random.nextBoolean() ? 0 : random.nextDouble() * budget);
      double[] shares = FairShares.divide(budget, demands);

      assertThat(Arrays.stream(shares).sum()).isCloseTo(budget, within(budget * 1e-9));
      double least = Arrays.stream(shares).min().orElseThrow();
      for (int i = 0; i < n; i++) {
        // max-min fair: an instance short of its demand is never below anyone else
        if (shares[i] < demands[i] - 1e-6) {
          assertThat(shares[i]).isGreaterThanOrEqualTo(least - 1e-6);
          assertThat(shares[i]).isCloseTo(Arrays.stream(shares).max().orElseThrow(),
              within(1e-6));
        }
      }
    }
  }
}
