package dev.sluice.internal.answer;

import dev.sluice.Priority;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of answers, without a database, for a 10-row result of two columns ({@code int4},
 * {@code text}) as PostgreSQL's driver hands them over: {@code keep} records the ten rows as a
 * caller reads them (three reads a value) and puts the result in the store; {@code answer} finds
 * it and reads it back (a {@code getInt} and a {@code getString} a row); {@code readOnly} reads
 * the same rows from an answered result made beforehand, the baseline of the reading. With
 * {@code sluice.stale.share}, off the request path: {@code share} queues the result and makes the
 * message that carries it to the other instances (the sending thread's work), {@code hear} reads
 * such a message back into a result (the subscriber's); {@code shareSealed} and {@code hearSealed}
 * the same with {@code sluice.stale.share-encrypt}. In package
 * {@code dev.sluice.internal.answer} to reach the room's package-private classes.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar AnswerBenchmark -t 1 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnswerBenchmark {
  private static final int ROWS = 10;

  private final AnswerSettings settings =
      new AnswerSettings(Duration.ofHours(1), Duration.ZERO, 1000, 32L << 20);
  private Answers answers;
  private ReadKey key;
  private Kept source;
  private Columns columns;
  private long now;
  private final ShareKeys keys = ShareKeys.of("bench-0123456789abcdef0123456789abcdef");
  private final Sharing sender = new Sharing("bench", keys, 3_600_000, System::currentTimeMillis);
  private final Sharing sealer =
      new Sharing("bench", keys, true, 3_600_000, System::currentTimeMillis);
  private final String environment = Sharing.environment("PostgreSQL JDBC Driver", "42.7");
  private String message;
  private String sealedMessage;
  /** The signed part of {@link #message} and its signature. */
  private String signedText;
  private String signature;

  @Setup
  public void setUp() throws SQLException {
    answers = Answers.create("bench", settings, () -> now, (n, a, j) -> new Stale());
    key = ReadKey.of("SELECT id, name FROM users WHERE team = ?", null, 0, "app", null, null);
    columns = Columns.read(metaData());
    Object[] objects = new Object[ROWS * 2];
    String[] texts = new String[ROWS * 2];
    byte[][] bytes = new byte[ROWS * 2][];
    for (int r = 0; r < ROWS; r++) {
      objects[2 * r] = r;
      texts[2 * r] = Integer.toString(r);
      objects[2 * r + 1] = "name-" + r;
      texts[2 * r + 1] = "name-" + r;
      bytes[2 * r] = texts[2 * r].getBytes();
      bytes[2 * r + 1] = texts[2 * r + 1].getBytes();
    }
    source = new Kept(key, columns, PostgresDialect.INSTANCE, objects, texts, bytes, ROWS, 1000,
        0);
    keep(); // so that answer() finds a result
    message = share();
    sealedMessage = shareSealed();
    signedText = "sluice:bench:answers\n" + message.substring(0, message.lastIndexOf(' '));
    signature = message.substring(message.lastIndexOf(' ') + 1);
  }

  /** Queues the kept result for the other instances and encodes it into a message. */
  @Benchmark
  public String share() {
    sender.offer(Store.Slot.holding(source));
    return sender.next(environment, () -> now);
  }

  /**
   * Reads a message of another instance back into the result it carries: verified, then
   * decoded. A receiver of its own each time (a message is heard once: the same again is a
   * replay), whose making is part of the figure.
   */
  @Benchmark
  public long hear() {
    long[] rows = new long[1];
    new Sharing("bench", keys, 3_600_000, System::currentTimeMillis)
        .read(message, environment, now, kept -> rows[0] += kept.rows());
    return rows[0];
  }

  /** As {@link #share()}, the result encrypted ({@code sluice.stale.share-encrypt}). */
  @Benchmark
  public String shareSealed() {
    sealer.offer(Store.Slot.holding(source));
    return sealer.next(environment, () -> now);
  }

  /** As {@link #hear()}, the result decrypted. */
  @Benchmark
  public long hearSealed() {
    long[] rows = new long[1];
    new Sharing("bench", keys, 3_600_000, System::currentTimeMillis)
        .read(sealedMessage, environment, now, kept -> rows[0] += kept.rows());
    return rows[0];
  }

  /** Signs the message of a 10-row result (HMAC-SHA256 over its text): part of share(). */
  @Benchmark
  public String sign() {
    return keys.sign(signedText);
  }

  /** Verifies the signature of the message of a 10-row result: part of hear(). */
  @Benchmark
  public boolean verify() {
    return keys.verify(keys.signingId(), signedText, signature);
  }

  /** Records a 10-row result as its caller reads it, and keeps it. */
  @Benchmark
  public int keep() throws SQLException {
    ResultSet live = new AnsweredResultSet(source, PostgresDialect.INSTANCE, null, null);
    Recording recording = new Recording(answers.landing(), settings, key, null, columns,
        PostgresDialect.INSTANCE, now);
    int sum = 0;
    while (true) {
      recording.leaving(live);
      if (!live.next()) {
        break;
      }
      sum += live.getInt(1);
    }
    recording.ended();
    return sum;
  }

  /** Answers the read from the kept result and reads its 10 rows. */
  @Benchmark
  public int answer() throws SQLException {
    return read(answers.answer(key, null, Priority.NORMAL));
  }

  /** Reads 10 rows of an answered result made beforehand: the baseline of the reading. */
  @Benchmark
  public int readOnly() throws SQLException {
    return read(new AnsweredResultSet(source, PostgresDialect.INSTANCE, null, null));
  }

  private static int read(ResultSet rs) throws SQLException {
    int sum = 0;
    while (rs.next()) {
      sum += rs.getInt(1) + rs.getString(2).length();
    }
    return sum;
  }

  /** Stackless, as {@code StaleResultWarning} is. */
  private static final class Stale extends SQLWarning {
    private static final long serialVersionUID = 1L;

    @Override
    public Throwable fillInStackTrace() {
      return this;
    }
  }

  private static ResultSetMetaData metaData() {
    return (ResultSetMetaData) Proxy.newProxyInstance(AnswerBenchmark.class.getClassLoader(),
        new Class<?>[] {ResultSetMetaData.class}, (proxy, method, args) -> {
          int column = args == null ? 0 : (Integer) args[0];
          switch (method.getName()) {
            case "getColumnCount": return 2;
            case "getColumnLabel": case "getColumnName": return column == 1 ? "id" : "name";
            case "getColumnType": return column == 1 ? Types.INTEGER : Types.VARCHAR;
            case "getColumnTypeName": return column == 1 ? "int4" : "text";
            case "getColumnClassName":
              return column == 1 ? "java.lang.Integer" : "java.lang.String";
            default:
              Class<?> type = method.getReturnType();
              return type == boolean.class ? Boolean.FALSE : type == int.class ? (Object) 0 : "";
          }
        });
  }
}
