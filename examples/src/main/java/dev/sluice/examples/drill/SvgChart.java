package dev.sluice.examples.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Draws the drill as an SVG: queries reaching the database per second for both runs, the budget
 * as a dashed line, the outage as a shaded band, the recovery (the cache back but still cold, in
 * the run with Sluice) as another, and the seconds in which Sluice held the cap after the flag
 * closed as a bar; below, the database's latency. Plain SVG 1.1,
 * no script and no external font, so any browser or image viewer shows it.
 *
 * <p>Stateless and threadsafe.
 */
final class SvgChart {
  static final String WITHOUT_COLOR = "#d62728";
  static final String WITH_COLOR = "#1f77b4";
  static final String WRITES_WITHOUT_COLOR = "#ff7f0e";
  static final String WRITES_WITH_COLOR = "#2ca02c";

  private static final int WIDTH = 960;
  private static final int LEFT = 84;
  private static final int RIGHT = 920;
  private static final int TOP = 96;
  private static final int BOTTOM = 400;
  private static final int LAT_TOP = 470;
  private static final int LAT_BOTTOM = 580;
  private static final int HEIGHT = 630;

  private SvgChart() {}

  /**
   * Writes the chart to {@code file}, creating its directory.
   *
   * @param file where to write
   * @param options the scenario, for the title and the marks
   * @param without the run without Sluice
   * @param with the run with Sluice
   * @throws IOException if the file cannot be written
   */
  static void write(Path file, DrillOptions options, Summary without, Summary with)
      throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Files.writeString(file, render(options, without, with), StandardCharsets.UTF_8);
  }

  static String render(DrillOptions options, Summary without, Summary with) {
    StringBuilder svg = new StringBuilder(16_384);
    int seconds = options.duration;
    double top = options.budget;
    top = Math.max(top, max(without.seconds(), Recorder.Second::database));
    top = Math.max(top, max(with.seconds(), Recorder.Second::database));
    Axis y = Axis.over(top * 1.12);
    double latTop = Math.max(max(without.seconds(), Recorder.Second::dbMeanMillis),
        max(with.seconds(), Recorder.Second::dbMeanMillis));
    Axis lat = Axis.over(Math.max(1, latTop * 1.15));

    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\""
        + " version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
        + " font-family=\"Helvetica, Arial, sans-serif\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append("<title>Sluice outage drill: queries reaching the database per second</title>\n");
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    text(svg, LEFT, 34, 22, "bold", "start", "#222",
        "Queries reaching the database per second");
    text(svg, LEFT, 60, 14, "normal", "start", "#555", String.format(Locale.ROOT,
        "%,.0f reads/s offered; the cache answers %s of them when warm; it dies at %d s for %d s"
        + " and comes back %s", options.load, percent(Summary.warmHitRatio(options) + 0.01),
        options.outageStart, options.outageLength, options.returnsEmpty ? "empty" : "warm"));

    recovery(svg, options, with, seconds);
    outage(svg, options, seconds); // after the recovery: a short outage's label may overhang it
    hold(svg, with, seconds);
    grid(svg, y, TOP, BOTTOM, seconds, "%,.0f");
    budget(svg, options.budget, y);
    series(svg, "series-without-sluice", WITHOUT_COLOR, without.seconds(), seconds, y, TOP,
        BOTTOM, Recorder.Second::database);
    series(svg, "series-with-sluice", WITH_COLOR, with.seconds(), seconds, y, TOP, BOTTOM,
        Recorder.Second::database);
    peak(svg, without, WITHOUT_COLOR, options.outageStart, options.outageEnd(), seconds, y,
        "without Sluice: peak", "outage-peak");
    peak(svg, with, WITH_COLOR, 0, seconds, seconds, y, "with Sluice: peak", "with-sluice-peak");
    if (without.recovery().peakDatabase() > options.budget) {
      peak(svg, without, WITHOUT_COLOR, options.outageEnd(),
          options.outageEnd() + without.recovery().seconds(), seconds, y, "second wave:",
          "second-wave");
    }
    if (options.criticalWrites > 0) {
      // on the same axis: a low line, flat while served, dipping where writes are lost
      series(svg, "writes-without-sluice", WRITES_WITHOUT_COLOR, without.seconds(), seconds, y,
          TOP, BOTTOM, Recorder.Second::writesServed);
      series(svg, "writes-with-sluice", WRITES_WITH_COLOR, with.seconds(), seconds, y, TOP,
          BOTTOM, Recorder.Second::writesServed);
      text(svg, RIGHT, TOP + 18, 13, "normal", "end", WRITES_WITH_COLOR, String.format(
          Locale.ROOT, "CRITICAL writes served per second (%s/s offered): with Sluice green,"
          + " without orange", String.format(Locale.ROOT, "%,.0f", options.criticalWrites)));
    }
    legend(svg, options);

    text(svg, LEFT, LAT_TOP - 14, 15, "bold", "start", "#222",
        "Database latency, mean ms per query");
    grid(svg, lat, LAT_TOP, LAT_BOTTOM, seconds, "%,.0f");
    series(svg, "latency-without-sluice", WITHOUT_COLOR, without.seconds(), seconds, lat, LAT_TOP,
        LAT_BOTTOM, Recorder.Second::dbMeanMillis);
    series(svg, "latency-with-sluice", WITH_COLOR, with.seconds(), seconds, lat, LAT_TOP,
        LAT_BOTTOM, Recorder.Second::dbMeanMillis);
    text(svg, (LEFT + RIGHT) / 2.0, LAT_BOTTOM + 38, 13, "normal", "middle", "#555",
        "seconds since the start of the run");
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static void outage(StringBuilder svg, DrillOptions options, int seconds) {
    double x0 = x(options.outageStart, seconds);
    double x1 = x(options.outageStart + options.outageLength, seconds);
    svg.append(String.format(Locale.ROOT, "<g id=\"outage-window\"><rect x=\"%.1f\" y=\"%d\""
        + " width=\"%.1f\" height=\"%d\" fill=\"#fbe3e3\"/>", x0, TOP, x1 - x0, BOTTOM - TOP));
    svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
        + " fill=\"#fbe3e3\"/>", x0, LAT_TOP, x1 - x0, LAT_BOTTOM - LAT_TOP));
    text(svg, (x0 + x1) / 2, TOP + 18, 13, "bold", "middle", "#a33",
        "cache down, breaker open");
    svg.append("</g>\n");
  }

  /** The seconds after the cache's return until it was warm again, in the run with Sluice. */
  private static void recovery(StringBuilder svg, DrillOptions options, Summary with,
      int seconds) {
    int cold = with.recovery().seconds();
    if (cold == 0) {
      return;
    }
    double x0 = x(options.outageEnd(), seconds);
    double x1 = x(options.outageEnd() + cold, seconds);
    svg.append(String.format(Locale.ROOT, "<g id=\"recovery-window\"><rect x=\"%.1f\" y=\"%d\""
        + " width=\"%.1f\" height=\"%d\" fill=\"#fdf0d5\"/>", x0, TOP, x1 - x0, BOTTOM - TOP));
    svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
        + " fill=\"#fdf0d5\"/>", x0, LAT_TOP, x1 - x0, LAT_BOTTOM - LAT_TOP));
    text(svg, (x0 + x1) / 2, TOP + 18, 13, "bold", "middle", "#8a5a00",
        options.returnsEmpty ? "cache back empty, refilling" : "cache back, refilling");
    svg.append("</g>\n");
  }

  /** The seconds in which Sluice held the cap after the flag closed, as a bar under the bands. */
  private static void hold(StringBuilder svg, Summary with, int seconds) {
    int first = -1;
    int last = -1;
    for (Recorder.Second s : with.seconds()) {
      if (s.recovering()) {
        first = first < 0 ? s.t() : first;
        last = s.t();
      }
    }
    if (first < 0) {
      return;
    }
    double x0 = x(first, seconds);
    double x1 = x(last + 1, seconds);
    svg.append(String.format(Locale.ROOT, "<g id=\"sluice-hold\"><rect x=\"%.1f\" y=\"%d\""
        + " width=\"%.1f\" height=\"4\" fill=\"%s\"/>", x0, TOP + 28, x1 - x0, WITH_COLOR));
    text(svg, x1 - 4, TOP + 46, 13, "bold", "end", WITH_COLOR, "Sluice holds the cap");
    svg.append("</g>\n");
  }

  private static void grid(StringBuilder svg, Axis axis, int top, int bottom, int seconds,
      String format) {
    svg.append("<g stroke=\"#ddd\" stroke-width=\"1\">");
    for (double v = 0; v <= axis.max + 1e-9; v += axis.step) {
      double yy = y(v, axis, top, bottom);
      svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>",
          LEFT, yy, RIGHT, yy));
    }
    svg.append("</g>\n<g font-size=\"12\" fill=\"#555\">");
    for (double v = 0; v <= axis.max + 1e-9; v += axis.step) {
      svg.append(String.format(Locale.ROOT,
          "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 8,
          y(v, axis, top, bottom) + 4, String.format(Locale.ROOT, format, v)));
    }
    int xStep = seconds <= 20 ? 1 : seconds <= 60 ? 5 : 10;
    for (int t = 0; t <= seconds; t += xStep) {
      svg.append(String.format(Locale.ROOT,
          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", x(t, seconds),
          bottom + 18, t));
    }
    svg.append("</g>\n");
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"#888\"/>%n", LEFT, bottom, RIGHT, bottom));
  }

  private static void budget(StringBuilder svg, double budget, Axis axis) {
    double yy = y(budget, axis, TOP, BOTTOM);
    svg.append(String.format(Locale.ROOT, "<g id=\"budget-line\"><line x1=\"%d\" y1=\"%.1f\""
        + " x2=\"%d\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1.5\""
        + " stroke-dasharray=\"7 5\"/>", LEFT, yy, RIGHT, yy));
    text(svg, RIGHT - 4, yy - 6, 13, "bold", "end", "#222",
        String.format(Locale.ROOT, "budget: %,.0f queries/s", budget));
    svg.append("</g>\n");
  }

  private static void series(StringBuilder svg, String id, String color,
      List<Recorder.Second> rows, int seconds, Axis axis, int top, int bottom,
      ToDoubleFunction<Recorder.Second> value) {
    // a step per second: each count belongs to its whole second, not to a point in it
    StringBuilder points = new StringBuilder();
    StringBuilder values = new StringBuilder();
    for (Recorder.Second s : rows) {
      double v = value.applyAsDouble(s);
      double yy = y(v, axis, top, bottom);
      points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x(s.t(), seconds), yy,
          x(s.t() + 1, seconds), yy));
      values.append(String.format(Locale.ROOT, "%.1f ", v));
    }
    svg.append(String.format(Locale.ROOT, "<polyline id=\"%s\" data-values=\"%s\" fill=\"none\""
        + " stroke=\"%s\" stroke-width=\"3\" stroke-linejoin=\"round\" points=\"%s\"/>%n", id,
        values.toString().trim(), color, points.toString().trim()));
  }

  /** Marks the highest second of {@code [from, to)} in the run. */
  private static void peak(StringBuilder svg, Summary run, String color, int from, int to,
      int seconds, Axis axis, String label, String id) {
    Recorder.Second best = null;
    for (Recorder.Second s : run.seconds().subList(from, Math.min(to, run.seconds().size()))) {
      if (best == null || s.database() > best.database()) {
        best = s;
      }
    }
    if (best == null) {
      return;
    }
    double xx = x(best.t() + 0.5, seconds);
    double yy = y(best.database(), axis, TOP, BOTTOM);
    svg.append(String.format(Locale.ROOT, "<g id=\"%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\""
        + " fill=\"%s\"/>", id, xx, yy, color));
    text(svg, xx + 8, yy - 8, 13, "bold", "start", color,
        String.format(Locale.ROOT, "%s %,d/s", label, best.database()));
    svg.append("</g>\n");
  }

  private static void legend(StringBuilder svg, DrillOptions options) {
    int x0 = LEFT;
    int y0 = TOP - 20;
    svg.append("<g id=\"legend\">");
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"%s\" stroke-width=\"3\"/>", x0, y0, x0 + 26, y0, WITHOUT_COLOR));
    text(svg, x0 + 32, y0 + 5, 13, "normal", "start", "#222", "without Sluice");
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"%s\" stroke-width=\"3\"/>", x0 + 150, y0, x0 + 176, y0, WITH_COLOR));
    text(svg, x0 + 182, y0 + 5, 13, "normal", "start", "#222", String.format(Locale.ROOT,
        "with Sluice (budget %,.0f/s over %d instance%s, scope %s)", options.budget,
        options.instances, options.instances == 1 ? "" : "s",
        options.scope.name().toLowerCase(Locale.ROOT)));
    svg.append("</g>\n");
  }

  private static void text(StringBuilder svg, double x, double y, int size, String weight,
      String anchor, String color, String content) {
    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\""
        + " font-weight=\"%s\" text-anchor=\"%s\" fill=\"%s\">%s</text>", x, y, size, weight,
        anchor, color, escape(content)));
  }

  private static double x(double t, int seconds) {
    return LEFT + (RIGHT - LEFT) * t / seconds;
  }

  private static double y(double v, Axis axis, int top, int bottom) {
    return bottom - (bottom - top) * Math.min(v, axis.max) / axis.max;
  }

  private static double max(List<Recorder.Second> rows, ToDoubleFunction<Recorder.Second> f) {
    return rows.stream().mapToDouble(f).max().orElse(0);
  }

  private static String percent(double ratio) {
    double p = ratio * 100;
    return p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f%%", p)
        : String.format(Locale.ROOT, "%.1f%%", p);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /** A linear axis from 0 with a round step (1, 2 or 5 times a power of ten). */
  private static final class Axis {
    final double max;
    final double step;

    private Axis(double max, double step) {
      this.max = max;
      this.step = step;
    }

    static Axis over(double top) {
      double raw = top / 5;
      double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
      double step = magnitude;
      for (double m : new double[] {1, 2, 5, 10}) {
        if (m * magnitude >= raw) {
          step = m * magnitude;
          break;
        }
      }
      return new Axis(Math.ceil(top / step) * step, step);
    }
  }
}
