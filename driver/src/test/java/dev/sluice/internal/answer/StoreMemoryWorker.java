package dev.sluice.internal.answer;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@code StoreMemoryTest}: fills one budget's kept results with a workload and
 * prints what the store reports and what the heap really retains, measured as the heap after a
 * full collection with the results kept, less the heap after one with them cleared.
 *
 * <p>{@code java -Xmx96m -XX:+UseSerialGC ... StoreMemoryWorker <workload> <bound bytes>}; prints
 * {@code figures <workload> bound=<b> reported=<r> retained=<r> entries=<n>}, or dies of
 * {@code OutOfMemoryError}.
 */
public final class StoreMemoryWorker {
  private static final String KEYS = "memory-test-key-0123456789abcdef0123";
  private static final AtomicLong CLOCK = new AtomicLong(1_000_000_000L);
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private StoreMemoryWorker() {}

  public static void main(String[] args) throws Exception {
    String workload = args[0];
    long bound = Long.parseLong(args[1]);
    AnswerSettings settings = new AnswerSettings(Duration.ofHours(1), Duration.ZERO, 100_000,
        bound);
    Answers answers = Answers.create("memory", settings, CLOCK::get,
        (budget, age, joined) -> new java.sql.SQLWarning(budget), 1,
        workload.equals("shared") ? ShareKeys.of(KEYS) : null, false);
    long before = usedAfterGc();
    switch (workload) {
      case "hot" -> hot(answers);
      case "skewed" -> skewed(answers);
      case "wide" -> wide(answers);
      case "shared" -> shared(answers);
      default -> throw new IllegalArgumentException(workload);
    }
    long kept = usedAfterGc();
    long reported = answers.bytes();
    int entries = answers.entries();
    answers.clear();
    long cleared = usedAfterGc();

    System.out.println("figures " + workload + " bound=" + bound + " reported=" + reported
        + " retained=" + (kept - cleared) + " entries=" + entries + " heapBefore=" + before
        + " heapKept=" + kept + " heapCleared=" + cleared);
  }

  /** One read kept again and again (its result of 10 rows), behind 300 others still served. */
  private static void hot(Answers answers) {
    for (int k = 0; k < 300; k++) {
      answers.kept(result("SELECT id, name FROM items WHERE id = " + k, 10, 20));
    }
    for (int i = 0; i < 200_000; i++) {
      answers.kept(result("SELECT id, name FROM items WHERE id = 0 OR id > 1", 10, 20));
    }
  }

  /** 20,000 reads of popularity 1/k^1.4, 300,000 kept, 1 to 20 rows each. */
  private static void skewed(Answers answers) {
    SplittableRandom random = new SplittableRandom(7);
    double[] cumulative = new double[20_000];
    double sum = 0;
    for (int k = 0; k < cumulative.length; k++) {
      cumulative[k] = sum += Math.pow(k + 1, -1.4);
    }
    for (int i = 0; i < 300_000; i++) {
      double u = random.nextDouble() * sum;
      int k = java.util.Arrays.binarySearch(cumulative, u);
      k = k < 0 ? -k - 1 : k;
      answers.kept(result("SELECT id, name FROM items WHERE team = " + k, 1 + k % 20, 30));
    }
  }

  /** Wide results: 1,000 rows of 200-character names, 50 reads kept 10 times each. */
  private static void wide(Answers answers) {
    for (int i = 0; i < 500; i++) {
      answers.kept(result("SELECT id, name FROM items WHERE batch = " + i % 50, 1000, 200));
    }
  }

  /**
   * Results of another instance arriving faster than they are read: 2,000 messages of 64
   * results each; and this instance's own results queued for a sending thread that never runs.
   */
  private static void shared(Answers answers) {
    answers.learned(Sharing.environment("H2 JDBC Driver", "2.3.232"));
    answers.limitingStarted();
    Sharing other = new Sharing("memory", ShareKeys.of(KEYS), 3_600_000,
        System::currentTimeMillis);
    String environment = Sharing.environment("H2 JDBC Driver", "2.3.232");
    for (int m = 0; m < 2_000; m++) {
      for (int r = 0; r < Sharing.BATCH; r++) {
        other.offer(Store.Slot.holding(result("SELECT id, name FROM items WHERE id = "
            + (m * Sharing.BATCH + r), 5, 40)));
      }
      answers.heard(other.next(environment, CLOCK::get));
      answers.kept(result("SELECT id, name FROM own WHERE id = " + m, 50, 100));
    }
  }

  /**
   * A result of {@code rows} rows of an {@code int} and a string, as H2 and pgjdbc give them:
   * each result's metadata its own (its strings copied), as a driver reads it per result.
   */
  static Kept result(String sql, int rows, int nameLength) {
    Kept sample = KeptCodec.sample(sql, CLOCK.get());
    Object[] answers = sample.columns().answers().clone();
    for (int i = 0; i < answers.length; i++) {
      answers[i] = answers[i] instanceof String s ? new String(s.toCharArray()) : answers[i];
    }
    Columns columns = Columns.of(2, answers);
    ReadKey key = ReadKey.of(sql, null, 0, "sluice", null, null);
    Object[] objects = new Object[2 * rows];
    String[] texts = new String[2 * rows];
    byte[][] bytes = new byte[2 * rows][];
    long size = Kept.baseBytes(key, columns);
    StringBuilder name = new StringBuilder(nameLength);
    for (int r = 0; r < rows; r++) {
      objects[2 * r] = 1_000 + r;
      texts[2 * r] = Integer.toString(1_000 + r);
      name.setLength(0);
      for (int c = 0; c < nameLength; c++) {
        name.append((char) ('a' + (r + c) % 26));
      }
      objects[2 * r + 1] = name.toString();
      texts[2 * r + 1] = name.toString(); // an equal String not shared: counted twice
      bytes[2 * r + 1] = texts[2 * r + 1].getBytes(StandardCharsets.UTF_8);
      for (int c = 2 * r; c < 2 * r + 2; c++) {
        size += Kept.valueBytes(objects[c], texts[c], bytes[c]);
      }
    }
    CLOCK.addAndGet(1_000);
    return new Kept(key, columns, H2Dialect.INSTANCE, objects, texts, bytes, rows, size,
        CLOCK.get());
  }

  private static long usedAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50);
      used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
