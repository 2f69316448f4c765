package dev.sluice.internal.answer;

import static dev.sluice.internal.answer.Wire.count;
import static dev.sluice.internal.answer.Wire.readString;

import dev.sluice.internal.answer.Wire.Unshareable;
import dev.sluice.internal.answer.Wire.Writer;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Timestamp;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A kept result as bytes and back, exactly, to share it with the other instances of its budget:
 * its key, column metadata, every value's {@code getObject}, {@code getString} and
 * {@code getBytes}, and its age (not the local clock, which means nothing elsewhere).
 *
 * <p>The format (big-endian): a version byte; the age in nanoseconds; the dialect's name; the
 * key (SQL, each parameter's setter by name, its extra and its value, {@code maxRows}, user,
 * catalog, schema, the session's fingerprint); the column count and each column's
 * {@link Columns#PROPERTIES} answers; the row count and each value's three forms, each a {@link WireValue} over the bytes of
 * {@link Wire}.
 *
 * <p>A result holding a value of a class {@link WireValue} does not carry is not shared —
 * nothing is guessed. Decoding trusts nothing: every count and length is checked against the
 * bytes left before anything is allocated, so garbage costs at most a few times its own size, and
 * any malformed, truncated or foreign input decodes to {@code null}.
 *
 * <p>Stateless, so threadsafe.
 */
final class KeptCodec {
  /** The largest encoding; a larger result is not shared. */
  static final int MAX_BYTES = Wire.MAX_BYTES;

  private static final byte VERSION = 2; // 2: the session's fingerprint in the key
  private static final AtomicBoolean WARMED = new AtomicBoolean();
  private static final Dialect[] DIALECTS = {PostgresDialect.INSTANCE, H2Dialect.INSTANCE,
      MariaDbDialect.INSTANCE, MariaDbDialect.WITHOUT_TIME, MySqlDialect.TEXT,
      MySqlDialect.BINARY, MySqlDialect.TEXT_WITHOUT_TIME, MySqlDialect.BINARY_WITHOUT_TIME};

  private KeptCodec() {}

  /**
   * Encodes and decodes a small result {@code rounds} times, so that the codec is loaded and
   * compiled when sharing starts rather than when an outage's first results arrive: then the
   * machine is busiest, a background thread gets a small share of its CPUs, and an interpreted
   * codec left results a quarter of a second late in the drill's first second.
   *
   * <p>Once per JVM: the compiled code serves every budget, and a second budget's warm-up would
   * only burn a core.
   *
   * @param rounds how many times; a few thousand let the JIT compile the codec
   */
  static void warmUp(int rounds) {
    if (!WARMED.compareAndSet(false, true)) {
      return;
    }
    Kept kept = sample("SELECT id, name FROM items WHERE id = 1", 0);
    if (kept == null) {
      return;
    }
    for (int i = 0; i < rounds; i++) {
      byte[] encoded = encode(kept, i);
      if (encoded == null || decode(encoded, i) == null) {
        return;
      }
    }
  }

  /**
   * A kept result of one row, an {@code INTEGER} 1 and a {@code VARCHAR} "one", as H2 returns
   * them: what {@link #warmUp} encodes.
   *
   * @return the result, or {@code null} if {@code sql} is not a read
   */
  static Kept sample(String sql, long keptAtNanos) {
    Object[] column = {"id", "id", 4, "INTEGER", "java.lang.Integer", 32, 0, 11, 0, false,
        false, true, false, true, "PUBLIC", "ITEMS", "SLUICE", false, true, false};
    Object[] answers = new Object[2 * Columns.PROPERTIES];
    System.arraycopy(column, 0, answers, 0, column.length);
    System.arraycopy(column, 0, answers, column.length, column.length);
    answers[column.length] = "name";
    answers[column.length + 1] = "name";
    answers[column.length + 2] = 12;
    answers[column.length + 3] = "CHARACTER VARYING";
    answers[column.length + 4] = "java.lang.String";
    Columns columns = Columns.of(2, answers);
    ReadKey key = ReadKey.of(sql, null, 0, "sluice", null, null);
    return columns == null || key == null ? null
        : new Kept(key, columns, H2Dialect.INSTANCE, new Object[] {1, "one"},
            new String[] {"1", "one"}, new byte[][] {null, null}, 1, 0, keptAtNanos);
  }

  /**
   * The bytes of {@code kept}, carrying its age at {@code nowNanos}.
   *
   * @return the encoding, or {@code null} when it cannot be shared exactly: a value, parameter or
   *     column answer of a class not carried, a string that is not valid UTF-16 (a lone
   *     surrogate), or more than {@link #MAX_BYTES}
   */
  static byte[] encode(Kept kept, long nowNanos) {
    try {
      Writer out = new Writer();
      out.room(9).put(VERSION).putLong(Math.max(0, nowNanos - kept.keptAtNanos()));
      out.string(kept.dialect().name());
      writeKey(out, kept.key());
      Object[] answers = kept.columns().answers();
      out.room(4).putInt(kept.columns().count());
      for (Object a : answers) {
        WireValue.write(out, a);
      }
      out.room(4).putInt(kept.rows());
      for (int r = 0; r < kept.rows(); r++) {
        for (int c = 1; c <= kept.columns().count(); c++) {
          WireValue.write(out, kept.object(r, c));
          WireValue.write(out, kept.text(r, c));
          WireValue.write(out, kept.bytes(r, c));
        }
      }
      return out.toBytes();
    } catch (Unshareable e) {
      return null;
    }
  }

  /**
   * The result {@code bytes} encode, kept {@code age} before {@code nowNanos}.
   *
   * @return the result, or {@code null} for bytes that are not a whole encoding of this version,
   *     or name a dialect, tag or class not known here
   */
  static Kept decode(byte[] bytes, long nowNanos) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      long age = in.get() == VERSION ? in.getLong() : -1;
      if (age < 0) {
        return null;
      }
      Dialect dialect = dialect(readString(in));
      ReadKey key = readKey(in);
      int count = count(in, Columns.PROPERTIES);
      Object[] answers = new Object[count * Columns.PROPERTIES];
      for (int i = 0; i < answers.length; i++) {
        answers[i] = WireValue.read(in, false);
      }
      Columns columns = Columns.of(count, answers);
      int rows = in.getInt();
      long values = (long) rows * count;
      if (columns == null || rows < 0 || values * 3 > in.remaining()) {
        return null;
      }
      Object[] objects = new Object[(int) values];
      String[] texts = new String[(int) values];
      byte[][] raws = new byte[(int) values][];
      long size = Kept.baseBytes(key, columns);
      for (int i = 0; i < values; i++) {
        objects[i] = WireValue.read(in, false);
        texts[i] = Kept.dedup(objects[i], WireValue.readText(in));
        raws[i] = WireValue.readRaw(in);
        size += Kept.valueBytes(objects[i], texts[i], raws[i]);
      }
      return in.hasRemaining() ? null
          : new Kept(key, columns, dialect, objects, texts, raws, rows, size, nowNanos - age);
    } catch (Unshareable | RuntimeException e) {
      return null; // truncated (BufferUnderflowException), out of range (DateTimeException)…
    }
  }

  private static void writeKey(Writer out, ReadKey key) throws Unshareable {
    out.string(key.sql());
    Parameters.Snapshot p = key.parameters();
    out.room(4).putInt(p.values().length);
    for (int i = 0; i < p.values().length; i++) {
      out.string(p.setters()[i].name());
      out.room(8).putLong(p.extras()[i]);
      WireValue.write(out, p.values()[i]);
    }
    out.room(4).putInt(key.maxRows());
    WireValue.write(out, key.user());
    WireValue.write(out, key.catalog());
    WireValue.write(out, key.schema());
    WireValue.write(out, key.session());
  }

  private static ReadKey readKey(ByteBuffer in) throws Unshareable {
    String sql = readString(in);
    int n = count(in, 13); // each: a setter's name (4 bytes or more), its extra, a value's tag
    Object[] values = new Object[n];
    Parameters.Setter[] setters = new Parameters.Setter[n];
    long[] extras = new long[n];
    for (int i = 0; i < n; i++) {
      setters[i] = Parameters.Setter.valueOf(readString(in));
      extras[i] = in.getLong();
      values[i] = WireValue.read(in, true);
    }
    return new ReadKey(sql, new Parameters.Snapshot(values, setters, extras), in.getInt(),
        WireValue.readText(in), WireValue.readText(in), WireValue.readText(in),
        WireValue.readText(in));
  }

  private static Dialect dialect(String name) throws Unshareable {
    for (Dialect d : DIALECTS) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new Unshareable();
  }

}
