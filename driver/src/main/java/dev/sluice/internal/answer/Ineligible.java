package dev.sluice.internal.answer;

import java.util.Arrays;
import java.util.List;

/**
 * Why a read Sluice looked at while answering (admitted to be kept, or refused to be answered)
 * could be neither kept nor answered: a bounded set, each with the word its meter's tag and
 * {@code Stats} use. Counted only while limiting with answers on ({@link Answers#notEligible});
 * nothing is counted, nor looked at, on the flag-closed path.
 */
public enum Ineligible {
  /** Inside a transaction, however it began (the connection's state or the database's). */
  TRANSACTION("transaction"),
  /** Text that locks ({@code FOR UPDATE}), writes ({@code WITH … DELETE}), or is no plain read. */
  LOCKING("locking"),
  /** Calls a function, directly or through a view, that the catalog does not call pure. */
  SIDE_EFFECT("side-effect"),
  /** Its session is not known (changed, or not read yet), or the text reads or sets it. */
  SESSION("session"),
  /** A parameter whose value was not seen: set before limiting, or by a setter not recorded. */
  PARAMETERS("parameters"),
  /**
   * A statement answers cannot stand for: a callable one, a scrollable or updatable result,
   * {@code maxFieldSize}, a closed connection.
   */
  STATEMENT("statement"),
  /** A column's type, or a value, the database's dialect does not answer faithfully. */
  TYPE("type"),
  /** More rows than {@code sluice.stale.max-rows}. */
  ROWS("rows"),
  /** Larger than {@code sluice.stale.memory} allows one result. */
  MEMORY("memory"),
  /** Closed, or failed, before it was read to its end: the whole result was never seen. */
  UNFINISHED("unfinished");

  private static final Ineligible[] ALL = values();
  private static final List<String> WORDS =
      Arrays.stream(ALL).map(Ineligible::word).toList();

  private final String word;

  Ineligible(String word) {
    this.word = word;
  }

  /** The reason's word, as a meter's tag. */
  public String word() {
    return word;
  }

  /** The reason of a word, as {@link #word()} gives it; {@code null} for no reason. */
  static Ineligible of(String word) {
    for (Ineligible why : ALL) { // not values(): a read of the figures allocates nothing
      if (why.word.equals(word)) {
        return why;
      }
    }
    return null;
  }

  /** Every reason's word, in a fixed order. */
  public static List<String> words() {
    return WORDS;
  }
}
