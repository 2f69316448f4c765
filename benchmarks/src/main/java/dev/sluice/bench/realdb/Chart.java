package dev.sluice.bench.realdb;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The adaptive gates' caps over the scenario as an SVG: one panel per host variant, the phases as
 * bands, one line per adaptive gate, and below each panel the statements that missed their
 * deadline per second under {@code auto}. Render it with {@code rsvg-convert caps.svg > caps.png}.
 *
 * <p>This class is not threadsafe; it has only static methods.
 */
final class Chart {
  private static final int WIDTH = 960;
  private static final int LEFT = 50;
  private static final int RIGHT = 170;
  private static final int PANEL = 230;
  private static final int MISSED = 60;
  private static final int GAP = 50;

  private Chart() {}

  static String svg(List<RealDatabaseHarness.Phase> phases, List<Tally> tallies,
      Map<String, String> colours) {
    int height = 2 * (PANEL + MISSED + GAP) + 10;
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d'"
        + " height='%d' font-family='sans-serif' font-size='12'>%n", WIDTH, height));
    s.append(String.format(Locale.ROOT, "<rect width='%d' height='%d' fill='white'/>%n", WIDTH,
        height));
    int top = 30;
    for (String variant : List.of("quiet", "noisy")) {
      panel(s, phases, Report.of(tallies, variant), colours, variant, top);
      top += PANEL + MISSED + GAP;
    }
    return s.append("</svg>\n").toString();
  }

  private static void panel(StringBuilder s, List<RealDatabaseHarness.Phase> phases,
      List<Tally> tallies, Map<String, String> colours, String variant, int top) {
    double seconds = RealDatabaseHarness.durationNanos(phases) / 1e9;
    double xScale = (WIDTH - LEFT - RIGHT) / seconds;
    double yScale = (PANEL - 20.0) / RealDatabaseHarness.pool;
    text(s, LEFT, top - 8, variant + " host: the cap (statements in flight) every 250 ms", "bold");
    double x = LEFT;
    boolean shade = false;
    for (RealDatabaseHarness.Phase phase : phases) {
      double w = phase.seconds() * xScale;
      s.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d'"
          + " fill='%s'/>%n", x, top, w, PANEL + MISSED, shade ? "#f0f0f0" : "#fafafa"));
      text(s, x + 4, top + 14, phase.name(), "normal");
      x += w;
      shade = !shade;
    }
    int base = top + PANEL;
    for (int cap = 0; cap <= RealDatabaseHarness.pool; cap += 8) {
      double y = base - cap * yScale;
      s.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f'"
          + " stroke='#ccc'/>%n", LEFT, WIDTH - RIGHT, y, y));
      text(s, LEFT - 24, y + 4, Integer.toString(cap), "normal");
    }
    for (int sec = 0; sec <= seconds; sec += 3) {
      text(s, LEFT + sec * xScale - 4, base + MISSED + 16, sec + " s", "normal");
    }
    int legend = top + 20;
    for (Tally t : tallies) {
      String colour = colours.get(t.gate);
      if (colour == null) {
        continue;
      }
      s.append("<polyline fill='none' stroke-width='2' stroke='").append(colour)
          .append("' points='");
      for (int b = 0; b < t.caps.length; b++) {
        s.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + (b + 0.5) * xScale / 4,
            base - t.caps[b] * yScale));
      }
      s.append("'/>\n");
      s.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='%s'"
          + " stroke-width='3'/>%n", WIDTH - RIGHT + 10, WIDTH - RIGHT + 30, legend, legend,
          colour));
      text(s, WIDTH - RIGHT + 36, legend + 4, t.gate, "normal");
      legend += 18;
      if (t.gate.equals("Sluice auto")) {
        missed(s, t, xScale, base + MISSED, colour);
      }
    }
    text(s, WIDTH - RIGHT + 10, base + 30, "auto: missed the", "normal");
    text(s, WIDTH - RIGHT + 10, base + 44, "deadline per 250 ms", "normal");
  }

  /** Bars of the statements that missed their deadline, per bin, scaled to the bin's largest. */
  private static void missed(StringBuilder s, Tally t, double xScale, int bottom, String colour) {
    int most = 1;
    for (int b = 0; b < t.caps.length; b++) {
      most = Math.max(most, t.late.get(b));
    }
    for (int b = 0; b < t.caps.length; b++) {
      double h = (MISSED - 8.0) * t.late.get(b) / most;
      if (h > 0) {
        s.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f'"
            + " fill='%s' opacity='0.6'/>%n", LEFT + b * xScale / 4, bottom - h, xScale / 4 - 1,
            h, colour));
      }
    }
    text(s, LEFT + 2, bottom - MISSED + 18, "(most: " + most + ")", "normal");
  }

  private static void text(StringBuilder s, double x, double y, String text, String weight) {
    s.append(String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' font-weight='%s'>%s</text>%n",
        x, y, weight, text));
  }
}
