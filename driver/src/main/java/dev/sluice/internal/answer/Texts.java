package dev.sluice.internal.answer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the texts of one budget's reads are ({@link Shape}), each judged at its first sight, so
 * that a read answered again and again is not lexed again and again. At most
 * {@link #MAX_ENTRIES} texts of {@link #MAX_CHARS} characters in all are held (threads adding at
 * once may each add one more); past either bound the map is emptied, and a service of more texts
 * judges them again, as it did before this cache.
 *
 * <p>Threadsafe: a concurrent map, whose look-up of a text already seen takes no lock and
 * allocates nothing. Two first sights of one text may both judge it, and find the same shape.
 */
final class Texts {
  /**
   * What a read's text is, as a read about to be kept or answered asks it, judged once per text
   * by {@link Texts}: an outage repeats a few texts thousands of times a second.
   *
   * @param read a single read that takes no lock ({@link ReadText#isRead(String)})
   * @param touchesSession it names {@code set_config} or {@code current_setting}
   *     ({@link SessionText#touchesSession}): never answered, always run
   * @param setConfig a {@code set_config} alone ({@link SessionText#setConfigOf}), else
   *     {@code null}
   */
  record Shape(boolean read, boolean touchesSession, SessionText.Effect setConfig) {
    /** The shape of no text (a batch): not a read. */
    static final Shape NONE = new Shape(false, false, null);

    /** Judges {@code sql}, as {@link Texts} does once per text. */
    static Shape of(String sql) {
      return sql == null ? NONE : new Shape(ReadText.isRead(sql), SessionText.touchesSession(sql),
          SessionText.setConfigOf(sql));
    }
  }

  static final int MAX_ENTRIES = 8_192;
  static final long MAX_CHARS = 4L << 20;
  private final ConcurrentHashMap<String, Shape> bySql = new ConcurrentHashMap<>();
  /** The characters of the texts held, counted as each is added: about, under a race. */
  private final AtomicLong chars = new AtomicLong();

  /** The shape of {@code sql}, judged now if it was not held. */
  Shape of(String sql) {
    if (sql == null) {
      return Shape.NONE;
    }
    Shape shape = bySql.get(sql);
    if (shape != null) {
      return shape;
    }
    shape = Shape.of(sql);
    if (bySql.size() >= MAX_ENTRIES || chars.get() + sql.length() > MAX_CHARS) {
      bySql.clear();
      chars.set(0);
    }
    if (bySql.putIfAbsent(sql, shape) == null) {
      chars.addAndGet(sql.length());
    }
    return shape;
  }

  /** How many texts are held (for tests). */
  int size() {
    return bySql.size();
  }

  /** The characters of the texts held, as counted (for tests). */
  long chars() {
    return chars.get();
  }
}
