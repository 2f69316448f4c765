package dev.sluice.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One application instance for the multi-process tests, run in a JVM of its own: a HikariCP
 * pool, Sluice over it with the given {@code sluice.*} settings, and threads inserting rows into
 * {@code it_hits} as fast as they are let. PostgreSQL stamps each row, so the test counts what
 * the database took, not what Sluice says it admitted.
 *
 * <p>Protocol on stdin/stdout: prints {@code READY} once its share is settled, starts on
 * {@code GO}, prints {@code RESULT ...} and exits after the duration.
 *
 * <p>Arguments: {@code <jdbc url> <run id> <worker id> <threads> <pool size> <duration ms>
 * <expected instances> key=value...} (the {@code sluice.*} settings).
 */
public final class LoadWorker {
  private LoadWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int run = Integer.parseInt(args[1]);
    int worker = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    int poolSize = Integer.parseInt(args[4]);
    long durationMillis = Long.parseLong(args[5]);
    double expectedInstances = Double.parseDouble(args[6]);
    Properties settings = new Properties();
    for (int i = 7; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      settings.setProperty(kv[0], kv[1]);
    }

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    config.setPoolName("worker-" + worker);
    RateLimitedDataSource ds = RateLimitedDataSource.builder(new HikariDataSource(config))
        .properties(settings).build();
    try {
      long settleDeadline = System.currentTimeMillis() + 20_000;
      while (ds.stats().instances() != expectedInstances
          && System.currentTimeMillis() < settleDeadline) {
        Thread.sleep(50);
      }
      System.out.println("READY instances=" + ds.stats().instances());
      BufferedReader in = new BufferedReader(
          new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String command = in.readLine();
      if (!"GO".equals(command)) {
        throw new IllegalStateException("expected GO, got " + command);
      }
      Counters counters = run(ds, run, worker, threads, durationMillis);
      System.out.println("RESULT worker=" + worker + " inserted=" + counters.inserted
          + " rejected=" + counters.rejected + " unexpected=" + counters.unexpected.size()
          + " admitted=" + ds.stats().admitted() + " instances=" + ds.stats().instances()
          + " types=" + counters.unexpected.keySet());
      System.out.flush();
    } finally {
      ds.close();
    }
    System.exit(0);
  }

  static final class Counters {
    final AtomicLong inserted = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final Map<String, String> unexpected = new ConcurrentHashMap<>();
  }

  static Counters run(javax.sql.DataSource ds, int run, int worker, int threads,
      long durationMillis) throws InterruptedException {
    Counters counters = new Counters();
    long end = System.nanoTime() + durationMillis * 1_000_000;
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> insertUntil(ds, run, worker, end, counters));
      thread.start();
      all.add(thread);
    }
    for (Thread thread : all) {
      thread.join();
    }
    return counters;
  }

  private static void insertUntil(javax.sql.DataSource ds, int run, int worker, long end,
      Counters counters) {
    while (System.nanoTime() - end < 0) {
      try (Connection c = ds.getConnection();
          PreparedStatement ps = c.prepareStatement(
              "insert into it_hits(run, worker) values (?, ?)")) {
        ps.setInt(1, run);
        ps.setInt(2, worker);
        ps.executeUpdate();
        counters.inserted.incrementAndGet();
      } catch (RateLimitExceededException e) {
        counters.rejected.incrementAndGet();
        pause(2); // a client backing off a little, so the machine is not all spent on refusals
      } catch (SQLException | RuntimeException e) {
        counters.unexpected.putIfAbsent(e.getClass().getName(), String.valueOf(e.getMessage()));
        pause(10);
      }
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
