package dev.sluice;

import dev.sluice.internal.answer.AnswerSettings;
import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.config.Division;
import dev.sluice.internal.config.FlagSource;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.config.RedisUri;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.jdbc.Connections;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.HeldCount;
import dev.sluice.internal.limit.LimitSettings;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import dev.sluice.internal.limit.Ticker;
import dev.sluice.internal.redis.DemandShare;
import dev.sluice.internal.redis.RedisHealth;
import dev.sluice.internal.redis.RedisLink;
import dev.sluice.internal.redis.RedisLinks;
import dev.sluice.internal.redis.Registry;
import dev.sluice.internal.redis.ResultChannel;
import dev.sluice.internal.trace.Tracing;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One enforcer, built from checked settings: its limiter and the background work it owns (a Redis
 * flag reader, a registry member). Shared by {@link RateLimitedDataSource} and the driver.
 *
 * <p>This class is threadsafe; {@link #close()} is idempotent.
 */
final class Enforcer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final Limiter limiter;
  private final Settings settings;
  private final List<AutoCloseable> owned;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Answers instead of refusals ({@code sluice.stale.max-age}); {@code null}: off. */
  private final Answers answers;
  /** The kept results shared with the other instances; {@code null}: not shared. */
  private final ResultChannel sharing;
  /** Every figure, read when asked and acting on nothing. */
  private final Figures figures;

  private Enforcer(Limiter limiter, Settings settings, List<AutoCloseable> owned,
      Registry registry, Answers answers, ResultChannel sharing) {
    this.limiter = limiter;
    this.settings = settings;
    this.owned = owned;
    this.answers = answers;
    this.sharing = sharing;
    this.figures = new Figures(limiter, registry == null ? null : registry::liveCount, answers);
  }

  /**
   * Checks the settings across keys and builds the enforcer.
   *
   * @param settings the checked settings, {@code sluice.name} and {@code sluice.budget} set
   * @param explicitFlag a flag given in code, winning over {@code sluice.flag}; or {@code null}
   * @param driverMode whether the connections are made by {@link SluiceDriver}
   * @throws IllegalArgumentException naming the key when the settings do not fit together
   */
  static Enforcer open(Settings settings, BreakerFlag explicitFlag, boolean driverMode) {
    // in driver mode the pool sits above Sluice, unseen: its size is unknown
    return open(driverMode ? PoolSize.fitMax(settings, 0) : settings, explicitFlag, driverMode,
        Ticker.system());
  }

  static Enforcer open(Settings settings, BreakerFlag explicitFlag, boolean driverMode,
      Ticker ticker) {
    SettingsCheck.acrossKeys(settings);
    List<AutoCloseable> owned = new ArrayList<>();
    try {
      return open(settings, explicitFlag, driverMode, ticker, owned);
    } catch (RuntimeException | Error e) {
      closeAll(owned, settings.get(Keys.NAME));
      throw e;
    }
  }

  private static Enforcer open(Settings settings, BreakerFlag explicitFlag, boolean driverMode,
      Ticker ticker, List<AutoCloseable> owned) {
    String name = settings.get(Keys.NAME);
    double count = SettingsCheck.firstCount(settings);
    Bucket bucket = Bucket.of(settings.get(Keys.BUDGET) / count, firstBurst(settings, count),
        settings.get(Keys.RESERVE), ticker);
    boolean flagFromRedis = explicitFlag == null && flagSource(settings) == FlagSource.REDIS;
    RedisLink link = null;
    RedisHealth health = null;
    boolean share = settings.get(Keys.STALE_SHARE);
    if (flagFromRedis || settings.get(Keys.INSTANCES).fromRedis() || share) {
      link = RedisLinks.connect(RedisUri.endpoint(settings),
          settings.get(Keys.REDIS_TIMEOUT), "sluice-" + name);
      owned.add(link);
      // one tracker per use: Redis may serve the registry and refuse the flag (an ACL)
      health = new RedisHealth(name, Keys.REDIS.show(settings.get(Keys.REDIS)),
          "the breaker flag's reads", settings.get(Keys.REDIS_UNREACHABLE).meanwhile());
    }
    BreakerFlag flag = flagFromRedis ? redisFlag(settings, link, health, ticker, owned)
        : explicitFlag != null ? explicitFlag
        : flagSource(settings) == FlagSource.MANUAL ? BreakerFlag.manual()
        : BreakerFlag.alwaysOpen();
    Limiter limiter = new Limiter(name, limitSettings(settings), bucket, flag, count, driverMode,
        ticker, Priority.OF_CODE);
    if (flag instanceof RedisBreakerFlag redisFlag) { // also one given in code
      limiter.hold().openPresumedBy(redisFlag::openWasPresumed);
    }
    AnswerSettings answering = answerSettings(settings);
    Answers answers = !answering.on() ? null
        : share ? Answers.sharing(name, answering, ticker, StaleResultWarning.STALE,
            SettingsCheck.shareKeys(settings, System::getenv),
            settings.get(Keys.STALE_SHARE_ENCRYPT))
        : Answers.create(name, answering, ticker, StaleResultWarning.STALE);
    if (answers != null) { // before any connection can ask: published with the limiter
      limiter.follow(answers::limitingStarted, answers::limitingStopped, answers::summaryNote);
    }
    limiter.decisions(Tracing.decisions(name)); // null without a tracing library; same publication
    ResultChannel sharing = null;
    if (share) {
      sharing = ResultChannel.start(name, link, settings.get(Keys.REDIS_TIMEOUT),
          settings.get(Keys.REDIS_PING), answers::warmUpSharing, answers::nextShared,
          answers::heard, answers::unsent, answers::channelHeard);
      owned.add(0, sharing); // closed before the link
    }
    Registry registry = settings.get(Keys.INSTANCES).fromRedis()
        ? startRegistry(settings, link, health, limiter, ticker, owned) : null;
    Enforcer opened = new Enforcer(limiter, settings, Collections.unmodifiableList(owned),
        registry, answers, sharing);
    if (settings.get(Keys.JMX)) {
      // after the enforcer exists, for its figures; its list is a view, so it sees this
      owned.add(0, EnforcerJmx.register(limiter, opened.figures())); // unregistered first
    }
    LOG.info("{} - Sluice limiter built: budget {} permits/s {}, this instance admits {}/s,"
        + " burst {}, scope {}, flag {}; settings {}", name,
        Share.rate(settings.get(Keys.BUDGET)), dividedBy(settings, limiter),
        Share.rate(bucket.permitsPerSecond()), bucket.burst(), limiter.scope(), flag,
        settings.describe());
    return opened;
  }

  /** How the budget is divided, for the log line: a fixed count, or the registry's. */
  private static String dividedBy(Settings settings, Limiter limiter) {
    if (!settings.get(Keys.INSTANCES).fromRedis()) {
      return "over " + settings.get(Keys.INSTANCES) + " instance(s)";
    }
    return "divided by " + Share.rate(limiter.share().instances()) + " instance(s) for now (the"
        + " live count in Redis, sluice.instances=redis)";
  }

  /** The settings of answers instead of refusals, each key checked on its own already. */
  /** The limiter's settings from the key table: where the map stops for {@code internal.limit}. */
  static LimitSettings limitSettings(Settings settings) {
    return new LimitSettings(settings.get(Keys.BUDGET),
        settings.isSet(Keys.BURST) ? settings.get(Keys.BURST) : 0, settings.get(Keys.SCOPE),
        settings.get(Keys.POOL_AUTO_COMMIT), settings.get(Keys.STACK_TRACES),
        settings.get(Keys.SUMMARY_INTERVAL), settings.get(Keys.MODE) == Mode.SHADOW,
        settings.get(Keys.RECOVERY_SETTLE), settings.get(Keys.RECOVERY_THRESHOLD),
        settings.get(Keys.CONCURRENCY), settings.get(Keys.RESERVE),
        settings.get(Keys.CONCURRENCY_MIN), settings.get(Keys.CONCURRENCY_MAX));
  }

  static AnswerSettings answerSettings(Settings settings) {
    return new AnswerSettings(settings.get(Keys.STALE_MAX_AGE), settings.get(Keys.STALE_WAIT),
        settings.get(Keys.STALE_MAX_ROWS), settings.get(Keys.STALE_MEMORY));
  }

  /** The burst before any count arrives; checked across keys, so it fits a bucket as given. */
  private static int firstBurst(Settings settings, double count) {
    return Share.of(settings.get(Keys.BUDGET), count,
        settings.isSet(Keys.BURST) ? settings.get(Keys.BURST) : 0).burst;
  }

  private static BreakerFlag redisFlag(Settings settings, RedisLink link, RedisHealth health,
      Ticker ticker, List<AutoCloseable> owned) {
    RedisBreakerFlag shared =
        RedisBreakerFlag.start(RedisBreakerFlag.Setup.of(settings), link, health, ticker);
    owned.add(0, shared); // closed before the link it reads through
    return shared;
  }

  private static Registry startRegistry(Settings settings, RedisLink link, RedisHealth health,
      Limiter limiter, Ticker ticker, List<AutoCloseable> owned) {
    RedisHealth registryHealth = health.forUse("the instance registry",
        "the budget stays divided as it was last");
    Duration heartbeat = settings.get(Keys.REDIS_HEARTBEAT);
    Duration expiry = settings.get(Keys.INSTANCES_EXPIRY);
    String name = settings.get(Keys.NAME);
    Registry registry = settings.get(Keys.INSTANCES_DIVISION) == Division.DEMAND
        ? new Registry(name, link, registryHealth, heartbeat, expiry,
            new DemandShare(limiter, ticker))
        : new Registry(name, link, registryHealth, heartbeat, expiry,
            new HeldCount(name, settings.get(Keys.INSTANCES_ASSUMED), expiry, ticker)::divisor,
            limiter.share()::setInstances);
    owned.add(0, registry); // leaves before the flag and the link close
    registry.start();
    return registry;
  }

  /** Where the flag comes from: {@code sluice.flag}, else Redis when {@code sluice.redis} is set. */
  static FlagSource flagSource(Settings settings) {
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

  /** The budget's answers instead of refusals, or {@code null} when they are off. */
  Answers answers() {
    return answers;
  }

  /**
   * Makes the budget's wrapper of a connection the pool or the driver handed out: admitted by
   * its limiter, answered from its answers. The one place both meet.
   *
   * @param raw the connection; {@code null} gives {@code null} (and gives the place back)
   * @param checkoutHeld what the checkout's door returned
   * @param user the user it was asked for with, or {@code null}
   * @return the wrapper, or {@code null}
   */
  Connection wrap(Connection raw, int checkoutHeld, String user) {
    return Connections.wrap(raw, limiter, answers, checkoutHeld, user);
  }

  /**
   * Whether this instance hears the kept results the other instances send
   * ({@code sluice.stale.share}): Redis has confirmed its subscription and it is not lost. What
   * is sent before then is never heard here.
   *
   * @return {@code true} while subscribed; {@code false} when results are not shared
   */
  boolean hearsShared() {
    return sharing != null && sharing.listening();
  }

  /**
   * A snapshot of the budget. Taking it changes nothing: no transition, no kept result dropped
   * (those are the request path's, and {@link #close()}'s).
   */
  Stats stats() {
    return new Stats(figures);
  }

  /** The budget's figures, each read when asked: for the meters and the MXBean. */
  Figures figures() {
    return figures;
  }

  /**
   * Stops the limiter first, so that no call obeys a flag whose reader is stopping, then the
   * background work. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      limiter.stop();
      if (answers != null) {
        answers.clear();
      }
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
