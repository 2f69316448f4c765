package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict on what a run offered, on seconds made up for each case. */
class OfferCheckTest {

  private static DrillOptions options(String... args) {
    return DrillOptions.parse(args, Path.of("target", "unused.svg"));
  }

  /** A second that offered {@code reads} and {@code writes}, the generator {@code behind} late. */
  private static Recorder.Second second(int t, long reads, long writes, double behindMillis) {
    return new Recorder.Second(t, reads, reads, 0, 0, 0, 0, 0,
        new Recorder.Fates(reads, 0, 0, 0, 0), 0, 0, 1, 1, false, false, writes,
        writes, 0, behindMillis);
  }

  private static List<Recorder.Second> steady(int seconds, long reads, double behindMillis) {
    List<Recorder.Second> rows = new ArrayList<>();
    for (int t = 0; t < seconds; t++) {
      rows.add(second(t, reads, 0, behindMillis));
    }
    return rows;
  }

  @Test
  void problems_loadKeptWithinTheMargins_none() {
    List<Recorder.Second> rows = steady(10, 20_000, 40);
    rows.set(3, second(3, 16_100, 0, 480)); // 19.5% short, 480 ms behind: a busy machine
    rows.set(4, second(4, 23_900, 0, 12));

    assertThat(OfferCheck.problems(rows, options("--load", "20000"))).isEmpty();
  }

  @Test
  void problems_aSecondWithoutReads_namesTheSecondAndWhatItOffered() {
    List<Recorder.Second> rows = steady(10, 20_000, 5);
    rows.set(4, second(4, 0, 0, 5));

    assertThat(OfferCheck.problems(rows, options("--load", "20000"))).containsExactly(
        "second 4 offered 0 reads instead of 20,000 (100% off; the margin is 20%)");
  }

  @Test
  void problems_generatorBehindInsideOneSecond_isInvalidEvenIfEveryCountIsRight() {
    List<Recorder.Second> rows = steady(10, 20_000, 5);
    rows.set(6, second(6, 20_000, 0, 900));

    assertThat(OfferCheck.problems(rows, options("--load", "20000"))).containsExactly(
        "the load generator fell 900 ms behind its schedule in second 6 (the limit is 500 ms):"
            + " what was due meanwhile arrived at once");
  }

  @Test
  void problems_alternatingZeroAndBursts_listsFiveSecondsAndCountsTheRest() {
    List<Recorder.Second> rows = new ArrayList<>();
    for (int t = 0; t < 20; t++) {
      rows.add(second(t, t % 2 == 0 ? 0 : 40_000, 0, 1_000));
    }

    List<String> problems = OfferCheck.problems(rows, options("--load", "20000"));

    assertThat(problems).hasSize(7);
    assertThat(problems.get(5)).isEqualTo("... and 15 more seconds off their reads");
    assertThat(problems.get(6)).startsWith("the load generator fell 1,000 ms behind");
  }

  @Test
  void problems_criticalWritesShort_areCheckedToo() {
    List<Recorder.Second> rows = steady(5, 2_000, 5);
    for (int t = 0; t < 5; t++) {
      rows.set(t, second(t, 2_000, t == 2 ? 30 : 50, 5));
    }

    assertThat(OfferCheck.problems(rows, options("--load", "2000", "--critical-writes", "50")))
        .containsExactly("second 2 offered 30 CRITICAL writes instead of 50 (40% off; the margin"
            + " is 20%)");
  }

  @Test
  void problems_oneReadPerSecond_toleratesTheReadThatLandsInTheNextSecond() {
    List<Recorder.Second> rows = new ArrayList<>();
    rows.add(second(0, 0, 0, 0));
    rows.add(second(1, 2, 0, 3));
    rows.add(second(2, 1, 0, 0));

    assertThat(OfferCheck.problems(rows, options("--load", "1"))).isEmpty();
  }

  @Test
  void lateness_eventsDueAndOffered_measuresTheOldestUnoffered() {
    // 1,000/s from 0: event 0 is due at 1 ms, event 5 at 6 ms
    assertThat(Run.lateness(0, 10_000_000L, 5, 10, 1000)).isEqualTo(4_000_000L);
    assertThat(Run.lateness(0, 10_000_000L, 10, 10, 1000)).isZero();
    assertThat(Run.lateness(0, 10_000_000L, 0, 0, 0)).as("no writes scheduled").isZero();
  }
}
