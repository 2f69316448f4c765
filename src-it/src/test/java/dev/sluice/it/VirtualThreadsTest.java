package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.support.Hits;
import dev.sluice.it.support.Jvm;
import dev.sluice.it.support.Postgres;
import dev.sluice.it.support.Servers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * 5,000 virtual threads through a pool of 10 with the flag open: no pinning in Sluice's code, and
 * the database still takes no more than the budget. Runs in a child JVM of Java 21 or later: this
 * JVM if it is one, else the JDK that {@code IT_SLUICE_JAVA21_HOME} names; without either it is
 * skipped, saying why.
 */
class VirtualThreadsTest {
  static final String JAVA21_VARIABLE = "IT_SLUICE_JAVA21_HOME";
  private static final double BUDGET = 300;
  private static final int BURST = 15;
  private static final int THREADS = 5_000;
  private static final int POOL = 10;
  private static final long DURATION_MILLIS = 4_000;
  private static final double LAG_ALLOWANCE = 0.05 * BUDGET;

  @Test
  void fiveThousandVirtualThreads_flagOpen_noPinningInSluice_andRateHolds() throws Exception {
    Path java = java21();
    Postgres pg = Servers.postgres();
    Hits.create(pg);
    int run = Hits.newRun();
    String result;
    List<String> output;
    try (Jvm worker = Jvm.start("virtual-threads", java, VirtualThreadWorker.class,
        List.of("-Djdk.tracePinnedThreads=full"),
        List.of(pg.jdbcUrl(), "" + run, "" + BUDGET, "" + BURST, "" + THREADS, "" + POOL,
            "" + DURATION_MILLIS))) {
      result = worker.awaitLine("RESULT", Duration.ofMillis(DURATION_MILLIS + 60_000));
      assertThat(worker.awaitExit(Duration.ofSeconds(30))).as(worker.stderrTail()).isZero();
      output = worker.allLines();
    }

    List<Long> perSecond = Hits.perSecond(pg, run);
    Hits.Span span = Hits.span(pg, run);
    System.out.printf(Locale.ROOT, "[figures] %d virtual threads, pool %d, budget %.0f/s burst %d:"
        + " DB rows per second %s; %d rows in %.2f s = %.1f rows/s; %s%n", THREADS, POOL, BUDGET,
        BURST, perSecond, span.rows(), span.seconds(), span.rate(), result);
    assertThat(result).as("worker output:\n%s", String.join("\n", output))
        .contains("unexpected=0").contains("pinnedOurs=0");
    assertThat(output).as("pinned stacks through Sluice (jdk.tracePinnedThreads)")
        .noneMatch(line -> line.contains("dev.sluice.") && !line.contains("dev.sluice.it.")
            && line.contains("<== monitors"));
    assertThat(perSecond).allSatisfy(rows ->
        assertThat((double) rows).isLessThanOrEqualTo(BUDGET + BURST + LAG_ALLOWANCE));
    // the floor catches a starved or halved rate (150/s), not the load of the machine: 5,000
    // virtual threads on 2 cores with two busy threads beside them drew 254 rows/s (0.85x
    // failed there); at a load of 23 (a drill beside a fresh clone's CI) 200 rows/s (0.7x failed)
    assertThat(Hits.interiorMean(perSecond)).as("rows per whole second")
        .isGreaterThanOrEqualTo(0.6 * BUDGET);
  }

  /** A {@code java} of release 21 or later, or the test is skipped with the reason. */
  private static Path java21() {
    if (Runtime.version().feature() >= 21) {
      return Path.of(System.getProperty("java.home"), "bin", "java");
    }
    String home = System.getenv(JAVA21_VARIABLE);
    if (home == null || home.isBlank()) {
      String reason = "virtual threads need Java 21+: this JVM is " + Runtime.version().feature()
          + " and " + JAVA21_VARIABLE + " names no newer JDK";
      Assumptions.abort(reason); // TestOutput prints the reason in the build log
    }
    Path java = Path.of(home, "bin", "java");
    Assumptions.assumeTrue(Files.isExecutable(java), JAVA21_VARIABLE + " has no bin/java: " + home);
    return java;
  }
}
