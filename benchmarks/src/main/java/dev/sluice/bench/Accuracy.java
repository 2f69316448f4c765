package dev.sluice.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.TokenBucket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Accuracy, a plain main (not JMH): with the flag open, 8 threads call as fast as they can for 5 s
 * at budgets of 100, 1,000, 10,000 and 100,000 permits/s; for each budget it prints admitted ÷
 * (budget × seconds + burst) and the most calls admitted in any 100 ms window against
 * budget × 0.1 s + burst. Targets: the ratio within 0.98–1.00, no window above its bound.
 *
 * <p>By default the calls are {@code executeQuery()} through {@link RateLimitedDataSource} over
 * HikariCP on the stub driver (statement scope, burst a tenth of a second of the budget);
 * {@code --bucket} asks {@link TokenBucket} directly instead.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.sluice.bench.Accuracy [--bucket] [--seconds 5]
 * </pre>
 */
public final class Accuracy {
  static final double[] BUDGETS = {100, 1_000, 10_000, 100_000};
  static final int THREADS = 8;
  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private Accuracy() {}

  /** One budget's outcome. */
  record Outcome(double budget, int burst, double seconds, long admitted, long rejected,
      long maxInWindow) {

    double expected() {
      return budget * seconds + burst;
    }

    double ratio() {
      return admitted / expected();
    }

    double windowBound() {
      return budget * WINDOW_NANOS / 1e9 + burst;
    }

    boolean met() {
      return ratio() >= 0.98 && ratio() <= 1.0 && maxInWindow <= windowBound();
    }
  }

  public static void main(String[] args) throws Exception {
    boolean bucketOnly = Arrays.asList(args).contains("--bucket");
    int at = Arrays.asList(args).indexOf("--seconds");
    double seconds = at >= 0 ? Double.parseDouble(args[at + 1]) : 5;
    List<Outcome> outcomes = run(bucketOnly, seconds);
    System.out.println(table(outcomes, bucketOnly));
    if (!outcomes.stream().allMatch(Outcome::met)) {
      System.exit(1);
    }
  }

  static List<Outcome> run(boolean bucketOnly, double seconds) throws Exception {
    List<Outcome> outcomes = new ArrayList<>();
    for (double budget : BUDGETS) {
      outcomes.add(bucketOnly ? runBucket(budget, seconds) : runJdbc(budget, seconds));
    }
    return outcomes;
  }

  /** The markdown table of the outcomes. */
  static String table(List<Outcome> outcomes, boolean bucketOnly) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Accuracy (%s, %d threads, flag open)%n%n",
        bucketOnly ? "TokenBucket.tryAcquire()" : "executeQuery() through RateLimitedDataSource",
        THREADS));
    out.append("| budget/s | burst | s | admitted | rejected | admitted ÷ (budget×s + burst)"
        + " | max in 100 ms | bound | target met |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Outcome o : outcomes) {
      out.append(String.format(Locale.ROOT, "| %,.0f | %,d | %.0f | %,d | %,d | %.4f | %,d | %,.0f | %s |%n",
          o.budget(), o.burst(), o.seconds(), o.admitted(), o.rejected(), o.ratio(),
          o.maxInWindow(), o.windowBound(), o.met() ? "yes" : "NO"));
    }
    return out.toString();
  }

  /** What one thread does once: {@code true} if admitted. */
  @FunctionalInterface
  interface Attempt {
    boolean call() throws SQLException;
  }

  static Outcome runBucket(double budget, double seconds) throws Exception {
    int burst = Permits.burstFor(budget);
    TokenBucket bucket = TokenBucket.of(budget, burst);
    Attempt[] attempts = new Attempt[THREADS];
    Arrays.fill(attempts, (Attempt) bucket::tryAcquire);
    return measure(budget, burst, seconds, attempts);
  }

  static Outcome runJdbc(double budget, double seconds) throws Exception {
    int burst = Permits.burstFor(budget);
    try (HikariDataSource pool = Targets.stubPool(THREADS)) {
      RateLimitedDataSource dataSource = RateLimitedDataSource.builder(pool).name("accuracy")
          .budget(budget).burst(burst).breakerFlag(BreakerFlag.alwaysOpen()).build();
      List<Connection> held = new ArrayList<>();
      Attempt[] attempts = new Attempt[THREADS];
      for (int i = 0; i < THREADS; i++) {
        Connection connection = dataSource.getConnection();
        held.add(connection);
        PreparedStatement statement = connection.prepareStatement("select 1");
        attempts[i] = () -> {
          try {
            statement.executeQuery().close();
            return true;
          } catch (RateLimitExceededException e) {
            return false;
          }
        };
      }
      try {
        return measure(budget, burst, seconds, attempts);
      } finally {
        for (Connection connection : held) {
          connection.close();
        }
      }
    }
  }

  /** Runs the attempts on their threads until the deadline; counts and times the admissions. */
  static Outcome measure(double budget, int burst, double seconds, Attempt[] attempts)
      throws Exception {
    long durationNanos = (long) (seconds * 1e9);
    long[] span = new long[2]; // begin and deadline, the same for every thread
    CyclicBarrier start = new CyclicBarrier(attempts.length, () -> {
      span[0] = System.nanoTime();
      span[1] = span[0] + durationNanos;
    });
    long[][] admittedAt = new long[attempts.length][];
    // far more than a working limiter admits; past it a thread only counts (keeps a broken run
    // from filling the heap with instants)
    int timesCap = (int) Math.min(Integer.MAX_VALUE - 8, 2 * budget * seconds + 2L * burst + 1024);
    long[] uncounted = new long[attempts.length];
    long[] rejected = new long[attempts.length];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < attempts.length; i++) {
      int index = i;
      Thread thread = new Thread(() -> {
        try {
          start.await(); // the barrier action's writes happen-before every await's return
          Times times = new Times(timesCap);
          long deadline = span[1];
          // an admission counts if its answer came back before the deadline (a call asked just
          // before it and answered after, once the bucket refilled, is not in the span); its
          // instant is that answer's, at or after the bucket's decision
          while (System.nanoTime() - deadline < 0) {
            if (attempts[index].call()) {
              long answered = System.nanoTime();
              if (answered - deadline < 0) {
                times.add(answered);
              }
            } else {
              rejected[index]++;
            }
          }
          admittedAt[index] = times.toArray();
          uncounted[index] = times.dropped();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }, "accuracy-" + i);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    long[] all = Arrays.stream(admittedAt).flatMapToLong(Arrays::stream).sorted().toArray();
    return new Outcome(budget, burst, seconds, all.length + Arrays.stream(uncounted).sum(),
        Arrays.stream(rejected).sum(),
        maxInWindow(all, WINDOW_NANOS));
  }

  /** The most instants of the sorted {@code times} in any half-open window of the given width. */
  static long maxInWindow(long[] times, long widthNanos) {
    long max = 0;
    int end = 0;
    for (int begin = 0; begin < times.length; begin++) {
      while (end < times.length && times[end] - times[begin] < widthNanos) {
        end++;
      }
      max = Math.max(max, end - begin);
    }
    return max;
  }

  /** A growing array of primitive longs: no boxing while measuring. */
  private static final class Times {
    private final int cap;
    private long[] values = new long[1024];
    private int size;
    private long dropped;

    Times(int cap) {
      this.cap = cap;
    }

    void add(long value) {
      if (size == cap) {
        dropped++;
        return;
      }
      if (size == values.length) {
        values = Arrays.copyOf(values, (int) Math.min(cap, size * 2L));
      }
      values[size++] = value;
    }

    long dropped() {
      return dropped;
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
