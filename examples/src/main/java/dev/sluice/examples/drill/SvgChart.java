package dev.sluice.examples.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Draws the drill as an SVG, one step line per run in the run's colour ({@link RunKind#color()})
 * in each panel: the queries that reached the database per second (with the budget as a dashed
 * line and the peaks labelled), the database's latency, and with {@code --critical-writes} the
 * CRITICAL writes served per second. Between the first two panels, a row per run shows what
 * belongs to that run alone: the seconds its cache was back but still cold, and the seconds in
 * which Sluice kept limiting after the flag closed. Under them, a panel per run tells its users'
 * story: what became of the reads offered each second, stacked (answered by the cache, the
 * database or Sluice instead of refused; refused; timed out), on one axis for every run. The
 * outage is a shaded band over every panel; {@code --capacity-drop} a dashed marker. Plain SVG 1.1, no script and no external font, so any
 * browser or image viewer shows it.
 *
 * <p>A panel is a {@link Panel}: what it measures per second and in which unit, as one or more
 * {@link Line}s per run (a second line of a panel is dashed: refusals beside answers, say).
 * Another panel is another entry of {@link #panels}; another run is another {@link RunKind}.
 *
 * <p>Stateless and threadsafe.
 */
final class SvgChart {
  private static final int WIDTH = 960;
  private static final int LEFT = 124;
  private static final int RIGHT = 920;
  private static final int HEADER = 70;
  private static final int PANEL_GAP = 66;
  private static final int LANE = 15;
  private static final String OUTAGE_FILL = "#fbe3e3";
  private static final String COLD_FILL = "#f9e2ad";
  private static final String COLD_TEXT = "#7a5000";
  private static final int USERS_HEIGHT = 120;
  /** What became of the reads offered, bottom to top of the users panels. */
  private static final Line[] FATES = {
      new Line("cache", s -> s.fates().cache()),
      new Line("database", s -> s.fates().database()),
      new Line("sluice", s -> s.fates().sluice()),
      new Line("refused", s -> s.fates().refused()),
      new Line("timedout", s -> s.fates().timedOut())};
  private static final String[] FATE_FILLS = {"#d9d9d9", "#9ecae1", "#74c476", "#f4a3a3",
      "#fdd0a2"};
  private static final String[] FATE_NAMES = {"cache", "database", "Sluice's answers",
      "refused", "timed out"};

  private SvgChart() {}

  /**
   * One panel: values per second of each run, on its own axis from 0.
   *
   * @param id names the panel ({@code series}: the main one)
   * @param title its title
   * @param unit its y axis's unit
   * @param height its plot's height in pixels
   * @param lines what it draws of each run, the first solid, the others dashed
   * @param floor the least top of its axis (the budget, the writes offered: a line it draws)
   */
  record Panel(String id, String title, String unit, int height, List<Line> lines,
      double floor) {

    /** A panel of one line per run, whose series are {@code id-<run>}. */
    Panel(String id, String title, String unit, int height,
        ToDoubleFunction<Recorder.Second> value, double floor) {
      this(id, title, unit, height, List.of(new Line(id, value)), floor);
    }
  }

  /**
   * One measure of a panel, drawn for each run in the run's colour.
   *
   * @param id the prefix of its series' ids ({@code series} gives {@code series-with-sluice})
   * @param value what it draws of each second
   */
  record Line(String id, ToDoubleFunction<Recorder.Second> value) {}

  /** The panels of the chart for this scenario, top to bottom; the first is the main one. */
  static List<Panel> panels(DrillOptions options) {
    List<Panel> panels = new ArrayList<>();
    panels.add(new Panel("series", "Queries reaching the database per second", "queries/s", 280,
        Recorder.Second::database, options.budget));
    panels.add(new Panel("latency", "Database latency, mean per query", "ms", 110,
        Recorder.Second::dbMeanMillis, 1));
    if (options.criticalWrites > 0) {
      panels.add(new Panel("writes", String.format(Locale.ROOT,
          "CRITICAL writes served per second (%s/s offered)", count(options.criticalWrites)),
          "writes/s", 110, Recorder.Second::writesServed, options.criticalWrites));
    }
    return panels;
  }

  /**
   * Writes the chart to {@code file}, creating its directory.
   *
   * @param file where to write
   * @param options the scenario, for the title and the marks
   * @param runs the runs, in the order they were played
   * @throws IOException if the file cannot be written
   */
  static void write(Path file, DrillOptions options, List<Summary> runs) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Files.writeString(file, render(options, runs), StandardCharsets.UTF_8);
  }

  static String render(DrillOptions options, List<Summary> runs) {
    Canvas c = new Canvas(options, runs);
    return c.draw();
  }

  /** One drawing: the layout of the panels and rows, and the text laid out so far. */
  private static final class Canvas {
    private final DrillOptions options;
    private final List<Summary> runs;
    private final List<Panel> panels;
    private final int seconds;
    private final StringBuilder svg = new StringBuilder(32_768);
    private final List<double[]> labels = new ArrayList<>();
    private int legendBottom;
    /** The panel being drawn: labels stay inside it. */
    private int panelTop;
    private int panelBottom;

    Canvas(DrillOptions options, List<Summary> runs) {
      this.options = options;
      this.runs = runs;
      this.panels = panels(options);
      this.seconds = options.duration;
    }

    String draw() {
      header();
      int top = legendBottom + 44;
      for (int i = 0; i < panels.size(); i++) {
        Panel panel = panels.get(i);
        Axis axis = axis(panel);
        panel(panel, axis, top, i == 0);
        top += panel.height() + PANEL_GAP;
        if (i == 0) {
          top = rows(top - PANEL_GAP + 52) + PANEL_GAP - 10;
        }
      }
      Axis users = usersAxis();
      top += 22; // the users legend's line
      for (int i = 0; i < runs.size(); i++) {
        usersPanel(runs.get(i), users, top, i == 0);
        top += USERS_HEIGHT + PANEL_GAP;
      }
      int bottom = top - PANEL_GAP + 40;
      text(svg, (LEFT + RIGHT) / 2.0, bottom, 13, "normal", "middle", "#555",
          "seconds since the start of the run");
      int height = bottom + 16;
      svg.insert(0, String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\""
          + " version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
          + " font-family=\"Helvetica, Arial, sans-serif\">%n"
          + "<title>Sluice outage drill: queries reaching the database per second</title>%n"
          + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", WIDTH, height, WIDTH,
          height));
      svg.append("</svg>\n");
      return svg.toString();
    }

    private void header() {
      text(svg, LEFT, 34, 22, "bold", "start", "#222", "Queries reaching the database per second"
          + (options.database == null ? "" : " (MariaDB)"));
      text(svg, LEFT, 58, 14, "normal", "start", "#555", String.format(Locale.ROOT,
          "%,.0f reads/s offered; the cache answers %s of them when warm; it dies at %d s for"
          + " %d s and comes back %s", options.load,
          percent(Summary.warmHitRatio(options) + 0.01), options.outageStart,
          options.outageLength, options.returnsEmpty ? "empty" : "warm"));
      svg.append("<g id=\"legend\">");
      double x = LEFT;
      int y = HEADER + 12;
      for (Summary run : runs) {
        String label = legendLabel(run.kind());
        double width = 40 + textWidth(label, 13);
        if (x + width > RIGHT && x > LEFT) {
          x = LEFT;
          y += 20;
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
            + " stroke=\"%s\" stroke-width=\"3\"/>", x, y, x + 26, y, run.kind().color()));
        text(svg, x + 32, y + 5, 13, "normal", "start", "#222", label);
        x += width + 18;
      }
      svg.append("</g>\n");
      legendBottom = y;
    }

    private String legendLabel(RunKind kind) {
      if (!kind.sluice()) {
        return kind.label();
      }
      String scope = String.format(Locale.ROOT, "budget %,.0f/s over %d instance%s, scope %s",
          options.budget, options.instances, options.instances == 1 ? "" : "s",
          options.scope.name().toLowerCase(Locale.ROOT));
      if (kind.auto()) {
        return kind.label() + " (the same, and sluice.concurrency=auto)";
      }
      return kind.label() + " (" + scope
          + (kind.answers() && options.staleShare ? ", results shared" : "") + ")";
    }

    private Axis axis(Panel panel) {
      double top = panel.floor();
      for (Summary run : runs) {
        for (Line line : panel.lines()) {
          top = Math.max(top, max(run.seconds(), line.value()));
        }
      }
      return Axis.over(top * 1.12);
    }

    private void panel(Panel panel, Axis axis, int top, boolean main) {
      int bottom = top + panel.height();
      panelTop = top;
      panelBottom = bottom;
      outage(top, bottom, main);
      text(svg, LEFT, top - 12, 15, "bold", "start", "#222", main ? "" : panel.title());
      grid(axis, top, bottom, panel.unit());
      if (main) {
        budget(axis, top, bottom);
      } else if (panel.id().equals("writes")) {
        reference(axis, top, bottom, options.criticalWrites, "offered: "
            + count(options.criticalWrites) + "/s", "writes-offered");
      }
      capacityDrop(top, bottom, main);
      for (int i = 0; i < panel.lines().size(); i++) {
        Line line = panel.lines().get(i);
        for (Summary run : runs) {
          series(line.id() + "-" + run.kind().id(), run.kind().color(), i > 0, run.seconds(),
              axis, top, bottom, line.value());
        }
      }
      if (main) {
        peaks(axis, top, bottom);
      }
    }

    /** One axis for every run's users panel: they compare at a glance. */
    private Axis usersAxis() {
      double top = options.load;
      for (Summary run : runs) {
        for (Recorder.Second s : run.seconds()) {
          top = Math.max(top, s.offered());
        }
      }
      return Axis.over(top * 1.12);
    }

    /**
     * The user's story of one run: what became of the reads offered each second, stacked —
     * answered by the cache, by the database, by Sluice instead of refused, then refused by
     * Sluice and timed out — with the reads answered to their users as a line in the run's
     * colour. The offered load is the dashed reference. Counted by the second a read was
     * offered, so a stack adds up to the reads offered (the queries panel counts when they ran).
     */
    private void usersPanel(Summary run, Axis axis, int top, boolean first) {
      int bottom = top + USERS_HEIGHT;
      panelTop = top;
      panelBottom = bottom;
      String id = run.kind().id();
      outage(top, bottom, false);
      text(svg, LEFT, top - 12, 15, "bold", "start", run.kind().color(),
          "Reads answered to users per second: " + run.label());
      if (first) {
        usersLegend(top - 34);
      }
      grid(axis, top, bottom, "reads/s");
      List<Recorder.Second> rows = run.seconds();
      double[] floor = new double[rows.size()];
      for (int l = 0; l < FATES.length; l++) {
        double[] ceiling = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
          ceiling[i] = floor[i] + FATES[l].value().applyAsDouble(rows.get(i));
        }
        layer("users-" + FATES[l].id() + "-" + id, FATE_FILLS[l], rows, floor, ceiling, axis,
            top, bottom);
        floor = ceiling;
      }
      reference(axis, top, bottom, options.load, "offered: " + count(options.load) + "/s",
          "offered-" + id);
      series("users-" + id, run.kind().color(), false, rows, axis, top, bottom,
          Recorder.Second::reachedUser);
    }

    /** What the users panels' bands mean, on a line of its own above the first. */
    private void usersLegend(int y) {
      svg.append("<g id=\"users-legend\">");
      text(svg, LEFT, y, 12, "normal", "start", "#555", "Each read offered, by what became of"
          + " it:");
      double x = LEFT + textWidth("Each read offered, by what became of it:", 12) * 0.85 + 12;
      for (int i = 0; i < FATES.length; i++) {
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"14\""
            + " height=\"10\" fill=\"%s\"/>", x, y - 9, FATE_FILLS[i]));
        text(svg, x + 18, y, 12, "normal", "start", "#444", FATE_NAMES[i]);
        x += 18 + textWidth(FATE_NAMES[i], 12) * 0.85 + 14;
      }
      svg.append("</g>\n");
    }

    /** A filled band between two step lines, {@code floor} to {@code ceiling} in each second. */
    private void layer(String id, String fill, List<Recorder.Second> rows, double[] floor,
        double[] ceiling, Axis axis, int top, int bottom) {
      StringBuilder points = new StringBuilder();
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < rows.size(); i++) {
        double yy = y(ceiling[i], axis, top, bottom);
        points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x(rows.get(i).t()), yy,
            x(rows.get(i).t() + 1), yy));
        values.append(String.format(Locale.ROOT, "%.1f ", ceiling[i] - floor[i]));
      }
      for (int i = rows.size() - 1; i >= 0; i--) {
        double yy = y(floor[i], axis, top, bottom);
        points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x(rows.get(i).t() + 1),
            yy, x(rows.get(i).t()), yy));
      }
      svg.append(String.format(Locale.ROOT, "<polygon id=\"%s\" data-values=\"%s\""
          + " fill=\"%s\" stroke=\"none\" points=\"%s\"/>%n", id, values.toString().trim(),
          fill, points.toString().trim()));
    }

    /** The outage: the same seconds in every run, so one band over each panel. */
    private void outage(int top, int bottom, boolean main) {
      double x0 = x(options.outageStart);
      double x1 = x(options.outageEnd());
      svg.append(String.format(Locale.ROOT, "<g%s><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\""
          + " height=\"%d\" fill=\"%s\"/>", main ? " id=\"outage-window\"" : "", x0, top, x1 - x0,
          bottom - top, OUTAGE_FILL));
      if (main) {
        label((x0 + x1) / 2, top + 18, 13, "bold", "middle", "#a33", "cache down, breaker open");
      }
      svg.append("</g>\n");
    }

    /** {@code --capacity-drop}: a dashed line over every panel at the second it happens. */
    private void capacityDrop(int top, int bottom, boolean main) {
      if (options.capacityDrop < 0) {
        return;
      }
      double xx = x(options.capacityDrop);
      // over the main panel, the line reaches up to its label, above the data
      svg.append(String.format(Locale.ROOT, "<g%s><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\""
          + " y2=\"%d\" stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
          main ? " id=\"capacity-drop\"" : "", xx, main ? top - 18 : top, xx, bottom));
      if (main) {
        text(svg, xx + 6, top - 8, 13, "bold", "start", "#444", String.format(Locale.ROOT,
            "%d s: the database loses half its capacity", options.capacityDrop));
      }
      svg.append("</g>\n");
    }

    /**
     * Under the main panel, a row per run: its own cache's cold seconds after the return, and,
     * with Sluice, the seconds it kept limiting. Returns the y under the last row.
     */
    private int rows(int top) {
      svg.append("<g id=\"run-rows\">");
      text(svg, LEFT, top - 7, 12, "normal", "start", "#555",
          "After the outage, in each run: how long its cache was cold, and how long Sluice kept"
          + " limiting");
      int y = top;
      for (Summary run : runs) {
        int lanes = lanes(run);
        text(svg, LEFT - 8, y + lanes * LANE / 2.0 + 4, 12, "bold", "end", run.kind().color(),
            run.label());
        int lane = 0;
        int cold = run.recovery().seconds();
        if (cold > 0) {
          span("recovery-window-" + run.kind().id(), options.outageEnd(),
              options.outageEnd() + cold, y + lane++ * LANE, COLD_FILL, COLD_TEXT,
              (options.returnsEmpty ? "cache back empty, refilling " : "cache back, refilling ")
                  + cold + " s");
        }
        int[] hold = hold(run);
        if (hold != null) {
          span("sluice-hold-" + run.kind().id(), hold[0], hold[1], y + lane * LANE,
              run.kind().color(), "white", "Sluice keeps limiting " + (hold[1] - hold[0]) + " s"
                  + (hold[1] >= seconds ? ", still at the end of the run" : ""));
        }
        y += lanes * LANE + 6;
      }
      svg.append("</g>\n");
      return y;
    }

    private int lanes(Summary run) {
      int lanes = (run.recovery().seconds() > 0 ? 1 : 0) + (hold(run) != null ? 1 : 0);
      return Math.max(1, lanes);
    }

    private void span(String id, int from, int to, int y, String fill, String ink, String what) {
      double x0 = x(from);
      double x1 = x(to);
      svg.append(String.format(Locale.ROOT, "<g id=\"%s\"><rect x=\"%.1f\" y=\"%d\""
          + " width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", id, x0, y + 1, x1 - x0, LANE - 2, fill));
      boolean inside = textWidth(what, 11) + 8 < x1 - x0;
      text(svg, inside ? x0 + 4 : x1 + 4, y + LANE - 4, 11, "bold", "start",
          inside ? ink : COLD_TEXT.equals(ink) ? ink : fill, what);
      svg.append("</g>\n");
    }

    /** The seconds {@code [first, last + 1)} in which Sluice kept limiting, or null. */
    private static int[] hold(Summary run) {
      int first = -1;
      int last = -1;
      for (Recorder.Second s : run.seconds()) {
        if (s.recovering()) {
          first = first < 0 ? s.t() : first;
          last = s.t();
        }
      }
      return first < 0 ? null : new int[] {first, last + 1};
    }

    private void grid(Axis axis, int top, int bottom, String unit) {
      svg.append("<g stroke=\"#ddd\" stroke-width=\"1\">");
      for (double v = 0; v <= axis.max + 1e-9; v += axis.step) {
        double yy = y(v, axis, top, bottom);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\""
            + " y2=\"%.1f\"/>", LEFT, yy, RIGHT, yy));
      }
      svg.append("</g>\n<g font-size=\"12\" fill=\"#555\">");
      for (double v = 0; v <= axis.max + 1e-9; v += axis.step) {
        svg.append(String.format(Locale.ROOT,
            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 8,
            y(v, axis, top, bottom) + 4, axis.format(v)));
      }
      int xStep = seconds <= 20 ? 1 : seconds <= 60 ? 5 : 10;
      for (int t = 0; t <= seconds; t += xStep) {
        svg.append(String.format(Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", x(t), bottom + 18, t));
      }
      svg.append("</g>\n");
      double middle = (top + bottom) / 2.0;
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"13\""
          + " fill=\"#555\" text-anchor=\"middle\" transform=\"rotate(-90 %d %.1f)\">%s</text>",
          LEFT - 66, middle, LEFT - 66, middle, escape(unit)));
      svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
          + " stroke=\"#888\"/>%n", LEFT, bottom, RIGHT, bottom));
    }

    private void budget(Axis axis, int top, int bottom) {
      reference(axis, top, bottom, options.budget,
          String.format(Locale.ROOT, "budget: %,.0f queries/s", options.budget), "budget-line");
    }

    private void reference(Axis axis, int top, int bottom, double value, String what,
        String id) {
      double yy = y(value, axis, top, bottom);
      svg.append(String.format(Locale.ROOT, "<g id=\"%s\"><line x1=\"%d\" y1=\"%.1f\""
          + " x2=\"%d\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1.5\""
          + " stroke-dasharray=\"7 5\"/>", id, LEFT, yy, RIGHT, yy));
      label(RIGHT - 4, yy - 6, 13, "bold", "end", "#222", what);
      svg.append("</g>\n");
    }

    private void series(String id, String color, boolean dashed, List<Recorder.Second> rows,
        Axis axis, int top, int bottom, ToDoubleFunction<Recorder.Second> value) {
      // a step per second: each count belongs to its whole second, not to a point in it
      StringBuilder points = new StringBuilder();
      StringBuilder values = new StringBuilder();
      for (Recorder.Second s : rows) {
        double v = value.applyAsDouble(s);
        double yy = y(v, axis, top, bottom);
        points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x(s.t()), yy,
            x(s.t() + 1), yy));
        values.append(String.format(Locale.ROOT, "%.1f ", v));
      }
      svg.append(String.format(Locale.ROOT, "<polyline id=\"%s\" data-values=\"%s\""
          + " fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\""
          + " points=\"%s\"/>%n", id, values.toString().trim(), color,
          dashed ? "2\" stroke-dasharray=\"6 4" : "3", points.toString().trim()));
    }

    /** The peaks worth a label: without Sluice in the outage and the second wave; with it. */
    private void peaks(Axis axis, int top, int bottom) {
      for (Summary run : runs) {
        if (run.kind() == RunKind.WITHOUT_SLUICE) {
          peak(run, options.outageStart, options.outageEnd(), axis, top, bottom,
              "without Sluice: peak", "outage-peak");
          if (run.recovery().peakDatabase() > options.budget) {
            peak(run, options.outageEnd(), options.outageEnd() + run.recovery().seconds(),
                axis, top, bottom, "second wave:", "second-wave");
          }
        } else if (run.kind() == RunKind.WITH_SLUICE) {
          peak(run, 0, seconds, axis, top, bottom, "with Sluice: peak", "with-sluice-peak");
        }
      }
    }

    /** Marks the highest second of {@code [from, to)} in the run. */
    private void peak(Summary run, int from, int to, Axis axis, int top, int bottom,
        String what, String id) {
      Recorder.Second best = null;
      for (Recorder.Second s : run.seconds().subList(from, Math.min(to, run.seconds().size()))) {
        if (best == null || s.database() > best.database()) {
          best = s;
        }
      }
      if (best == null) {
        return;
      }
      double xx = x(best.t() + 0.5);
      double yy = y(best.database(), axis, top, bottom);
      svg.append(String.format(Locale.ROOT, "<g id=\"%s\"><circle cx=\"%.1f\" cy=\"%.1f\""
          + " r=\"4\" fill=\"%s\"/>", id, xx, yy, run.kind().color()));
      label(xx + 8, Math.max(top + 14, yy - 8), 13, "bold", "start", run.kind().color(),
          String.format(Locale.ROOT, "%s %,d/s", what, best.database()));
      svg.append("</g>\n");
    }

    /**
     * A label that must not cover another: where it was asked for if that is clear of the labels
     * placed before it, else the nearest clear line above or below, inside the panel.
     */
    private void label(double x, double y, int size, String weight, String anchor, String color,
        String content) {
      double width = textWidth(content, size);
      double x0 = anchor.equals("end") ? x - width : anchor.equals("middle") ? x - width / 2 : x;
      double yy = y;
      for (int i = 1; i < 16 && overlaps(x0, x0 + width, yy - size, yy + 3); i++) {
        // 0, one line up, one down, two up, two down...
        double candidate = y + (i % 2 == 1 ? -1 : 1) * ((i + 1) / 2) * (size + 5);
        yy = candidate - size < panelTop || candidate > panelBottom ? yy : candidate;
      }
      labels.add(new double[] {x0, x0 + width, yy - size, yy + 3});
      // a white halo under the letters keeps a label readable where it crosses a line
      svg.append("<g stroke=\"white\" stroke-width=\"4\" stroke-linejoin=\"round\""
          + " paint-order=\"stroke\">");
      text(svg, x, yy, size, weight, anchor, color, content);
      svg.append("</g>");
    }

    private boolean overlaps(double x0, double x1, double y0, double y1) {
      for (double[] box : labels) {
        if (x0 < box[1] && box[0] < x1 && y0 < box[3] && box[2] < y1) {
          return true;
        }
      }
      return false;
    }

    private double x(double t) {
      return LEFT + (RIGHT - LEFT) * t / seconds;
    }
  }

  private static void text(StringBuilder svg, double x, double y, int size, String weight,
      String anchor, String color, String content) {
    if (content.isEmpty()) {
      return;
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\""
        + " font-weight=\"%s\" text-anchor=\"%s\" fill=\"%s\">%s</text>", x, y, size, weight,
        anchor, color, escape(content)));
  }

  /** A generous estimate of the width of Helvetica bold at {@code size}: for placing labels. */
  private static double textWidth(String text, int size) {
    return text.length() * size * 0.62;
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

  private static String count(double value) {
    return value == Math.rint(value) ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%,.1f", value);
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

    /** A tick's value: whole numbers with separators, fractions where the step is one. */
    String format(double v) {
      return step >= 1 ? String.format(Locale.ROOT, "%,.0f", v)
          : String.format(Locale.ROOT, "%.1f", v);
    }
  }
}
