package dev.sluice.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The test of "slower, or crowded?" on windows given by hand: a full gate at a cap of 40 with a
 * crowding of 4 is the reference; the cap is then halved and the crowding of the last two windows
 * decides.
 */
class SlowerOrCrowdedTest {
  private final SlowerOrCrowded test = new SlowerOrCrowded(2, 16);

  /** Two full windows at 40: the first is skipped, the second becomes the reference. */
  private void referenceAt40(double crowding) {
    assertThat(test.factor(true, 40, crowding)).isEqualTo(1);
    assertThat(test.factor(true, 40, crowding)).isEqualTo(1);
  }

  /** The cut to 30 and then to 20, the crowding read in each window: the factor at 20. */
  private double halvedTo(double at30, double at20) {
    assertThat(test.factor(true, 30, at30)).isEqualTo(1);
    return test.factor(true, 20, at20);
  }

  @Test
  void crowdingThatHalvesWithTheCap_isOurs() {
    referenceAt40(4);
    assertThat(halvedTo(2, 2)).isEqualTo(1);
  }

  @Test
  void crowdingThatStaysWhereItWas_isAllTheDatabases() {
    referenceAt40(4);
    assertThat(halvedTo(4, 4)).isCloseTo(4, within(1e-9));
  }

  @Test
  void crowdingOfWhichMoreThanSevenTenthsStayed_isAllTheDatabases() {
    referenceAt40(4);
    assertThat(halvedTo(3, 3)).isCloseTo(3, within(1e-9));
  }

  @Test
  void crowdingOfWhichLessThanSevenTenthsStayed_isOurs() {
    referenceAt40(4);
    assertThat(halvedTo(2.6, 2.6)).isEqualTo(1);
  }

  @Test
  void crowdingBelowTheTolerance_isNeverRescaled() {
    referenceAt40(1.9);
    assertThat(halvedTo(1.9, 1.9)).isEqualTo(1);
  }

  @Test
  void aClippedReference_followsTheCapDownUntilItCanShowAFall() {
    referenceAt40(16); // clipped: it could not show a fall from 32 to 16
    assertThat(test.factor(true, 30, 12)).isEqualTo(1); // the reference is now this one
    assertThat(test.factor(true, 20, 12)).isEqualTo(1); // more than half of 30
    assertThat(test.factor(true, 15, 12)).isCloseTo(12, within(1e-9));
  }

  @Test
  void aGateWithRoom_dropsTheReference() {
    referenceAt40(4);
    assertThat(test.factor(true, 30, 4)).isEqualTo(1);
    assertThat(test.factor(false, 20, 4)).isEqualTo(1);
    assertThat(test.factor(true, 20, 4)).isEqualTo(1); // the first full window again: skipped
    assertThat(test.factor(true, 10, 4)).isEqualTo(1); // not tested against 40: the reference
  }
}
