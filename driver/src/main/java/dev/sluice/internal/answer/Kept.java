package dev.sluice.internal.answer;

/**
 * One kept result: its column metadata and, for each row and column, the driver's
 * {@code getObject}, {@code getString} and {@code getBytes} of the value, in row order.
 *
 * <p>Immutable once built, and published through the store's concurrent map (a happens-before
 * edge), so threadsafe to read.
 */
final class Kept {
  private final ReadKey key;
  private final Columns columns;
  private final Dialect dialect;
  private final Object[] objects;
  private final String[] texts;
  private final byte[][] bytes;
  private final int rows;
  private final long size;
  private final long keptAtNanos;
  private final boolean heard;
  /** When it was heard here (the answers' clock); meaningless unless {@link #heard}. */
  private final long heardAtNanos;

  Kept(ReadKey key, Columns columns, Dialect dialect, Object[] objects, String[] texts, byte[][] bytes, int rows,
      long size, long keptAtNanos) {
    this(key, columns, dialect, objects, texts, bytes, rows, size, keptAtNanos, false, 0);
  }

  private Kept(ReadKey key, Columns columns, Dialect dialect, Object[] objects, String[] texts,
      byte[][] bytes, int rows, long size, long keptAtNanos, boolean heard, long heardAtNanos) {
    this.heard = heard;
    this.heardAtNanos = heardAtNanos;
    this.key = key;
    this.columns = columns;
    this.dialect = dialect;
    this.objects = objects;
    this.texts = texts;
    this.bytes = bytes;
    this.rows = rows;
    this.size = size;
    this.keptAtNanos = keptAtNanos;
  }

  ReadKey key() {
    return key;
  }

  Columns columns() {
    return columns;
  }

  /** How the driver that produced the values converts them. */
  Dialect dialect() {
    return dialect;
  }

  int rows() {
    return rows;
  }

  /** The driver's {@code getObject} of row {@code row} (0-based), column {@code column} (1-based). */
  Object object(int row, int column) {
    return objects[row * columns.count() + column - 1];
  }

  /** The driver's {@code getString} of the same value. */
  String text(int row, int column) {
    return texts[row * columns.count() + column - 1];
  }

  /** The driver's {@code getBytes} of the same value. */
  byte[] bytes(int row, int column) {
    return bytes[row * columns.count() + column - 1];
  }

  /** The estimated bytes this result holds ({@link Sizes}). */
  long bytes() {
    return size;
  }

  long keptAtNanos() {
    return keptAtNanos;
  }

  /**
   * The estimated bytes of a result's key and column metadata, before its first value: this
   * object (56), its three arrays' headers, its place in the store's map (a node of 32 and a
   * table slot) and the key and columns.
   */
  static long baseBytes(ReadKey key, Columns columns) {
    return 56 + 3 * Sizes.ARRAY + 40 + key.bytes() + columns.bytes();
  }

  /**
   * The text to keep beside {@code object}: the object itself when it is an equal string
   * (pgjdbc's {@code getObject} and {@code getString} of a text column are two equal strings),
   * so that a value is held, and counted, once.
   */
  static String dedup(Object object, String text) {
    return object instanceof String s && s.equals(text) ? s : text;
  }

  /**
   * The estimated bytes one value adds: its three references and what they hold; a text that
   * is the very object {@code getObject} returned (H2's strings) counted once.
   */
  static long valueBytes(Object object, String text, byte[] raw) {
    return 3 * Sizes.REFERENCE + Sizes.of(object) + (text == object ? 0 : Sizes.of(text))
        + Sizes.of(raw);
  }

  /**
   * The same result, marked as sent by another instance ({@code sluice.stale.share}) and heard
   * here at {@code heardAtNanos}.
   */
  Kept asHeard(long heardAtNanos) {
    return new Kept(key, columns, dialect, objects, texts, bytes, rows, size, keptAtNanos, true,
        heardAtNanos);
  }

  /** When another instance's result was heard here (the answers' clock). */
  long heardAtNanos() {
    return heardAtNanos;
  }

  /** Whether another instance kept this result and sent it here. */
  boolean heard() {
    return heard;
  }
}
