package dev.sluice.examples.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Draws the answering run of the drill as the outage dashboard
 * ({@code observability/sluice-outage.json}) would show it, row by row in the dashboard's order,
 * from the drill's own figures per second (docs/observability.md walks through it): 1 the cache's
 * breaker, 2 Sluice's mode, 3 the database's protection (queries reaching the database against the
 * budget), 4 the users (the share served; answered and refused per second), 6 the recovery (reads
 * the cache did not serve, which reach Sluice's doors, against the recovery threshold times the
 * budget). Row 5, the fleet, is not drawn: the drill's instances are fixed. The figures are those
 * of the drill's table and {@link SvgChart}, not of a Prometheus; the dashboard's own panels rate
 * the same counters over a window. Plain SVG 1.1, as {@link SvgChart}.
 *
 * <p>Stateless and threadsafe.
 */
final class DashboardChart {
  private static final int WIDTH = 960;
  private static final int LEFT = 150;
  private static final int RIGHT = 920;
  private static final int STRIP = 22;
  private static final int PLOT = 120;
  private static final String OUTAGE_FILL = "#fbe3e3";
  /** The recovery threshold the drill's instances run with (the default). */
  private static final double RECOVERY_THRESHOLD = 0.8;

  private DashboardChart() {}

  /**
   * Writes the dashboard view of {@code run} to {@code file}.
   *
   * @param file where to write
   * @param options the scenario
   * @param run the answering run
   * @throws IOException if the file cannot be written
   */
  static void write(Path file, DrillOptions options, Summary run) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Files.writeString(file, render(options, run), StandardCharsets.UTF_8);
  }

  static String render(DrillOptions o, Summary run) {
    List<Recorder.Second> s = run.seconds();
    StringBuilder svg = new StringBuilder(32_768);
    text(svg, LEFT, 30, 20, "bold", "The outage drill through the outage dashboard");
    text(svg, LEFT, 52, 13, "normal", String.format(Locale.ROOT,
        "%s: %,.0f reads/s over %d instances, budget %,.0f queries/s, max-age %.0f s; the cache"
            + " is down from %d s to %d s", run.label(), o.load, o.instances, o.budget,
        o.staleMaxAgeMillis / 1000.0, o.outageStart, o.outageEnd()));
    int y = 80;
    y = row(svg, y, "1 · The cache's breaker");
    y = strip(svg, o, s, y, "breaker", t -> o.outageAt(t.t() + 0.5) ? "#d62728" : "#2ca02c",
        "red: open", "green: closed");
    y = row(svg, y, "2 · Sluice's mode");
    y = strip(svg, o, s, y, "limiting", t -> t.limiting() && !t.recovering() ? "#ff7f0e"
        : t.recovering() ? "#f2c14e" : "#e8e8e8", "orange: limiting",
        "yellow: recovering (flag closed, still limiting)", "grey: off");
    y = row(svg, y, "3 · The database's protection");
    y = plot(svg, o, s, y, "queries reaching the database per second", o.budget,
        "budget " + count(o.budget) + "/s", 0,
        new Series("#1f77b4", Recorder.Second::database));
    y = row(svg, y, "4 · The users");
    y = plot(svg, o, s, y, "share of the reads offered that reached their users, %", 0, null,
        100, new Series("#2ca02c", t -> t.offered() == 0 ? 0 : 100.0 * t.reachedUser() / t.offered()));
    y = plot(svg, o, s, y, "reads answered by Sluice (green) and refused (red) per second", 0,
        null, 0, new Series("#2ca02c", t -> t.fates().sluice()),
        new Series("#d62728", t -> t.fates().refused()));
    if (run.answerP99Millis() >= 0) {
      text(svg, LEFT, y - 4, 12, "normal", String.format(Locale.ROOT,
          "answer age p99 over the run: %.1f s against a max-age of %.0f s",
          run.answerP99Millis() / 1000.0, o.staleMaxAgeMillis / 1000.0));
      y += 14;
    }
    y = row(svg, y, "6 · The recovery");
    ToDoubleFunction<Recorder.Second> demand = t -> t.offered() - t.fates().cache();
    double after = RECOVERY_THRESHOLD * o.budget;
    for (Recorder.Second t : s) {
      after = t.t() >= o.outageEnd() ? Math.max(after, demand.applyAsDouble(t)) : after;
    }
    y = plot(svg, o, s, y, "reads the cache did not serve, per second: the demand at Sluice's"
        + " doors (off the scale while the cache is down)", RECOVERY_THRESHOLD * o.budget,
        "threshold " + RECOVERY_THRESHOLD + " × budget", after * 1.1,
        new Series("#9467bd", demand));
    text(svg, (LEFT + RIGHT) / 2.0, y + 4, 12, "normal", "seconds since the start of the run");
    int height = y + 20;
    svg.insert(0, String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\""
        + " version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
        + " font-family=\"Helvetica, Arial, sans-serif\">%n"
        + "<title>The outage drill through the outage dashboard</title>%n"
        + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
        WIDTH, height, WIDTH, height));
    return svg.append("</svg>\n").toString();
  }

  /** One line of a plot: its colour and its value per second. */
  private record Series(String color, ToDoubleFunction<Recorder.Second> value) {}

  private static int row(StringBuilder svg, int y, String title) {
    svg.append(String.format(Locale.ROOT, "<line x1=\"20\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"#bbb\"/>%n", y, RIGHT, y));
    text(svg, 20, y + 18, 14, "bold", title);
    return y + 28;
  }

  /** A state timeline: one coloured cell per second. */
  private static int strip(StringBuilder svg, DrillOptions o, List<Recorder.Second> seconds,
      int y, String label, java.util.function.Function<Recorder.Second, String> color,
      String... legend) {
    text(svg, 20, y + 15, 12, "normal", label);
    for (Recorder.Second s : seconds) {
      double x0 = x(o, s.t());
      svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\""
          + " height=\"%d\" fill=\"%s\"/>%n", x0, y, x(o, s.t() + 1) - x0, STRIP,
          color.apply(s)));
    }
    text(svg, RIGHT, y + STRIP + 14, 11, "normal", String.join(", ", legend), "end");
    return y + STRIP + 26;
  }

  /** A time series panel: the outage shaded, a dashed reference line, the series as steps. */
  private static int plot(StringBuilder svg, DrillOptions o, List<Recorder.Second> seconds,
      int y, String label, double reference, String referenceLabel, double axisMax,
      Series... series) {
    double max = axisMax;
    if (max <= 0) {
      max = reference;
      for (Series line : series) {
        for (Recorder.Second s : seconds) {
          max = Math.max(max, line.value().applyAsDouble(s));
        }
      }
      max = max <= 0 ? 1 : max * 1.1;
    }
    text(svg, LEFT, y + 2, 12, "normal", label);
    y += 10;
    int bottom = y + PLOT;
    svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\""
        + " height=\"%d\" fill=\"%s\"/>%n", x(o, o.outageStart), y,
        x(o, o.outageEnd()) - x(o, o.outageStart), PLOT, OUTAGE_FILL));
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
        + " stroke=\"#888\"/>%n", LEFT, bottom, RIGHT, bottom));
    text(svg, LEFT - 6, y + 10, 11, "normal", count(max), "end");
    text(svg, LEFT - 6, bottom, 11, "normal", "0", "end");
    for (int t = 0; t <= o.duration; t += 5) {
      text(svg, x(o, t), bottom + 14, 10, "normal", Integer.toString(t), "middle");
    }
    if (reference > 0 && referenceLabel != null) {
      double ry = bottom - PLOT * reference / max;
      svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
          + " stroke=\"#444\" stroke-dasharray=\"6 4\"/>%n", LEFT, ry, RIGHT, ry));
      text(svg, RIGHT, ry - 4, 11, "normal", referenceLabel, "end");
    }
    for (Series line : series) {
      StringBuilder points = new StringBuilder();
      for (Recorder.Second s : seconds) {
        double vy = bottom - PLOT * Math.min(max, line.value().applyAsDouble(s)) / max;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x(o, s.t()), vy,
            x(o, s.t() + 1), vy));
      }
      svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"2\" points=\"%s\"/>%n", line.color(), points.toString().trim()));
    }
    return bottom + 34;
  }

  private static double x(DrillOptions o, double t) {
    return LEFT + (RIGHT - LEFT) * t / o.duration;
  }

  private static void text(StringBuilder svg, double x, double y, int size, String weight,
      String content) {
    text(svg, x, y, size, weight, content, "start");
  }

  private static void text(StringBuilder svg, double x, double y, int size, String weight,
      String content, String anchor) {
    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\""
        + " font-weight=\"%s\" text-anchor=\"%s\" fill=\"#222\">%s</text>%n", x, y, size,
        weight, anchor, content.replace("&", "&amp;").replace("<", "&lt;")));
  }

  private static String count(double value) {
    return value >= 10_000 ? String.format(Locale.ROOT, "%.0fk", value / 1000)
        : String.format(Locale.ROOT, "%,.0f", value);
  }
}
