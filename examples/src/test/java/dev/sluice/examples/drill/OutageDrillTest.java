package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import redis.embedded.RedisServer;

/** Runs the drill with short settings and reads the chart it draws. */
class OutageDrillTest {

  private static final String SVG = "http://www.w3.org/2000/svg";

  @TempDir
  Path dir;

  /** 2,000 reads/s, a 2 s outage from 1 s, then 2 s of recovery; two instances of 10 threads. */
  private DrillOptions shortScenario(String... more) {
    String[] base = {"--load", "2000", "--budget", "100", "--outage-start", "1",
        "--outage-length", "2", "--duration", "5", "--instances", "2", "--threads", "10",
        "--keys", "2000", "--skew", "1.0"};
    String[] args = Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return DrillOptions.parse(args, dir);
  }

  /**
   * Plays the drill; a run the machine was too busy to drive ({@link OfferCheck}) is played again,
   * up to three times: its figures would test the machine, not Sluice.
   */
  private static Summary[] drill(DrillOptions options, PrintStream out) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return OutageDrill.drill(options, out);
      } catch (OutageDrill.InvalidRunException e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
  }

  @Test
  void run_generatorStalls_isInvalidExitsThreeAndPrintsNoHeadline() {
    Path chart = dir.resolve("stalled.svg");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    // the generator stops for 1.5 s once it has run for 1.2 s: second 1 offers a fraction of its
    // reads, second 2 the rest in a burst
    LongConsumer stallOnce = new LongConsumer() {
      private long first;
      private boolean stalled;

      @Override
      public void accept(long tickNanos) {
        long now = System.nanoTime();
        first = first == 0 ? now : first;
        if (!stalled && now - first > 1_200_000_000L) {
          stalled = true;
          LockSupport.parkNanos(1_500_000_000L);
        } else {
          LockSupport.parkNanos(tickNanos);
        }
      }
    };
    String[] args = {"--load", "2000", "--budget", "100", "--outage-start", "1",
        "--outage-length", "2", "--duration", "5", "--instances", "2", "--threads", "10",
        "--keys", "2000", "--skew", "1.0", "--out", chart.toString()};

    int code = OutageDrill.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), stallOnce);

    String printed = out.toString(StandardCharsets.UTF_8);
    String error = err.toString(StandardCharsets.UTF_8);
    assertThat(code).isEqualTo(3);
    assertThat(error).startsWith("error: run 1 (without Sluice) is INVALID")
        .containsPattern("the load generator fell 1,[3-9]\\d\\d ms behind its schedule")
        .containsPattern("second [12] offered [\\d,]+ reads instead of 2,000")
        .contains("No headline, no chart.");
    assertThat(printed).contains("Run 1 of 3: without Sluice")
        .doesNotContain("Run 2 of 3", "While the cache was down", "Chart:", "Every run offered");
    assertThat(chart).doesNotExist();
    // the table still has one row per second, the stalled ones included
    for (int t = 0; t < 5; t++) {
      String row = t + " ";
      assertThat(printed.lines().filter(l -> l.matches(" +\\d+ .*") && l.trim()
          .startsWith(row))).as("rows of second %d in%n%s", t, printed).hasSize(1);
    }
  }

  @Test
  void drill_shortScenario_writesSvgWithBothSeriesAndCapsTheDatabaseThroughBothWaves()
      throws Exception {
    Path chart = dir.resolve("charts/drill.svg");
    DrillOptions options = shortScenario("--out", chart.toString());
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    Summary[] runs = drill(options, new PrintStream(printed, true, "UTF-8"));

    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("Run 1 of 3: without Sluice", "Run 2 of 3: with Sluice",
        "Run 3 of 3: Sluice answering (sluice.stale.max-age=5s, sluice.stale.share=true)", "While the cache was down",
        "After it came back empty, until warm again", "Chart: " + chart.toAbsolutePath());
    assertThat(chart).exists();
    Document svg = parse(chart);
    assertThat(svg.getDocumentElement().getLocalName()).isEqualTo("svg");
    assertThat(svg.getDocumentElement().getNamespaceURI()).isEqualTo(SVG);
    assertThat(values(svg, "series-without-sluice")).hasSize(5);
    assertThat(values(svg, "series-with-sluice")).hasSize(5);
    assertThat(byId(svg, "g", "budget-line")).isNotNull();
    assertThat(byId(svg, "g", "outage-window")).isNotNull();
    assertThat(byId(svg, "g", "second-wave")).isNotNull();
    // the cold seconds are each run's own; only the runs with Sluice keep limiting
    assertThat(byId(svg, "g", "recovery-window-without-sluice")).isNotNull();
    assertThat(byId(svg, "g", "recovery-window-with-sluice")).isNotNull();
    assertThat(byId(svg, "g", "sluice-hold-with-sluice")).isNotNull();
    assertThat(byId(svg, "g", "sluice-hold-without-sluice")).isNull();
    assertThat(values(svg, "latency-with-sluice")).hasSize(5);

    Summary without = runs[0];
    Summary with = runs[1];
    assertThat(without.failed()).isZero();
    assertThat(with.failed()).isZero();
    // 2,000 reads/s for 2 s fall on the database without Sluice; with it, 100/s plus the bursts
    // (wide bounds: this runs on real threads on a busy machine)
    assertThat(without.outage().peakDatabase()).isGreaterThan(1000);
    assertThat(with.outage().peakDatabase()).isBetween(25L, 180L);
    assertThat(with.outage().rejected()).isGreaterThan(1000);

    // the cache comes back empty and its misses go to the database: the model sends about 600 in
    // the first second back, six times the budget (the warm cache sent about 60)
    Recorder.Second withoutBack = without.seconds().get(options.outageEnd());
    assertThat(withoutBack.hitRatio()).isLessThan(0.9);
    assertThat(withoutBack.database()).isGreaterThan(3 * 100);
    // with Sluice the same misses meet the held cap: no second of the recovery above the budget
    // plus the bursts, and the misses beyond it refused (with no hold, --settle 0, about 600 got in)
    Recorder.Second withBack = with.seconds().get(options.outageEnd());
    assertThat(withBack.hitRatio()).isLessThan(0.9);
    assertThat(withBack.recovering()).isTrue();
    for (Recorder.Second s : with.seconds().subList(options.outageEnd(), options.duration)) {
      assertThat(s.database()).as("second " + s.t()).isLessThanOrEqualTo(180L);
    }
    assertThat(with.recovery().rejected()).isPositive();
    assertThat(text).contains("holds");

    // answering: the database as capped, and the reads it would refuse answered from results
    // at most 5 s old (the model: about a third of them here, 50 queries/s per instance over
    // 2,000 keys of skew 1.0; with Sluice refusing, a twentieth reach their users)
    Summary answering = runs[2];
    assertThat(answering.kind()).isEqualTo(RunKind.SLUICE_ANSWERS);
    assertThat(answering.failed()).as(String.valueOf(answering.firstFailure())).isZero();
    assertThat(answering.outage().peakDatabase()).isBetween(25L, 180L);
    assertThat(answering.outage().answered()).isPositive();
    assertThat(answering.outage().answeredShare()).as("answered share, against " + with.outage()
        .answeredShare()).isGreaterThan(with.outage().answeredShare() + 0.15);
    assertThat(answering.answerP99Millis()).isBetween(0L, 5_100L);
    assertThat(with.answerP99Millis()).isEqualTo(-1);
    assertThat(text).contains("Sluice answering: ", "reads answered instead of refused");
    // every read offered met one fate, counted in the second it was offered (the last seconds
    // may still have reads in the queues when the run ends)
    for (Summary run : new Summary[] {with, answering}) {
      for (Recorder.Second s : run.seconds().subList(0, 3)) {
        Recorder.Fates f = s.fates();
        assertThat(f.reachedUser() + f.refused() + f.timedOut()).as(run.label() + ", second "
            + s.t()).isEqualTo(s.offered());
      }
    }
    // a users panel per run, its bands by fate, its total the reads answered to users
    assertThat(values(svg, "users-sluice-answers")).hasSize(5);
    assertThat(values(svg, "users-with-sluice")).hasSize(5);
    assertThat(bandValues(svg, "users-sluice-sluice-answers")[1]).isPositive();
    assertThat(bandValues(svg, "users-sluice-with-sluice")[1]).isZero();
    assertThat(bandValues(svg, "users-refused-with-sluice")[1]).isPositive();
    assertThat(bandValues(svg, "users-timedout-without-sluice")).hasSize(5);
    assertThat(byId(svg, "g", "users-legend")).isNotNull();
  }

  /**
   * The short scenario on a real MariaDB ({@code --database}): the database held to its budget
   * through the outage, and the answering run answers what the refusing run refuses, through
   * MariaDB's own dialect. Runs only when {@code IT_SLUICE_MARIADB_URL} names a MariaDB.
   */
  @Test
  void drill_onMariaDb_capsTheDatabase_andAnswersFromItsOwnDialect() throws Exception {
    String url = System.getenv("IT_SLUICE_MARIADB_URL");
    org.junit.jupiter.api.Assumptions.assumeTrue(url != null && !url.isBlank(),
        "IT_SLUICE_MARIADB_URL names no MariaDB");
    DrillOptions options = shortScenario("--database", url, "--out",
        dir.resolve("maria.svg").toString());
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    Summary[] runs = drill(options, new PrintStream(printed, true, "UTF-8"));

    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("The database is MariaDB (--database)");
    Summary with = runs[1];
    Summary answering = runs[2];
    assertThat(with.failed()).isZero();
    assertThat(answering.failed()).as(String.valueOf(answering.firstFailure())).isZero();
    assertThat(with.outage().peakDatabase()).isBetween(25L, 180L);
    assertThat(answering.outage().peakDatabase()).isBetween(25L, 180L);
    assertThat(answering.outage().answeredShare()).as("answered share, against " + with.outage()
        .answeredShare()).isGreaterThan(with.outage().answeredShare() + 0.15);
    Document svg = parse(dir.resolve("maria.svg"));
    assertThat(svg.getDocumentElement().getTextContent()).contains("(MariaDB)");
  }

  @Test
  void drill_criticalWrites_allServedWhileSheddableReadsTakeTheRefusals() throws Exception {
    Path chart = dir.resolve("writes.svg");
    DrillOptions options = shortScenario("--critical-writes", "10", "--stale-max-age", "0",
        "--out", chart.toString());
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    Summary with = drill(options, new PrintStream(printed, true, "UTF-8"))[1];

    long offered = with.seconds().stream().mapToLong(Recorder.Second::writes).sum();
    long served = with.seconds().stream().mapToLong(Recorder.Second::writesServed).sum();
    long refused = with.seconds().stream().mapToLong(Recorder.Second::writesRefused).sum();
    assertThat(with.failed()).as(String.valueOf(with.firstFailure())).isZero();
    assertThat(offered).as("10 writes/s for 5 s").isBetween(40L, 60L);
    assertThat(refused).as("CRITICAL writes refused, of " + offered).isLessThanOrEqualTo(1);
    assertThat(served).isEqualTo(offered - refused);
    assertThat(with.outage().rejected()).as("the sheddable reads take the refusals")
        .isGreaterThan(1000);
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("writes  served refused", "CRITICAL writes (10/s)");
    // the writes have a panel of their own, not the queries' scale
    Document svg = parse(chart);
    assertThat(values(svg, "writes-with-sluice")).hasSize(5);
    assertThat(values(svg, "writes-without-sluice")).hasSize(5);
    assertThat(byId(svg, "g", "writes-offered")).isNotNull();
  }

  @Test
  void drill_capacityDrop_autoKeepsTheDatabaseNearItsHealthyLatencyWhereTheBudgetLetsItClimb()
      throws Exception {
    // 200 queries/s is within what the database serves at 1 ms + 4 ms per query beside it; from
    // 3 s each query costs twice that, and the budget's 200/s pile up in the 20 threads
    DrillOptions options = DrillOptions.parse(new String[] {"--load", "2000", "--budget", "200",
        "--outage-start", "1", "--outage-length", "4", "--capacity-drop", "3", "--duration", "5",
        "--instances", "2", "--threads", "10", "--keys", "2000", "--skew", "1.0",
        "--db-crowding-ms", "4", "--stale-max-age", "0", "--out",
        dir.resolve("drop.svg").toString()}, dir);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    Summary[] runs = drill(options, new PrintStream(printed, true, "UTF-8"));

    assertThat(runs).hasSize(3);
    Summary budget = runs[1];
    Summary auto = runs[2];
    assertThat(auto.failed()).as(String.valueOf(auto.firstFailure())).isZero();
    assertThat(budget.failed()).isZero();
    // the last second with half the capacity: the controller has had a second to cut. The budget
    // alone lets every thread in (about 150 ms: 2 ms + 8 ms x 19 others); auto holds it near its
    // floor, 4 in flight for the two instances (2 ms + 8 ms x 3: measured 35 ms; 10 ms before the
    // allowance put a floor under latency's cuts, which this serial database makes a cost). At a
    // load of 15 (a drill beside CI beside two burners) wake-ups came late: 51 ms against 145 ms
    Recorder.Second budgetLast = budget.seconds().get(4);
    Recorder.Second autoLast = auto.seconds().get(4);
    assertThat(budgetLast.dbMeanMillis()).as("budget alone").isGreaterThan(60);
    assertThat(autoLast.dbMeanMillis()).as("auto, against " + budgetLast.dbMeanMillis() + " ms")
        .isLessThan(budgetLast.dbMeanMillis() / 2.5);
    assertThat(autoLast.database()).as("auto serves no fewer").isGreaterThanOrEqualTo(
        budgetLast.database() * 3 / 4);
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("Run 3 of 3: Sluice, auto (sluice.concurrency=auto)",
        "After the database lost half its capacity (3 s to the end, 5 s");
    // the chart shows the auto run, in every panel, and marks the drop
    Document svg = parse(dir.resolve("drop.svg"));
    assertThat(values(svg, "series-sluice-auto")).hasSize(5);
    assertThat(values(svg, "latency-sluice-auto")).hasSize(5);
    assertThat(byId(svg, "g", "capacity-drop")).isNotNull();
  }

  @Test
  void run_cacheBackWarm_hasNoSecondWave() throws Exception {
    DrillOptions options = shortScenario("--cache-return", "warm");
    try (SimulatedDatabase db = SimulatedDatabase.start(options.keys, options.dbCostMillis,
        options.dbCrowdingMillis)) {

      Recorder run = new Run(options, db, RunKind.WITHOUT_SLUICE).play(quiet());

      // only the entries whose TTL ran out during the outage miss (an empty return: about 70%)
      Recorder.Second firstBack = run.second(options.outageEnd());
      assertThat(firstBack.hitRatio()).isGreaterThan(0.9);
      assertThat(firstBack.database()).isLessThan(2 * 100);
    }
  }

  @Test
  void drill_withRedis_sharesTheFlagAndCountsTheInstances() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    RedisServer redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
        .setting("save \"\"").setting("appendonly no").build();
    redis.start();
    try {
      DrillOptions options = DrillOptions.parse(new String[] {"--load", "2000", "--budget",
          "100", "--outage-start", "1", "--outage-length", "2", "--duration", "3",
          "--instances", "2", "--threads", "10", "--stale-max-age", "0",
          "--redis", "redis://127.0.0.1:" + port,
          "--out", dir.resolve("redis.svg").toString()}, dir);

      Summary with = drill(options, quiet())[1];

      // the flag reaches the instances through Redis (pub/sub, or the 250 ms poll), and the two
      // instances find each other in the registry: the database still gets about its budget
      assertThat(with.failed()).isZero();
      assertThat(with.outage().peakDatabase()).isBetween(25L, 180L);
      assertThat(with.outage().rejected()).isGreaterThan(1000);
    } finally {
      redis.stop();
    }
  }

  @Test
  void run_help_printsFlagsAndReturnsZero() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code = OutageDrill.run(new String[] {"--help"}, new PrintStream(out), new PrintStream(err));

    assertThat(code).isZero();
    assertThat(out.toString()).contains("--load", "--budget", "--outage-start",
        "--outage-length", "--instances", "--keys", "--skew", "--ttl", "--cache-return", "--out");
  }

  @Test
  void run_badValue_namesTheFlagAndReturnsTwo() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code = OutageDrill.run(new String[] {"--load", "lots"}, new PrintStream(out),
        new PrintStream(err));

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("error: --load must be reads per second from 1 to"
        + " 200000, but was \"lots\" (--help lists the flags)" + System.lineSeparator());
    assertThat(out.toString()).isEmpty();
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }

  private static Document parse(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(Files.newInputStream(file));
  }

  private static double[] values(Document svg, String id) {
    Element line = byId(svg, "polyline", id);
    assertThat(line).as("polyline " + id).isNotNull();
    return Arrays.stream(line.getAttribute("data-values").trim().split("\\s+"))
        .mapToDouble(Double::parseDouble).toArray();
  }

  private static double[] bandValues(Document svg, String id) {
    Element band = byId(svg, "polygon", id);
    assertThat(band).as("polygon " + id).isNotNull();
    return Arrays.stream(band.getAttribute("data-values").trim().split("\\s+"))
        .mapToDouble(Double::parseDouble).toArray();
  }

  private static Element byId(Document svg, String tag, String id) {
    NodeList nodes = svg.getElementsByTagNameNS(SVG, tag);
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      if (id.equals(e.getAttribute("id"))) {
        return e;
      }
    }
    return null;
  }
}
