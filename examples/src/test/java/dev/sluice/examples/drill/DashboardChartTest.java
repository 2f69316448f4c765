package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The drill's answering run drawn as the outage dashboard's rows, on seconds made up here. */
class DashboardChartTest {

  @Test
  void render_answeringRun_showsTheDashboardsRowsInOrderAsWellFormedSvg() throws Exception {
    DrillOptions options = DrillOptions.parse(new String[] {"--outage-start", "3",
        "--outage-length", "4", "--duration", "10"}, Path.of("target", "unused.svg"));
    List<Recorder.Second> seconds = new ArrayList<>();
    for (int t = 0; t < 10; t++) {
      boolean down = t >= 3 && t < 7;
      long cache = down ? 0 : 19_800;
      long answered = down ? 17_000 : 0;
      long refused = down ? 2_500 : 0;
      seconds.add(new Recorder.Second(t, 20_000, cache, down ? 0 : 200, down ? 500 : 200,
          20_000 - refused, answered, 0, new Recorder.Fates(cache, down ? 500 : 200, answered,
          refused, 0), refused, 0, 1, 2, down, t >= 7 && t < 9, 0, 0, 0, 10));
    }
    Summary run = Summary.of(RunKind.SLUICE_ANSWERS, seconds, 0, null, 2_257, options);

    String svg = DashboardChart.render(options, run);

    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    NodeList texts = doc.getElementsByTagName("text");
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < texts.getLength(); i++) {
      String text = texts.item(i).getTextContent();
      if (text.matches("\\d · .*")) {
        rows.add(text);
      }
    }
    assertThat(rows).containsExactly("1 · The cache's breaker", "2 · Sluice's mode",
        "3 · The database's protection", "4 · The users", "6 · The recovery");
    assertThat(svg).contains("budget 500/s", "answer age p99 over the run: 2.3 s against a"
        + " max-age of 5 s", "threshold 0.8 × budget");
    // one line per series: database, share served, answered, refused, demand
    assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(5);
  }
}
