package dev.sluice;

import dev.sluice.internal.config.ConcurrencyCap;
import dev.sluice.internal.config.Division;
import dev.sluice.internal.config.FlagSource;
import dev.sluice.internal.config.Instances;
import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.RedisUri;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.DemandShare;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import dev.sluice.internal.limit.Ticker;
import dev.sluice.internal.redis.RedisHealth;
import dev.sluice.internal.redis.RedisLink;
import dev.sluice.internal.redis.Registry;
import java.time.Duration;
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

  private final Limiter limiter;
  private final Settings settings;
  private final List<AutoCloseable> owned;
  private final AtomicBoolean closed = new AtomicBoolean();

  private final Registry registry;

  private Budget(Limiter limiter, Settings settings, List<AutoCloseable> owned,
      Registry registry) {
    this.limiter = limiter;
    this.settings = settings;
    this.owned = owned;
    this.registry = registry;
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
    List<AutoCloseable> owned = new ArrayList<>();
    try {
      return open(settings, explicitFlag, driverMode, ticker, owned);
    } catch (RuntimeException | Error e) {
      closeAll(owned, settings.get(Keys.NAME));
      throw e;
    }
  }

  private static Budget open(Settings settings, BreakerFlag explicitFlag, boolean driverMode,
      Ticker ticker, List<AutoCloseable> owned) {
    String name = settings.get(Keys.NAME);
    double budget = settings.get(Keys.BUDGET);
    Instances instances = settings.get(Keys.INSTANCES);
    double count = firstCount(settings);
    int burst = Share.of(budget, count, settings.isSet(Keys.BURST) ? settings.get(Keys.BURST) : 0)
        .burst; // checked across keys: the share and an explicit burst fit a bucket as given
    Bucket bucket = Bucket.of(budget / count, burst, settings.get(Keys.RESERVE),
        ticker);
    boolean flagFromRedis = explicitFlag == null && flagSource(settings) == FlagSource.REDIS;
    RedisLink link = null;
    RedisHealth health = null;
    if (flagFromRedis || instances.fromRedis()) {
      link = RedisLink.connect(RedisUri.endpoint(settings),
          settings.get(Keys.REDIS_TIMEOUT), "sluice-" + name);
      owned.add(link);
      // one tracker per use: Redis may serve the registry and refuse the flag (an ACL)
      health = new RedisHealth(name, Keys.REDIS.show(settings.get(Keys.REDIS)),
          "the breaker flag's reads",
          settings.get(Keys.REDIS_UNREACHABLE).meanwhile());
    }
    BreakerFlag flag = explicitFlag;
    if (flagFromRedis) {
      RedisBreakerFlag shared = RedisBreakerFlag.start(settings, link, health, ticker);
      owned.add(0, shared); // closed before the link it reads through
      flag = shared;
    } else if (flag == null) {
      flag = flagSource(settings) == FlagSource.MANUAL ? BreakerFlag.manual()
          : BreakerFlag.alwaysOpen();
    }
    Limiter limiter = new Limiter(name, settings, bucket, flag, count, driverMode, ticker,
        RateLimitExceededException.REFUSALS);
    Registry registry = null;
    if (instances.fromRedis()) {
      RedisHealth registryHealth = health.forUse("the instance registry",
          "the budget stays divided as it was last");
      Duration heartbeat = settings.get(Keys.REDIS_HEARTBEAT);
      Duration expiry = settings.get(Keys.INSTANCES_EXPIRY);
      registry = settings.get(Keys.INSTANCES_DIVISION) == Division.DEMAND
          ? new Registry(name, link, registryHealth, heartbeat, expiry,
              new DemandShare(limiter, ticker))
          : new Registry(name, link, registryHealth, heartbeat, expiry, limiter::setInstances);
      owned.add(0, registry); // leaves before the flag and the link close
      registry.start();
    }
    Budget opened = new Budget(limiter, settings, Collections.unmodifiableList(owned), registry);
    if (settings.get(Keys.JMX)) {
      // after the budget exists, for its stats; the budget's list is a view, so it sees this
      owned.add(0, BudgetMXBean.register(limiter, opened::stats)); // unregistered first
    }
    LOG.info("{} - Sluice limiter built: budget {} permits/s over {} instance(s), this instance"
        + " admits {}/s, burst {}, scope {}, flag {}; settings {}", name,
        Share.rate(budget), instances,
        Share.rate(limiter.bucket().permitsPerSecond()), burst,
        limiter.scope(), flag, settings.describe());
    return opened;
  }

  /**
   * The count the budget is divided by at first. Before the registry first answers, the assumed
   * count: never the whole budget unless the user says so ({@code sluice.instances.assumed=1}).
   */
  private static double firstCount(Settings settings) {
    Instances instances = settings.get(Keys.INSTANCES);
    return instances.fromRedis() ? settings.get(Keys.INSTANCES_ASSUMED) : instances.count();
  }

  /**
   * Refuses a budget whose share a bucket cannot hold, and an explicit burst too long for the
   * share, naming the key and the value as the user gave it. Nothing is rounded.
   */
  private static void checkShare(Settings settings) {
    double count = firstCount(settings);
    double share = settings.get(Keys.BUDGET) / count;
    if (!Share.fits(share)) {
      Key<?> counted = settings.get(Keys.INSTANCES).fromRedis()
          ? Keys.INSTANCES_ASSUMED : Keys.INSTANCES;
      String until = counted == Keys.INSTANCES ? "" : " (the count until the registry answers)";
      throw Share.budgetOutOfRange(settings.given(Keys.BUDGET), count,
          counted.name() + "=" + settings.given(counted) + until);
    }
    if (settings.isSet(Keys.BURST) && settings.get(Keys.BURST) > Bucket.maxBurst(share)) {
      throw Share.burstTooLong(settings.given(Keys.BURST), share);
    }
  }

  private static void checkAcrossKeys(Settings settings) {
    if (settings.get(Keys.BUDGET) == null) {
      throw Keys.BUDGET.invalid(null);
    }
    boolean hasRedis = settings.get(Keys.REDIS) != null;
    boolean registry = settings.get(Keys.INSTANCES).fromRedis();
    if (registry && !hasRedis) {
      throw new IllegalArgumentException("sluice.instances=redis needs sluice.redis, the Redis"
          + " that holds the instance registry; set sluice.redis or give a fixed count");
    }
    if (settings.get(Keys.FLAG) == FlagSource.MANUAL && !settings.get(Keys.JMX)) {
      throw new IllegalArgumentException("sluice.flag=manual needs sluice.jmx=true, but"
          + " sluice.jmx was \"false\": the MXBean's tripFlag and resetFlag are the only way to"
          + " switch a manual flag made from settings");
    }
    if (settings.get(Keys.FLAG) == FlagSource.REDIS && !hasRedis) {
      throw new IllegalArgumentException("sluice.flag=redis needs sluice.redis, the Redis that"
          + " holds the flag; set sluice.redis or use sluice.flag=always");
    }
    for (Key<?> key : Keys.REDIS_ONLY) {
      if (settings.isSet(key) && !hasRedis) {
        throw new IllegalArgumentException(key.name() + " is set, but sluice.redis is not: it"
            + " only applies to a Redis flag or registry; set sluice.redis or remove it");
      }
    }
    if (settings.get(Keys.INSTANCES_DIVISION) == Division.DEMAND && !registry) {
      throw new IllegalArgumentException("sluice.instances.division=demand needs"
          + " sluice.instances=redis (the demand travels with the registry's heartbeats), but"
          + " sluice.instances was \"" + settings.given(Keys.INSTANCES) + "\"; set"
          + " sluice.instances=redis or remove sluice.instances.division");
    }
    for (Key<?> key : Keys.REGISTRY_ONLY) {
      if (settings.isSet(key) && !registry) {
        throw new IllegalArgumentException(key.name() + " is set, but sluice.instances is "
            + settings.get(Keys.INSTANCES) + ": it only applies to sluice.instances=redis;"
            + " set that or remove it");
      }
    }
    checkShare(settings);
    checkConcurrency(settings);
    Duration expiry = settings.get(Keys.INSTANCES_EXPIRY);
    Duration needed = settings.get(Keys.REDIS_HEARTBEAT).plus(settings.get(Keys.REDIS_TIMEOUT));
    if (registry && expiry.compareTo(needed) <= 0) {
      throw new IllegalArgumentException("sluice.instances.expiry must be longer than"
          + " sluice.redis.heartbeat plus sluice.redis.timeout (" + needed.toMillis() + " ms), but"
          + " was \"" + expiry.toMillis() + "ms\"; otherwise live instances would be pruned");
    }
  }

  private static void checkConcurrency(Settings settings) {
    ConcurrencyCap cap = settings.get(Keys.CONCURRENCY);
    boolean auto = cap != null && cap.auto();
    for (Key<?> key : List.of(Keys.CONCURRENCY_MIN, Keys.CONCURRENCY_MAX)) {
      if (settings.isSet(key) && !auto) {
        throw new IllegalArgumentException(key.name() + " is set, but sluice.concurrency is "
            + (cap == null ? "not" : "\"" + cap + "\"") + ": it only applies to"
            + " sluice.concurrency=auto; set that or remove it");
      }
    }
    int min = settings.get(Keys.CONCURRENCY_MIN);
    int max = settings.get(Keys.CONCURRENCY_MAX);
    if (auto && min > max) {
      throw new IllegalArgumentException("sluice.concurrency.min must be at most"
          + " sluice.concurrency.max (" + max + "), but was \"" + min + "\"");
    }
  }

  private static FlagSource flagSource(Settings settings) {
    FlagSource source = settings.get(Keys.FLAG);
    if (source == null) {
      source = settings.get(Keys.REDIS) != null ? FlagSource.REDIS : FlagSource.ALWAYS;
    }
    return source;
  }

  Limiter limiter() {
    return limiter;
  }

  Settings settings() {
    return settings;
  }

  Stats stats() {
    return new Stats(limiter, registry == null ? 0 : registry.liveCount());
  }

  /**
   * Stops the limiter first, so that no call obeys a flag whose reader is stopping, then the
   * background work. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      limiter.stop();
      closeAll(owned, limiter.name());
    }
  }

  /** Closes in list order: the registry member, then the flag, then the Redis link. */
  private static void closeAll(List<AutoCloseable> resources, String name) {
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("{} - failed to close {}", name, resource, e);
      }
    }
  }
}
