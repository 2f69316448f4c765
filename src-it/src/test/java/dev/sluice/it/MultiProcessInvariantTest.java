package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.support.Hits;
import dev.sluice.it.support.Jvm;
import dev.sluice.it.support.Postgres;
import dev.sluice.it.support.Redis;
import dev.sluice.it.support.Servers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The promise, counted where it is true: three application JVMs, each with its own pool and
 * threads, share one budget, and PostgreSQL's own clock says how many rows it took per second.
 */
class MultiProcessInvariantTest {
  private static final double BUDGET = 300;
  private static final int BURST = 10;
  private static final int PROCESSES = 3;
  private static final int THREADS = 4;
  private static final int POOL = 4;
  private static final long DURATION_MILLIS = 8_000;
  /**
   * Admission happens in the application, the timestamp in the database a moment later: a
   * permit taken at the end of one second can land in the next. 5% of the budget covers that lag.
   */
  private static final double LAG_ALLOWANCE = 0.05 * BUDGET;

  @Test
  void threeProcesses_staticShare_databaseTakesTheBudgetAndNoMore() throws Exception {
    Postgres pg = Servers.postgres();
    Hits.create(pg);
    int run = Hits.newRun();
    List<String> results = runWorkers(pg, run, 3, List.of("sluice.instances=3"), null);

    assertWithinBudgetAndNotStarved(pg, run, results);
  }

  @Test
  void threeProcesses_redisRegistryStoppedHalfway_budgetStaysDividedNotCopied() throws Exception {
    Postgres pg = Servers.postgres();
    Hits.create(pg);
    int run = Hits.newRun();
    try (Redis redis = Redis.startEmbedded()) {
      List<String> results = runWorkers(pg, run, 3,
          List.of("sluice.instances=redis", "sluice.redis=" + redis.uri()), redis);

      assertWithinBudgetAndNotStarved(pg, run, results);
    }
  }

  /** Starts the workers, lets them go together, stops {@code redis} halfway if given. */
  private static List<String> runWorkers(Postgres pg, int run, double expectedInstances,
      List<String> settings, Redis redisToStop) throws Exception {
    List<Jvm> workers = new ArrayList<>();
    try {
      for (int w = 1; w <= PROCESSES; w++) {
        List<String> args = new ArrayList<>(List.of(pg.jdbcUrl(), "" + run, "" + w, "" + THREADS,
            "" + POOL, "" + DURATION_MILLIS, "" + expectedInstances,
            "sluice.name=it-processes-" + run, "sluice.budget=" + BUDGET,
            "sluice.burst=" + BURST, "sluice.flag=always"));
        args.addAll(settings);
        workers.add(Jvm.start("worker-" + w, LoadWorker.class, List.of(), args));
      }
      for (Jvm worker : workers) {
        assertThat(worker.awaitLine("READY", Duration.ofSeconds(60)))
            .as("%s settled on its share", worker.label())
            .isEqualTo("READY instances=" + expectedInstances);
      }
      workers.forEach(w -> w.send("GO"));
      if (redisToStop != null) {
        Thread.sleep(DURATION_MILLIS / 2);
        redisToStop.stop();
      }
      List<String> results = new ArrayList<>();
      for (Jvm worker : workers) {
        String result = worker.awaitLine("RESULT", Duration.ofMillis(DURATION_MILLIS + 30_000));
        results.add(result);
        assertThat(worker.awaitExit(Duration.ofSeconds(20))).as(worker.stderrTail()).isZero();
      }
      return results;
    } finally {
      workers.forEach(Jvm::close);
    }
  }

  private static void assertWithinBudgetAndNotStarved(Postgres pg, int run, List<String> results) {
    for (String result : results) {
      assertThat(result).as("a worker met an error other than a refusal").contains("unexpected=0");
    }
    List<Long> perSecond = Hits.perSecond(pg, run);
    Hits.Span span = Hits.span(pg, run);
    System.out.printf(Locale.ROOT, "[figures] %d processes, budget %.0f/s, burst %d each:"
        + " DB rows per second %s; %d rows in %.2f s = %.1f rows/s%n  %s%n", PROCESSES, BUDGET,
        BURST, perSecond, span.rows(), span.seconds(), span.rate(), String.join("\n  ", results));

    double perSecondCap = BUDGET + PROCESSES * BURST + LAG_ALLOWANCE;
    assertThat(perSecond).as("rows per second, first and last partial seconds included")
        .allSatisfy(rows -> assertThat((double) rows).isLessThanOrEqualTo(perSecondCap));
    assertThat((double) span.rows()).as("rows over the run")
        .isLessThanOrEqualTo(BUDGET * span.seconds() + PROCESSES * BURST + LAG_ALLOWANCE);
    long inserted = sum(results, "inserted");
    long rejected = sum(results, "rejected");
    if (rejected >= inserted) { // the threads asked at least twice what was admitted
      assertThat(span.rate()).as("the limiter does not starve the database (%d refused)",
          rejected).isGreaterThanOrEqualTo(0.85 * BUDGET);
    } else { // a busy machine stalled the threads: they did not ask for more than was admitted
      System.out.printf(Locale.ROOT, "[figures] the floor not judged: %d refused, %d inserted%n",
          rejected, inserted);
    }
  }

  /** The sum of {@code key=} over the workers' RESULT lines. */
  private static long sum(List<String> results, String key) {
    long total = 0;
    for (String result : results) {
      for (String field : result.split(" ")) {
        if (field.startsWith(key + "=")) {
          total += Long.parseLong(field.substring(key.length() + 1));
        }
      }
    }
    return total;
  }
}
