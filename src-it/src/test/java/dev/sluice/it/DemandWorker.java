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
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One application instance with a fixed offered load, for the demand-division tests, in a JVM of
 * its own: calls arrive at {@code rate} per second whatever happens to them (an open loop, as
 * user requests do), each inserting one row into {@code it_hits} if Sluice admits it.
 *
 * <p>Protocol: prints {@code READY} once built, starts on {@code GO}, prints {@code RESULT ...}
 * and exits (closing the data source: its member leaves the registry) after the duration.
 *
 * <p>Arguments: {@code <jdbc url> <run id> <worker id> <threads> <duration ms> <rate/s>
 * key=value...} (the {@code sluice.*} settings).
 */
public final class DemandWorker {
  private DemandWorker() {}

  public static void main(String[] args) throws Exception {
    int run = Integer.parseInt(args[1]);
    int worker = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    long durationNanos = Long.parseLong(args[4]) * 1_000_000;
    double rate = Double.parseDouble(args[5]);
    Properties settings = new Properties();
    for (int i = 6; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      settings.setProperty(kv[0], kv[1]);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[0]);
    config.setMaximumPoolSize(threads);
    config.setPoolName("demand-" + worker);
    RateLimitedDataSource ds = RateLimitedDataSource.builder(new HikariDataSource(config))
        .properties(settings).build();
    try {
      System.out.println("READY");
      BufferedReader in = new BufferedReader(
          new InputStreamReader(System.in, StandardCharsets.UTF_8));
      if (!"GO".equals(in.readLine())) {
        throw new IllegalStateException("expected GO");
      }
      long from = System.currentTimeMillis();
      long[] counts = offer(ds, run, worker, threads, durationNanos, rate);
      System.out.println("RESULT worker=" + worker + " rate=" + rate + " inserted=" + counts[0]
          + " rejected=" + counts[1] + " unexpected=" + counts[2] + " share="
          + ds.stats().permitsPerSecond() + " live=" + ds.stats().liveInstances() + " from="
          + from + " to=" + System.currentTimeMillis());
      System.out.flush();
    } finally {
      ds.close();
    }
    System.exit(0);
  }

  /** Offers calls at {@code rate}: call k is due k / rate seconds after the start. */
  private static long[] offer(RateLimitedDataSource ds, int run, int worker, int threads,
      long durationNanos, double rate) throws InterruptedException {
    AtomicLong ticket = new AtomicLong();
    AtomicLong inserted = new AtomicLong();
    AtomicLong rejected = new AtomicLong();
    AtomicLong unexpected = new AtomicLong();
    long start = System.nanoTime();
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> {
        for (;;) {
          long due = start + (long) (ticket.getAndIncrement() * 1e9 / rate);
          if (due - start >= durationNanos) {
            return;
          }
          LockSupport.parkNanos(due - System.nanoTime());
          try (Connection c = ds.getConnection();
              PreparedStatement ps = c.prepareStatement(
                  "insert into it_hits(run, worker) values (?, ?)")) {
            ps.setInt(1, run);
            ps.setInt(2, worker);
            ps.executeUpdate();
            inserted.incrementAndGet();
          } catch (RateLimitExceededException e) {
            rejected.incrementAndGet();
          } catch (SQLException | RuntimeException e) {
            unexpected.incrementAndGet();
          }
        }
      });
      thread.start();
      all.add(thread);
    }
    for (Thread thread : all) {
      thread.join();
    }
    return new long[] {inserted.get(), rejected.get(), unexpected.get()};
  }
}
