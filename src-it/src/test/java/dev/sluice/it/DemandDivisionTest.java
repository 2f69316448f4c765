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
 * {@code sluice.instances.division} (issue 15, item 1), counted by the database: three
 * application JVMs with offered loads 6:3:1 (216, 108 and 36 calls/s: 1.2 × the budget), one
 * embedded Redis, PostgreSQL stamping each row.
 *
 * <p>With {@code equal}, each takes 100/s: 100 + 100 + 36 = 236/s reach the database (79 %) while
 * the two busy ones refuse. With {@code demand}, water-filling gives 36, 108 and the 156 left:
 * the whole budget.
 *
 * <p>Bounds on each second at the database: the budget, plus the bursts (100 ms of each share:
 * at most 10 % of the budget plus one permit each), plus 5 % for the lag between admission and
 * the row's timestamp; during a join, plus the newcomer's first share, budget /
 * {@code sluice.instances.assumed} (it counts itself before the others have seen it; it then
 * grows only into what the others' published shares leave).
 */
class DemandDivisionTest {
  private static final double BUDGET = 300;
  private static final double[] RATES = {216, 108, 36};
  private static final int THREADS = 4;
  private static final int ASSUMED = 10;
  private static final long CONVERGE_MILLIS = 3_000;
  private static final double BURSTS = 0.1 * BUDGET + RATES.length;
  private static final double LAG = 0.05 * BUDGET;

  @Test
  void loads6to3to1_demandTakesNearlyAllTheBudget_equalLeavesAFifth() throws Exception {
    Postgres pg = Servers.postgres();
    Hits.create(pg);
    try (Redis redis = Redis.startEmbedded()) {
      double equal = steadyRate(pg, redis, "equal", new double[1]);
      double[] offered = new double[1];
      double demand = steadyRate(pg, redis, "demand", offered);
      System.out.printf(Locale.ROOT, "[figures] loads 6:3:1 at 1.2 x a budget of %.0f/s:"
          + " median second once converged: equal division %.1f/s reach the database (%.0f %%), demand division %.1f/s"
          + " (%.0f %%), of %.1f/s the workers offered%n", BUDGET, equal, 100 * equal / BUDGET,
          demand, 100 * demand / BUDGET, offered[0]);
      // a busy machine may fall behind the offered load: the whole budget is owed only when
      // the workers asked for it
      assertThat(demand).as("rows/s with demand division, the busiest refusing")
          .isGreaterThanOrEqualTo(0.9 * Math.min(BUDGET, offered[0]));
      assertThat(equal).as("rows/s with equal division").isLessThan(0.85 * BUDGET);
    }
  }

  /**
   * Three workers together for 8 s; the database's rate once the shares converged. Sets
   * {@code offered[0]} to the calls per second the workers made, admitted or refused.
   */
  private static double steadyRate(Postgres pg, Redis redis, String division, double[] offered)
      throws Exception {
    int run = Hits.newRun();
    List<Jvm> workers = new ArrayList<>();
    try {
      for (int w = 0; w < RATES.length; w++) {
        workers.add(worker(pg, redis, run, w, 8_000, division));
      }
      ready(workers);
      long go = System.currentTimeMillis();
      workers.forEach(w -> w.send("GO"));
      List<String> results = results(workers, 8_000);
      assertPerSecondWithin(pg, run, BUDGET + BURSTS + LAG, division + " " + results);
      offered[0] = offeredPerSecond(results);
      return medianSecond(pg, run, go + CONVERGE_MILLIS, 4);
    } finally {
      workers.forEach(Jvm::close);
    }
  }

  /** The calls per second the workers made (admitted or refused), each over its own run. */
  private static double offeredPerSecond(List<String> results) {
    double total = 0;
    for (String result : results) {
      long calls = field(result, "inserted") + field(result, "rejected");
      total += calls * 1000.0 / Math.max(1, field(result, "to") - field(result, "from"));
    }
    return total;
  }

  private static long field(String result, String key) {
    for (String field : result.split(" ")) {
      if (field.startsWith(key + "=")) {
        return Long.parseLong(field.substring(key.length() + 1));
      }
    }
    throw new AssertionError("no " + key + "= in " + result);
  }

  /**
   * The median of {@code seconds} whole seconds from {@code from}: a second lost to the loaded
   * build machine (a pause of every JVM at once) does not count against either division.
   */
  private static double medianSecond(Postgres pg, int run, long from, int seconds) {
    long[] rows = new long[seconds];
    for (int i = 0; i < seconds; i++) {
      rows[i] = Hits.between(pg, run, from + i * 1000L, from + (i + 1) * 1000L);
    }
    java.util.Arrays.sort(rows);
    return (rows[(seconds - 1) / 2] + rows[seconds / 2]) / 2.0;
  }

  @Test
  void joinsAndLeaves_demandDivision_noSecondAboveTheBudgetBurstsAndTheNewcomersShare()
      throws Exception {
    Postgres pg = Servers.postgres();
    Hits.create(pg);
    int run = Hits.newRun();
    try (Redis redis = Redis.startEmbedded()) {
      List<Jvm> workers = new ArrayList<>();
      try {
        workers.add(worker(pg, redis, run, 0, 12_000, "demand"));
        workers.add(worker(pg, redis, run, 1, 7_000, "demand")); // leaves first
        ready(workers);
        workers.forEach(w -> w.send("GO"));
        Thread.sleep(2_000);
        Jvm late = worker(pg, redis, run, 2, 7_000, "demand"); // joins while they refuse
        workers.add(late);
        ready(List.of(late));
        late.send("GO");
        List<String> results = results(workers, 14_000);

        double cap = BUDGET + BURSTS + LAG + BUDGET / ASSUMED;
        long worst = assertPerSecondWithin(pg, run, cap, String.join("\n  ", results));
        System.out.printf(Locale.ROOT, "[figures] joins and leaves, demand division: worst"
            + " second at the database %d rows (budget %.0f, bound %.0f)%n", worst, BUDGET, cap);
      } finally {
        workers.forEach(Jvm::close);
      }
    }
  }

  @Test
  void redisKilledHalfway_demandDivision_totalStaysWithinTheBudget() throws Exception {
    Postgres pg = Servers.postgres();
    Hits.create(pg);
    int run = Hits.newRun();
    try (Redis redis = Redis.startEmbedded()) {
      List<Jvm> workers = new ArrayList<>();
      try {
        for (int w = 0; w < RATES.length; w++) {
          workers.add(worker(pg, redis, run, w, 8_000, "demand"));
        }
        ready(workers);
        workers.forEach(w -> w.send("GO"));
        Thread.sleep(4_000);
        redis.stop();
        List<String> results = results(workers, 8_000);

        long worst = assertPerSecondWithin(pg, run, BUDGET + BURSTS + LAG,
            String.join("\n  ", results));
        Hits.Span span = Hits.span(pg, run);
        assertThat((double) span.rows()).as("rows over the run")
            .isLessThanOrEqualTo(BUDGET * span.seconds() + BURSTS + LAG);
        System.out.printf(Locale.ROOT, "[figures] Redis killed halfway, demand division: worst"
            + " second %d rows, %.1f rows/s over the run (budget %.0f)%n", worst, span.rate(),
            BUDGET);
      } finally {
        workers.forEach(Jvm::close);
      }
    }
  }

  private static Jvm worker(Postgres pg, Redis redis, int run, int w, long millis,
      String division) {
    return Jvm.start("demand-" + w, DemandWorker.class, List.of(), List.of(pg.jdbcUrl(),
        "" + run, "" + (w + 1), "" + THREADS, "" + millis, "" + RATES[w],
        "sluice.name=it-demand-" + run, "sluice.budget=" + BUDGET, "sluice.flag=always",
        "sluice.instances=redis", "sluice.redis=" + redis.uri(),
        "sluice.instances.division=" + division, "sluice.instances.assumed=" + ASSUMED,
        "sluice.redis.heartbeat=250ms", "sluice.instances.expiry=1500ms"));
  }

  private static void ready(List<Jvm> workers) {
    for (Jvm worker : workers) {
      assertThat(worker.awaitLine("READY", Duration.ofSeconds(60))).as(worker.label())
          .isNotNull();
    }
  }

  private static List<String> results(List<Jvm> workers, long millis) throws Exception {
    List<String> results = new ArrayList<>();
    for (Jvm worker : workers) {
      String result = worker.awaitLine("RESULT", Duration.ofMillis(millis + 30_000));
      assertThat(result).as(worker.stderrTail()).contains("unexpected=0");
      results.add(result);
      assertThat(worker.awaitExit(Duration.ofSeconds(20))).as(worker.stderrTail()).isZero();
    }
    return results;
  }

  /** Every second at the database, the partial first and last included, is within {@code cap}. */
  private static long assertPerSecondWithin(Postgres pg, int run, double cap, String about) {
    List<Long> perSecond = Hits.perSecond(pg, run);
    System.out.printf(Locale.ROOT, "[figures] rows per second %s%n  %s%n", perSecond, about);
    assertThat(perSecond).as("rows per second").isNotEmpty()
        .allSatisfy(rows -> assertThat((double) rows).isLessThanOrEqualTo(cap));
    return perSecond.stream().mapToLong(Long::longValue).max().orElse(0);
  }
}
