package dev.sluice.examples.drill;

/**
 * The runs the drill can play, each the same scenario against a different service: what it is
 * called, how the chart draws it and what sits in front of the database. A new kind of run is a
 * new constant here and a case in {@link AppInstance}; the table, the summary and every panel of
 * the chart draw whatever runs were played.
 */
enum RunKind {
  /** The service as it is: every fallback read goes to the database. */
  WITHOUT_SLUICE("without Sluice", "without-sluice", "#d62728", false, false, false),
  /** Sluice over each instance's pool, holding its share of the budget. */
  WITH_SLUICE("with Sluice", "with-sluice", "#1f77b4", true, false, false),
  /**
   * The same, and answering instead of refusing ({@code sluice.stale.max-age}, from
   * {@code --stale-max-age}).
   */
  SLUICE_ANSWERS("Sluice answering", "sluice-answers", "#2ca02c", true, false, true),
  /** Sluice with {@code sluice.concurrency=auto} as well ({@code --capacity-drop}). */
  SLUICE_AUTO("Sluice, auto", "sluice-auto", "#9467bd", true, true, false);

  private final String label;
  private final String id;
  private final String color;
  private final boolean sluice;
  private final boolean auto;
  private final boolean answers;

  RunKind(String label, String id, String color, boolean sluice, boolean auto,
      boolean answers) {
    this.label = label;
    this.id = id;
    this.color = color;
    this.sluice = sluice;
    this.auto = auto;
    this.answers = answers;
  }

  /** What the table and the summary call the run ("with Sluice"). */
  String label() {
    return label;
  }

  /** The run in the chart's element ids ({@code series-with-sluice}). */
  String id() {
    return id;
  }

  /** The run's colour in every panel of the chart. */
  String color() {
    return color;
  }

  /** Whether Sluice is in front of the database. */
  boolean sluice() {
    return sluice;
  }

  /** Whether Sluice also caps concurrency ({@code sluice.concurrency=auto}). */
  boolean auto() {
    return auto;
  }

  /** Whether Sluice answers reads it would refuse ({@code sluice.stale.max-age}). */
  boolean answers() {
    return answers;
  }
}
