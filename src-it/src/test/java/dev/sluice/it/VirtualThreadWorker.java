package dev.sluice.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * The virtual-thread workload, run in a JVM of Java 21 or later (this module compiles for 17, so
 * the virtual-thread executor is found by reflection): thousands of virtual threads insert through
 * one small pool with the flag open, while JFR reports every {@code jdk.VirtualThreadPinned}
 * event with its stack.
 *
 * <p>Arguments: {@code <jdbc url> <run id> <budget> <burst> <threads> <pool size> <duration ms>}.
 * Prints {@code RESULT ...} and, for each pinning event in Sluice's code, {@code PINNED ...}.
 */
public final class VirtualThreadWorker {
  private VirtualThreadWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int run = Integer.parseInt(args[1]);
    double budget = Double.parseDouble(args[2]);
    int burst = Integer.parseInt(args[3]);
    int threads = Integer.parseInt(args[4]);
    int poolSize = Integer.parseInt(args[5]);
    long durationMillis = Long.parseLong(args[6]);

    AtomicLong pinnedTotal = new AtomicLong();
    AtomicLong pinnedOurs = new AtomicLong();
    RecordingStream jfr = new RecordingStream();
    jfr.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
    jfr.onEvent("jdk.VirtualThreadPinned", event -> {
      pinnedTotal.incrementAndGet();
      if (inSluice(event)) {
        pinnedOurs.incrementAndGet();
        System.out.println("PINNED " + event);
      }
    });
    jfr.startAsync();

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    config.setConnectionTimeout(60_000);
    RateLimitedDataSource ds = RateLimitedDataSource.builder(new HikariDataSource(config))
        .name("it-virtual-" + run).budget(budget).burst(burst).build();
    AtomicLong inserted = new AtomicLong();
    AtomicLong rejected = new AtomicLong();
    Map<String, String> unexpected = new ConcurrentHashMap<>();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(durationMillis);
    ExecutorService executor = (ExecutorService) Executors.class
        .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    try {
      for (int t = 0; t < threads; t++) {
        int thread = t;
        executor.execute(() -> {
          while (System.nanoTime() - end < 0) {
            try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                    "insert into it_hits(run, worker) values (?, ?)")) {
              ps.setInt(1, run);
              ps.setInt(2, thread);
              ps.executeUpdate();
              inserted.incrementAndGet();
            } catch (RateLimitExceededException e) {
              rejected.incrementAndGet();
              sleep(20);
            } catch (SQLException | RuntimeException e) {
              unexpected.putIfAbsent(e.getClass().getName(), String.valueOf(e.getMessage()));
              sleep(20);
            }
          }
        });
      }
    } finally {
      executor.shutdown();
      executor.awaitTermination(durationMillis + 60_000, TimeUnit.MILLISECONDS);
    }
    Thread.sleep(500); // let JFR deliver the last events
    jfr.close();
    ds.close();
    System.out.println("RESULT java=" + Runtime.version().feature() + " inserted=" + inserted
        + " rejected=" + rejected + " unexpected=" + unexpected.keySet().size()
        + " pinnedTotal=" + pinnedTotal + " pinnedOurs=" + pinnedOurs
        + " types=" + unexpected);
    System.exit(0);
  }

  /**
   * Whether the pin is the library's doing: its stack runs through the library (not this test
   * code), and it is not a wait for another thread to initialise a JDK class (a one-off of the
   * JVM's warm-up that pins whatever happens to be on the stack: every JDBC call passes through
   * our wrappers). On Java 21-23 the stack's monitor owners are also checked through
   * {@code jdk.tracePinnedThreads} by the test.
   */
  private static boolean inSluice(RecordedEvent event) {
    if (event.getStackTrace() == null) {
      return false;
    }
    if (event.hasField("pinnedReason")) {
      String reason = String.valueOf(event.getValue("pinnedReason"));
      if (reason.startsWith("Waited for initialization of") && !reason.contains("dev.sluice")) {
        return false;
      }
    }
    for (RecordedFrame frame : event.getStackTrace().getFrames()) {
      String type = frame.getMethod().getType().getName();
      if (type.startsWith("dev.sluice.") && !type.startsWith("dev.sluice.it.")) {
        return true;
      }
    }
    return false;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
