package dev.sluice;

import dev.sluice.internal.config.FlagSource;
import dev.sluice.internal.config.Instances;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Ticker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One budget, built from checked settings: its limiter and the background work it owns (a Redis
 * flag reader, a registry member). Shared by {@link RateLimitedDataSource} and the driver.
 *
 * <p>This class is threadsafe; {@link #close()} is idempotent.
 */
final class Budget implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RateLimitedDataSource.class);

  /** The default burst: this much of the share, in seconds. */
  static final double DEFAULT_BURST_SECONDS = 0.1;

  private final Limiter limiter;
  private final Settings settings;
  private final List<AutoCloseable> owned;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Budget(Limiter limiter, Settings settings, List<AutoCloseable> owned) {
    this.limiter = limiter;
    this.settings = settings;
    this.owned = owned;
  }

  /**
   * Checks the settings across keys and builds the budget.
   *
   * @param settings the checked settings, {@code sluice.name} and {@code sluice.budget} set
   * @param explicitFlag a flag given in code, winning over {@code sluice.flag}; or {@code null}
   * @param driverMode whether the connections are made by {@link SluiceDriver}
   * @throws IllegalArgumentException naming the key when the settings do not fit together
   */
  static Budget open(Settings settings, BreakerFlag explicitFlag, boolean driverMode) {
    return open(settings, explicitFlag, driverMode, Ticker.system());
  }

  static Budget open(Settings settings, BreakerFlag explicitFlag, boolean driverMode,
      Ticker ticker) {
    checkAcrossKeys(settings);
    String name = settings.get(Keys.NAME);
    double budget = settings.get(Keys.BUDGET);
    Instances instances = settings.get(Keys.INSTANCES);
    double count = instances.fromRedis() ? 1 : instances.count();
    double share = budget / count;
    int burst = settings.isSet(Keys.BURST) ? settings.get(Keys.BURST) : defaultBurst(share);
    TokenBucket bucket = TokenBucket.of(share, burst, ticker);
    List<AutoCloseable> owned = new ArrayList<>();
    BreakerFlag flag = explicitFlag != null ? explicitFlag : flagFrom(settings);
    Limiter limiter = new Limiter(name, settings, bucket, flag, count, driverMode, ticker);
    if (settings.get(Keys.JMX)) {
      owned.add(BudgetMXBean.register(limiter));
    }
    Budget opened = new Budget(limiter, settings, Collections.unmodifiableList(owned));
    LOG.info("{} - Sluice limiter built: budget {} permits/s over {} instance(s), this instance"
        + " admits {}/s, burst {}, scope {}, flag {}; settings {}", name,
        RateLimitExceededException.formatRate(budget), instances,
        RateLimitExceededException.formatRate(share), burst, limiter.scope(), flag,
        settings.describe());
    return opened;
  }

  /** The default burst: {@value #DEFAULT_BURST_SECONDS} s of the share, at least one permit. */
  static int defaultBurst(double share) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.ceil(share * DEFAULT_BURST_SECONDS)));
  }

  private static void checkAcrossKeys(Settings settings) {
    if (settings.get(Keys.BUDGET) == null) {
      throw Keys.BUDGET.invalid(null);
    }
    boolean hasRedis = settings.get(Keys.REDIS) != null;
    if (settings.get(Keys.INSTANCES).fromRedis() && !hasRedis) {
      throw new IllegalArgumentException("sluice.instances=redis needs sluice.redis, the Redis"
          + " that holds the instance registry; set sluice.redis or give a fixed count");
    }
    if (settings.get(Keys.FLAG) == FlagSource.REDIS && !hasRedis) {
      throw new IllegalArgumentException("sluice.flag=redis needs sluice.redis, the Redis that"
          + " holds the flag; set sluice.redis or use sluice.flag=always");
    }
  }

  private static BreakerFlag flagFrom(Settings settings) {
    FlagSource source = settings.get(Keys.FLAG);
    if (source == null) {
      source = settings.get(Keys.REDIS) != null ? FlagSource.REDIS : FlagSource.ALWAYS;
    }
    if (source == FlagSource.REDIS) {
      throw new UnsupportedOperationException("sluice.flag=redis is not available yet");
    }
    return BreakerFlag.alwaysOpen();
  }

  Limiter limiter() {
    return limiter;
  }

  Settings settings() {
    return settings;
  }

  Stats stats() {
    return new Stats(limiter);
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (AutoCloseable resource : owned) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("{} - failed to close {}", limiter.name(), resource, e);
      }
    }
  }
}
