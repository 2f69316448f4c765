package dev.sluice.examples.drill;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The instances' HikariCP pools, one per instance, opened once for all the runs of a drill: on a
 * busy 2-core machine opening 200 connections takes seconds, which every run would pay again.
 * A run's instances borrow them ({@link AppInstance}) and leave them open; a pool's connections
 * carry nothing from one run to the next (HikariCP resets what a borrower changed).
 *
 * <p>This class is threadsafe.
 */
final class Pools implements AutoCloseable {
  private static int nextId;

  private final List<HikariDataSource> pools = new ArrayList<>();

  /**
   * Opens {@code instances} pools of {@code size} connections to {@code url}; HikariCP fills
   * them in the background ({@link #awaitFilled}).
   */
  Pools(String url, int instances, int size) {
    this(url, null, instances, size);
  }

  /** As {@link #Pools(String, int, int)}, over {@code db}'s data source when it has one. */
  Pools(SimulatedDatabase db, int instances, int size) {
    this(db.url(), db.target(), instances, size);
  }

  private Pools(String url, DataSource target, int instances, int size) {
    for (int i = 0; i < instances; i++) {
      pools.add(open(url, target, size));
    }
  }

  /** The pool of instance {@code i}, from 0. */
  HikariDataSource get(int i) {
    return pools.get(i);
  }

  /**
   * Waits until every pool holds all its connections, at most {@code timeoutNanos} in all; a
   * pool still short then is left to fill while the run goes on.
   */
  void awaitFilled(long timeoutNanos) {
    long deadline = System.nanoTime() + timeoutNanos;
    for (HikariDataSource pool : pools) {
      while (pool.getHikariPoolMXBean().getTotalConnections() < pool.getMaximumPoolSize()
          && System.nanoTime() - deadline < 0) {
        LockSupport.parkNanos(5_000_000L);
      }
    }
  }

  /** One pool; its name numbers it among all the drill's pools. */
  static HikariDataSource open(String url, int size) {
    return open(url, null, size);
  }

  /** One pool over {@code target}, or over H2's {@code url} when it is {@code null}. */
  static HikariDataSource open(String url, DataSource target, int size) {
    int id;
    synchronized (Pools.class) {
      id = ++nextId;
    }
    HikariConfig config = new HikariConfig();
    if (target == null) {
      config.setJdbcUrl(url);
      config.setUsername("sa");
      config.setPassword("");
    } else {
      config.setDataSource(target);
    }
    config.setPoolName("drill-app" + id);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setConnectionTimeout(1000);
    return new HikariDataSource(config);
  }

  @Override
  public void close() {
    pools.forEach(HikariDataSource::close);
  }
}
