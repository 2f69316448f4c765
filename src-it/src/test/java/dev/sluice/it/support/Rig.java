package dev.sluice.it.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import dev.sluice.SluiceDriver;
import dev.sluice.Stats;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * One HikariCP pool over PostgreSQL with Sluice in it, in either {@link Mode}, and a breaker flag
 * the test opens and closes: a manual flag in decorator mode, the Redis flag in driver mode (the
 * only flag a JDBC URL can name besides {@code always}). Limiting stops as the flag closes
 * ({@code sluice.recovery.settle=0}): the rigs test the doors; {@code RecoveryHoldTest} tests the
 * recovery.
 *
 * <p>This class is not threadsafe; the data source it hands out is.
 */
public final class Rig implements AutoCloseable {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Mode mode;
  private final String name;
  private final int poolSize;
  private final HikariDataSource pool;
  private final RateLimitedDataSource decorator;
  private final BreakerFlag.Manual manualFlag;

  private final Postgres pg;

  private Rig(Mode mode, String name, double budget, int burst, Scope scope, int poolSize,
      Postgres pg) {
    this.pg = pg;
    this.mode = mode;
    this.name = name;
    this.poolSize = poolSize;
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    config.setAutoCommit(true); // setAutoCommit(false) is the door of a transaction: keep it ours
    config.setConnectionTimeout(5_000);
    config.addDataSourceProperty("ApplicationName", name);
    if (mode == Mode.DECORATOR) {
      config.setJdbcUrl(pg.jdbcUrl());
      this.pool = new HikariDataSource(config);
      this.manualFlag = BreakerFlag.manual();
      Properties noRecovery = new Properties();
      noRecovery.setProperty("sluice.recovery.settle", "0");
      this.decorator = RateLimitedDataSource.builder(pool).name(name).budget(budget).burst(burst)
          .scope(scope).breakerFlag(manualFlag).properties(noRecovery).build();
    } else {
      setFlagInRedis(false);
      config.setJdbcUrl(pg.sluiceUrl("sluice.name=" + name
          + "&sluice.budget=" + budget + "&sluice.burst=" + burst
          + "&sluice.scope=" + scope.name().toLowerCase(Locale.ROOT)
          + "&sluice.redis=" + Servers.redis().uri() + "&sluice.flag=redis"
          + "&sluice.recovery.settle=0"));
      this.pool = new HikariDataSource(config);
      this.manualFlag = null;
      this.decorator = null;
    }
    awaitFull();
  }

  /**
   * Builds a rig.
   *
   * @param mode decorator or driver
   * @param label a readable part of the budget's name; a sequence number makes it unique
   * @param budget permits per second
   * @param burst bucket depth
   * @param scope what costs a permit
   * @param poolSize the pool's fixed size
   */
  public static Rig of(Mode mode, String label, double budget, int burst, Scope scope,
      int poolSize) {
    return of(mode, label, budget, burst, scope, poolSize, Servers.postgres());
  }

  /** As {@link #of(Mode, String, double, int, Scope, int)}, over the given server. */
  public static Rig of(Mode mode, String label, double budget, int burst, Scope scope,
      int poolSize, Postgres pg) {
    String name = "it-" + label + "-" + mode.name().toLowerCase(Locale.ROOT) + "-"
        + SEQUENCE.incrementAndGet();
    return new Rig(mode, name, budget, burst, scope, poolSize, pg);
  }

  /** What the framework gets: the decorator, or the pool whose driver is Sluice's. */
  public DataSource dataSource() {
    return mode == Mode.DECORATOR ? decorator : pool;
  }

  public HikariDataSource pool() {
    return pool;
  }

  public String name() {
    return name;
  }

  public Mode mode() {
    return mode;
  }

  /** Opens the breaker flag and returns once the limiter acts on it. */
  public void openFlag() {
    if (mode == Mode.DECORATOR) {
      manualFlag.trip();
      return;
    }
    setFlagInRedis(true);
    Waits.until(Duration.ofSeconds(10), "the driver sees the open flag of " + name,
        () -> driverStats().limiting());
  }

  /** Closes the breaker flag and returns once the limiter acts on it. */
  public void closeFlag() {
    if (mode == Mode.DECORATOR) {
      manualFlag.reset();
      return;
    }
    setFlagInRedis(false);
    Waits.until(Duration.ofSeconds(10), "the driver sees the closed flag of " + name,
        () -> !driverStats().limiting());
  }

  private void setFlagInRedis(boolean open) {
    Servers.redis().setFlag(name, open);
  }

  /** The figures of this rig's budget in the driver. */
  public Stats driverStats() {
    return SluiceDriver.stats(name).orElseThrow(
        () -> new AssertionError("the driver has no budget named " + name));
  }

  /** Waits until the pool holds all its connections, so totals compare. */
  public void awaitFull() {
    Waits.until(Duration.ofSeconds(15), "pool " + name + " holds " + poolSize + " connections",
        () -> pool.getHikariPoolMXBean().getTotalConnections() == poolSize);
  }

  /** Reads the pool's state from HikariCP and from pg_stat_activity. */
  public PoolState state() {
    var bean = pool.getHikariPoolMXBean();
    return new PoolState(bean.getTotalConnections(), bean.getActiveConnections(),
        pg.backendPids(name));
  }

  @Override
  public void close() {
    if (decorator != null) {
      try {
        decorator.close(); // closes the pool too
      } catch (Exception e) {
        throw new IllegalStateException("closing " + name + " failed", e);
      }
    } else {
      pool.close();
      setFlagInRedis(false);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
