package dev.sluice.internal.answer;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps one admitted read's result as its caller reads it. The result set's wrapper calls
 * {@link #leaving} before each {@code next()} and {@link #ended} when {@code next()} returned
 * {@code false}; {@link #abandoned} when it is closed before its end. Each row's values are read
 * once, when the caller moves past the row: the driver's {@code getObject(i)}, and its
 * {@code getString(i)} and {@code getBytes(i)}, since a driver's text of a value (its time zone,
 * its precision, its transfer format) cannot be recovered from the object.
 *
 * <p>It never changes what the caller sees: a driver's exception while reading a row for the
 * store drops the recording and is swallowed; the caller's own calls are untouched. A result is
 * kept only if read to its end, with at most {@code max-rows} rows, and every value of a kind
 * its {@link Dialect} answers faithfully. Where it lands when it ends, kept or dropped, is its
 * {@link Landing}'s business: {@code Answers}, which made it.
 *
 * <p>Not threadsafe: one result set is read by one thread at a time.
 */
public final class Recording {

  /** Where a recording lands when it ends. Called once, on the reading thread. */
  interface Landing {
    /** The result was read to its end within the bounds: keep it, and hand it to any waiters. */
    void keep(Recording recording);

    /** The result cannot be kept: let any waiters for it go. */
    void drop(Recording recording);
  }

  private final Landing landing;
  private final AnswerSettings bounds;
  private final ReadKey key;
  private final Flights.Flight flight;
  private final Columns columns;
  private final Dialect dialect;
  private final long answeredNanos;
  /** The store's clears when the read began ({@code Store.clears()}), or {@code Store.ANY}. */
  private final long clears;
  private final List<Object> objects = new ArrayList<>(64);
  private final List<String> texts = new ArrayList<>(64);
  private final List<byte[]> bytes = new ArrayList<>(64);
  private long size;
  private int rows;
  private boolean onRow;
  private boolean done;
  /** Why it is dropped, if it is: closed before its end unless a row said otherwise. */
  private Ineligible why = Ineligible.UNFINISHED;

  Recording(Landing landing, AnswerSettings bounds, ReadKey key, Flights.Flight flight,
      Columns columns, Dialect dialect, long answeredNanos) {
    this(landing, bounds, key, flight, columns, dialect, answeredNanos, Store.ANY);
  }

  /**
   * As the constructor above, for a read that may be kept only if the store is not cleared
   * before it lands ({@code clears}: {@code Store.clears()} when the read began).
   */
  Recording(Landing landing, AnswerSettings bounds, ReadKey key, Flights.Flight flight,
      Columns columns, Dialect dialect, long answeredNanos, long clears) {
    this.clears = clears;
    this.landing = landing;
    this.bounds = bounds;
    this.key = key;
    this.flight = flight;
    this.columns = columns;
    this.dialect = dialect;
    this.answeredNanos = answeredNanos;
    this.size = Kept.baseBytes(key, columns);
  }

  /**
   * The caller is about to call {@code next()} on {@code live}: keeps the row it leaves.
   *
   * @param live the driver's result set, on the row being left (or before the first)
   */
  public void leaving(ResultSet live) {
    if (done) {
      return;
    }
    if (onRow && !keepRow(live)) {
      abandoned();
    }
    onRow = true;
  }

  /** {@code next()} returned {@code false}: the whole result was read, and is kept. */
  public void ended() {
    if (done) {
      return;
    }
    done = true;
    landing.keep(this);
  }

  /** The result was closed (or failed) before its end: nothing is kept. */
  public void abandoned() {
    if (!done) {
      done = true;
      landing.drop(this);
    }
  }

  private boolean keepRow(ResultSet live) {
    if (rows == bounds.maxRows()) {
      return dropFor(Ineligible.ROWS);
    }
    try {
      for (int c = 1; c <= columns.count(); c++) {
        if (!keepValue(live, c)) {
          return dropFor(Ineligible.TYPE);
        }
      }
    } catch (SQLException | RuntimeException e) {
      return false; // the caller's own calls will meet the driver's failure, if it lasts
    }
    rows++;
    return size <= bounds.memoryBytes() || dropFor(Ineligible.MEMORY);
  }

  private boolean dropFor(Ineligible reason) {
    why = reason;
    return false;
  }

  /** Why it was dropped ({@link Landing#drop}): a row's reason, else unfinished. */
  Ineligible why() {
    return why;
  }

  private boolean keepValue(ResultSet live, int c) throws SQLException {
    Object object = live.getObject(c);
    String text = live.getString(c);
    byte[] raw = dialect.keptBytes(live, c, text, columns.getColumnType(c),
        columns.getColumnTypeName(c));
    if (!Values.isKeepable(object)
        || !dialect.keeps(object, text, columns.getColumnType(c), columns.getColumnTypeName(c))) {
      return false;
    }
    text = Kept.dedup(object, text);
    objects.add(object);
    texts.add(text);
    bytes.add(raw);
    size += Kept.valueBytes(object, text, raw);
    return true;
  }

  ReadKey key() {
    return key;
  }

  Flights.Flight flight() {
    return flight;
  }

  /** The store's clears when the read began, or {@code Store.ANY}. */
  long clears() {
    return clears;
  }

  /**
   * The kept result, stamped with the time its read started (at the latest, when
   * {@code executeQuery} returned), not the time its caller finished reading: an answer's age
   * never understates, and a write that ended after the read began fences it.
   */
  Kept toKept() {
    return new Kept(key, columns, dialect, objects.toArray(), texts.toArray(new String[0]),
        bytes.toArray(new byte[0][]), rows, size, answeredNanos);
  }
}
