package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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

  @Test
  void drill_shortScenario_writesSvgWithBothSeriesAndCapsTheDatabase() throws Exception {
    Path chart = dir.resolve("charts/drill.svg");
    DrillOptions options = DrillOptions.parse(new String[] {"--load", "2000", "--budget", "100",
        "--outage-start", "1", "--outage-length", "2", "--duration", "3", "--instances", "2",
        "--threads", "10", "--out", chart.toString()}, dir);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    Summary[] runs = OutageDrill.drill(options, new PrintStream(printed, true, "UTF-8"));

    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("Run 1 of 2: without Sluice", "Run 2 of 2: with Sluice",
        "Chart: " + chart.toAbsolutePath());
    assertThat(chart).exists();
    Document svg = parse(chart);
    assertThat(svg.getDocumentElement().getLocalName()).isEqualTo("svg");
    assertThat(svg.getDocumentElement().getNamespaceURI()).isEqualTo(SVG);
    assertThat(values(svg, "series-without-sluice")).hasSize(3);
    assertThat(values(svg, "series-with-sluice")).hasSize(3);
    assertThat(byId(svg, "g", "budget-line")).isNotNull();
    assertThat(byId(svg, "g", "outage-window")).isNotNull();

    Summary without = runs[0];
    Summary with = runs[1];
    assertThat(without.failed()).isZero();
    assertThat(with.failed()).isZero();
    long withoutDuringOutage = databaseDuringOutage(without, options);
    long withDuringOutage = databaseDuringOutage(with, options);
    // 2,000 reads/s for 2 s fall on the database without Sluice; with it, 100/s plus the bursts
    // (wide bounds: this runs on real threads on a busy machine)
    assertThat(withoutDuringOutage).isGreaterThan(1000);
    assertThat(withDuringOutage).isBetween(50L, 400L);
    assertThat(with.rejected()).isGreaterThan(1000);
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
          "--instances", "2", "--threads", "10", "--redis", "redis://127.0.0.1:" + port,
          "--out", dir.resolve("redis.svg").toString()}, dir);

      Summary with = OutageDrill.drill(options, new PrintStream(new ByteArrayOutputStream(),
          true, "UTF-8"))[1];

      // the flag reaches the instances through Redis (pub/sub, or the 250 ms poll), and the two
      // instances find each other in the registry: the database still gets about its budget
      assertThat(with.failed()).isZero();
      assertThat(databaseDuringOutage(with, options)).isBetween(50L, 400L);
      assertThat(with.rejected()).isGreaterThan(1000);
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
    assertThat(out.toString()).contains("--load", "--hit-ratio", "--budget", "--outage-start",
        "--outage-length", "--instances", "--out");
  }

  @Test
  void run_badValue_namesTheFlagAndReturnsTwo() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code = OutageDrill.run(new String[] {"--load", "lots"}, new PrintStream(out),
        new PrintStream(err));

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--load must be reads per second from 1 to 200000,"
        + " but was \"lots\"", "--help");
    assertThat(out.toString()).isEmpty();
  }

  private static long databaseDuringOutage(Summary run, DrillOptions options) {
    return run.seconds().stream().filter(s -> options.outageAt(s.t() + 0.5))
        .mapToLong(Recorder.Second::database).sum();
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
