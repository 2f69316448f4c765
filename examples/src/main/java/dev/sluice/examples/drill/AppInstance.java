package dev.sluice.examples.drill;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.StaleResultWarning;
import dev.sluice.Stats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * One instance of the service: a pool of worker threads (a web server's), a HikariCP pool with as
 * many connections, and, in the runs with Sluice, a {@link RateLimitedDataSource} over the pool
 * holding this instance's share of the budget (answering the reads it would refuse, in the
 * answering run).
 *
 * <p>A read is for one key of the {@link SimulatedCache} shared by all instances and takes the
 * article's branches, cheapest first: while the breaker is closed the cache answers if it holds the
 * key; a miss reads the database and stores the answer (cache-aside). While the breaker is open the
 * cache is skipped and the read falls back to the database. Every database read goes through
 * Sluice when Sluice is there; it charges only while Sluice is limiting. Only what the database
 * answered is stored: a read Sluice answered instead of refusing it (its result set carries a
 * {@link StaleResultWarning}) reaches its user but not the cache, as docs/answers.md advises; a
 * read refused by Sluice or timed out stores nothing either. A read that waits longer than the timeout for a worker thread
 * fails, as it would behind a real server's accept queue.
 *
 * <p>This class is threadsafe.
 */
final class AppInstance implements AutoCloseable {
  private static final AtomicInteger NEXT = new AtomicInteger();

  private final HikariDataSource pool;
  private final boolean ownsPool;
  private final RateLimitedDataSource sluice;
  private final DataSource database;
  private final ThreadPoolExecutor workers;
  private final BreakerFlag breaker;
  private final SimulatedCache cache;
  private final long timeoutNanos;
  private final Recorder recorder;
  /** With {@code --critical-writes}, reads can wait: they run SHEDDABLE. */
  private final Priority readPriority;

  /**
   * One instance of the service in the run {@code kind}: without Sluice, with it, with it
   * answering ({@code sluice.stale.max-age}) or with {@code sluice.concurrency=auto}.
   */
  AppInstance(String dbUrl, DrillOptions options, RunKind kind, BreakerFlag breaker,
      SimulatedCache cache, Recorder recorder) {
    this(Pools.open(dbUrl, options.threads), true, options, kind, breaker, cache, recorder);
  }

  /**
   * The same over {@code pool}, which this instance closes with itself only if it
   * {@code ownsPool} (a drill's {@link Pools} outlive its runs).
   */
  AppInstance(HikariDataSource pool, boolean ownsPool, DrillOptions options, RunKind kind,
      BreakerFlag breaker, SimulatedCache cache, Recorder recorder) {
    int id = NEXT.incrementAndGet();
    this.pool = pool;
    this.ownsPool = ownsPool;
    // Sluice closes what it wraps: a pool the instance does not own is wrapped in a view
    this.sluice = kind.sluice()
        ? sluice(ownsPool ? pool : new Borrowed(pool), options, kind, breaker) : null;
    this.database = kind.sluice() ? sluice : pool;
    this.breaker = breaker;
    this.cache = cache;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis);
    this.recorder = recorder;
    this.readPriority = options.criticalWrites > 0 ? Priority.SHEDDABLE : Priority.NORMAL;
    int queue = (int) Math.max(16, options.load / options.instances * options.timeoutMillis / 1000);
    this.workers = new ThreadPoolExecutor(options.threads, options.threads, 0,
        TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queue), daemonThreads("app" + id));
    workers.prestartAllCoreThreads();
  }

  /**
   * Sluice over the pool: with the in-process flag and a fixed instance count by default; with
   * {@code --redis}, the flag and the live instance count come from Redis, as in production. The
   * recovery settle is the drill's ({@code --settle}), short enough for the hold to end in the run.
   * In the answering run, {@code sluice.stale.max-age} is {@code --stale-max-age} and, unless
   * {@code --stale-share off}, the instances share their kept results ({@code
   * sluice.stale.share}) through {@code --redis} or the drill's own Redis ({@link SharedRedis});
   * the other {@code sluice.stale.*} keys at their defaults.
   */
  /** The key that signs the drill's shared results: random, the same for all its instances. */
  private static final String DRILL_SHARE_KEY = java.util.HexFormat.of().formatHex(randomBytes());

  private static byte[] randomBytes() {
    byte[] bytes = new byte[24];
    new java.security.SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static RateLimitedDataSource sluice(DataSource pool, DrillOptions options,
      RunKind kind, BreakerFlag breaker) {
    Properties settings = new Properties();
    settings.setProperty("sluice.recovery.settle", options.settleMillis + "ms");
    if (kind.answers()) {
      settings.setProperty("sluice.stale.max-age", options.staleMaxAgeMillis + "ms");
      if (options.staleShare) {
        settings.setProperty("sluice.stale.share", "true");
        // one secret for the drill's instances, made once per JVM: every message is signed
        settings.setProperty("sluice.stale.share-key", DRILL_SHARE_KEY);
        settings.setProperty("sluice.redis",
            options.redis != null ? options.redis : SharedRedis.uri());
      }
    }
    if (kind.auto()) {
      settings.setProperty("sluice.concurrency", "auto");
      // the pool never has more in flight; a higher max would never be half used, and the
      // controller cuts only a cap in use
      settings.setProperty("sluice.concurrency.max", Integer.toString(options.threads));
    }
    RateLimitedDataSource.Builder builder = RateLimitedDataSource.builder(pool)
        .name("drill").budget(options.budget).scope(options.scope);
    if (options.redis == null) {
      return builder.instances(options.instances).breakerFlag(breaker).properties(settings)
          .build();
    }
    settings.setProperty("sluice.redis", options.redis);
    settings.setProperty("sluice.flag", "redis");
    settings.setProperty("sluice.instances", "redis");
    settings.setProperty("sluice.instances.assumed", Integer.toString(options.instances));
    return builder.properties(settings).build();
  }

  /**
   * Waits until the pool holds all its connections (HikariCP opens them in the background), at
   * most {@code timeoutNanos}; a pool still short then is left to fill while the run goes on.
   */
  void awaitPoolFilled(long timeoutNanos) {
    long deadline = System.nanoTime() + timeoutNanos;
    while (pool.getHikariPoolMXBean().getTotalConnections() < pool.getMaximumPoolSize()
        && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(5_000_000L);
    }
  }

  /** Offers one read; it runs on a worker thread, or times out at once if the queue is full. */
  void offer(long offeredAt) {
    try {
      workers.execute(() -> read(offeredAt));
    } catch (RejectedExecutionException e) {
      recorder.timedOut(offeredAt);
      recorder.fate(offeredAt, Recorder.Fate.TIMED_OUT);
    }
  }

  /** Offers one CRITICAL write; it runs on a worker thread, as a read does. */
  void offerWrite(long offeredAt) {
    recorder.write(offeredAt);
    try {
      workers.execute(() -> write(offeredAt));
    } catch (RejectedExecutionException e) {
      recorder.writeRefused(offeredAt);
    }
  }

  /** One write that must get through (an order, a payment): always to the database. */
  void write(long offeredAt) {
    if (System.nanoTime() - offeredAt > timeoutNanos) {
      recorder.writeRefused(System.nanoTime());
      return;
    }
    try {
      Priority.CRITICAL.call(() -> {
        writeToDatabase(ThreadLocalRandom.current().nextInt(cache.keys()) + 1);
        return null;
      });
      recorder.writeServed(System.nanoTime());
    } catch (SQLTransientConnectionException e) { // refused by Sluice, or no connection in time
      recorder.writeRefused(System.nanoTime());
    } catch (Exception e) {
      recorder.failed(e);
    }
  }

  private void writeToDatabase(int userId) throws SQLException {
    try (Connection c = database.getConnection();
        PreparedStatement ps = c.prepareStatement(SimulatedDatabase.write())) {
      ps.setInt(1, userId);
      ps.executeUpdate();
    }
  }

  /** One read, on the calling thread: the cache, else the database (see the class comment). */
  void read(long offeredAt) {
    long now = System.nanoTime();
    if (now - offeredAt > timeoutNanos) {
      recorder.timedOut(now);
      recorder.fate(offeredAt, Recorder.Fate.TIMED_OUT);
      return;
    }
    int key = cache.key(ThreadLocalRandom.current().nextDouble());
    if (!breaker.isOpen()) {
      if (cache.get(key, now)) {
        recorder.cache(now);
        recorder.fate(offeredAt, Recorder.Fate.CACHE);
        return;
      }
      recorder.missed(now);
    }
    try {
      StaleResultWarning answer = readPriority.call(() -> readFromDatabase(key + 1));
      long done = System.nanoTime();
      if (answer == null) {
        recorder.served(done);
        recorder.fate(offeredAt, Recorder.Fate.DATABASE);
      } else {
        recorder.answered(done, answer.ageMillis(), answer.joined());
        recorder.fate(offeredAt, Recorder.Fate.SLUICE);
      }
      if (answer == null) {
        // cache-aside: only what the database answered; an answer is at most max-age old, and
        // stored it would live the cache's TTL on top (docs/answers.md)
        cache.put(key, done);
      }
    } catch (RateLimitExceededException e) {
      recorder.rejected(System.nanoTime()); // the caller gets a 503 at once
      recorder.fate(offeredAt, Recorder.Fate.REFUSED);
    } catch (SQLTransientConnectionException e) {
      recorder.timedOut(System.nanoTime()); // HikariCP found no free connection in time
      recorder.fate(offeredAt, Recorder.Fate.TIMED_OUT);
    } catch (Exception e) {
      recorder.failed(e);
    }
  }

  /**
   * Reads the user's row to the end, as a DAO or {@code JdbcTemplate} does (a result read only
   * in part is never kept for answers).
   *
   * @return Sluice's warning if Sluice answered the read instead of refusing it, else null
   */
  private StaleResultWarning readFromDatabase(int userId) throws SQLException {
    try (Connection c = database.getConnection();
        PreparedStatement ps = c.prepareStatement(SimulatedDatabase.query())) {
      ps.setInt(1, userId);
      try (ResultSet rs = ps.executeQuery()) {
        String name = null;
        while (rs.next()) {
          name = rs.getString(1);
        }
        if (name == null) {
          throw new SQLException("user " + userId + " not found");
        }
        return rs.getWarnings() instanceof StaleResultWarning w ? w : null;
      }
    }
  }

  /**
   * Notes in the recorder whether Sluice is limiting now (flag open, or recovering) and whether it
   * is recovering; nothing without Sluice. Reading the stats also ends a recovery whose settle is
   * over, as a metrics scrape would.
   */
  void recordSluiceState(long now) {
    if (sluice != null) {
      Stats stats = sluice.stats();
      recorder.sluice(now, stats.limiting(), stats.recovering());
    }
  }

  /** Sluice's own count of rejections, or 0 without Sluice. */
  long sluiceRejected() {
    return sluice == null ? 0 : sluice.stats().rejected();
  }

  @Override
  public void close() throws SQLException {
    workers.shutdownNow();
    try {
      workers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // close the pool all the same
    }
    if (sluice != null) {
      closeSluice(); // closes the pool too, if it is the instance's own
    } else if (ownsPool) {
      pool.close();
    }
  }

  /** {@code RateLimitedDataSource.close()} declares {@code Exception}; here only SQL ones occur. */
  private void closeSluice() throws SQLException {
    try {
      sluice.close();
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new SQLException("closing the drill's data source failed", e);
    }
  }

  /** A pool seen as a plain {@link DataSource}: closing what wraps it leaves it open. */
  private static final class Borrowed implements DataSource {
    private final DataSource pool;

    Borrowed(DataSource pool) {
      this.pool = pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
      return pool.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return pool.getConnection(user, password);
    }

    @Override
    public java.io.PrintWriter getLogWriter() throws SQLException {
      return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(java.io.PrintWriter out) throws SQLException {
      pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return pool.getLoginTimeout();
    }

    @Override
    public java.util.logging.Logger getParentLogger()
        throws java.sql.SQLFeatureNotSupportedException {
      return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      return iface.isInstance(this) ? iface.cast(this) : pool.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
      return iface.isInstance(this) || pool.isWrapperFor(iface);
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, prefix + "-worker-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
