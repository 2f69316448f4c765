package dev.sluice;

import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.RedisEndpoint;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.config.Unreachable;
import dev.sluice.internal.limit.Ticker;
import dev.sluice.internal.redis.FlagReader;
import dev.sluice.internal.redis.RedisHealth;
import dev.sluice.internal.redis.RedisLink;
import dev.sluice.internal.redis.RedisLinks;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link BreakerFlag} shared by every instance through the Redis key
 * {@code sluice:<name>:breaker}: the flag is open while the key holds {@code open}.
 *
 * <pre>{@code
 * RedisBreakerFlag flag = RedisBreakerFlag.connect("redis://cache-redis:6379", "users-db");
 * // in the application's own circuit breaker:
 * breaker.onOpen(() -> flag.trip(Duration.ofMinutes(5)));
 * breaker.onClose(flag::reset);
 * }</pre>
 *
 * <p>{@link #isOpen()} never talks to Redis: it reads a local copy that background threads keep
 * fresh. One thread reads the key every {@code sluice.redis.refresh} (250 ms by default) with
 * tight timeouts ({@code sluice.redis.timeout}, 200 ms); another subscribes to the channel of the
 * same name, so a change published by {@link #trip}, {@link #reset} or an operator reaches every
 * instance within milliseconds. Polling stays the truth; pub/sub only makes it faster: an
 * {@code open} message opens the flag at once (the safe direction), a {@code closed} message
 * only makes the key be read at once, and the read decides.
 *
 * <p><b>When Redis cannot be read</b> — down, refusing, or silent behind a partition — for
 * {@code sluice.redis.unreachable-after} (4 &times; (refresh + timeout), 1.8 s by default) the
 * flag reports {@link FlagState#UNREACHABLE} and answers open (the cache is most likely down too,
 * which is the case the limiter exists for); {@code sluice.redis.unreachable} may choose
 * {@code closed} or {@code last} instead. Until then a late or failed read keeps the last value:
 * one slow read on a busy CPU is not an outage. A flag that answered open only for that reason
 * starts no recovery hold when Redis answers again with the key closed. When Redis
 * answers again an open key opens the flag at once, but a closed key closes it only after Redis
 * has answered for {@code sluice.redis.settle} (1 s), so that a flapping Redis does not flap the
 * limiter.
 *
 * <p>The background threads are daemon threads named {@code sluice-redis-...}, started when the
 * flag is built and stopped by {@link #close()}. Passwords in the Redis URI never appear in a log
 * line, a {@code toString} or an exception message.
 *
 * <p>This class is threadsafe.
 */
public final class RedisBreakerFlag implements BreakerFlag, AutoCloseable {

  /** What the flag says while Redis cannot be read ({@code sluice.redis.unreachable}). */
  public enum WhenUnreachable {
    /** Answer open: limit the database. The default. */
    OPEN,
    /** Answer closed: let every call through. */
    CLOSED,
    /** Keep answering what was last read; open if nothing was ever read. */
    LAST
  }

  private final String name;
  private final FlagReader reader;
  private final RedisLink ownedLink;
  private final String where;

  private RedisBreakerFlag(String name, FlagReader reader, RedisLink ownedLink, String where) {
    this.name = name;
    this.reader = reader;
    this.ownedLink = ownedLink;
    this.where = where;
  }

  /**
   * Connects a flag with the default timings: the shortcut for
   * {@code builder(redisUri, name).build()}.
   *
   * @param redisUri {@code redis://[user:password@]host:port[/db]} or {@code rediss://...}
   * @param name the budget's name, 1 to 64 of {@code [A-Za-z0-9._-]}
   * @return the running flag; close it when done
   * @throws IllegalArgumentException if the URI or the name is malformed (passwords masked)
   */
  public static RedisBreakerFlag connect(String redisUri, String name) {
    return builder(redisUri, name).build();
  }

  /**
   * Starts a builder for a flag on {@code sluice:<name>:breaker} in the Redis at
   * {@code redisUri}.
   *
   * @param redisUri {@code redis://[user:password@]host:port[/db]} or {@code rediss://...}
   * @param name the budget's name, 1 to 64 of {@code [A-Za-z0-9._-]}
   * @return a new builder
   * @throws IllegalArgumentException if the URI or the name is malformed (passwords masked)
   */
  public static Builder builder(String redisUri, String name) {
    return new Builder(redisUri, name);
  }

  /**
   * What a flag is started with, typed: built from the key table by {@link #of}, the one place a
   * flag reads the settings' map (for {@link Builder} and for {@link Enforcer} alike).
   *
   * @param name the budget's name
   * @param redis the Redis URI as messages show it, its password masked
   * @param timing how often the key is read, how long a read may take, when Redis counts as gone
   * @param whenUnreachable what the flag says while Redis cannot be read
   */
  record Setup(String name, String redis, FlagReader.Timing timing, Unreachable whenUnreachable) {

    /**
     * The flag's settings ({@code sluice.name}, {@code sluice.redis.*}), the unreachable-after
     * checked against refresh plus timeout ({@link SettingsCheck#unreachableAfter}).
     *
     * @throws IllegalArgumentException if the unreachable-after is too short
     */
    static Setup of(Settings settings) {
      return new Setup(settings.get(Keys.NAME), Keys.REDIS.show(settings.get(Keys.REDIS)),
          new FlagReader.Timing(settings.get(Keys.REDIS_REFRESH),
              settings.get(Keys.REDIS_TIMEOUT), settings.get(Keys.REDIS_SETTLE),
              settings.get(Keys.REDIS_PING), SettingsCheck.unreachableAfter(settings)),
          settings.get(Keys.REDIS_UNREACHABLE));
    }
  }

  /** Starts a flag from checked settings, on a link the caller owns. */
  static RedisBreakerFlag start(Setup setup, RedisLink link, RedisHealth health, Ticker ticker) {
    return start(setup, link, health, ticker, null);
  }

  private static RedisBreakerFlag start(Setup setup, RedisLink link, RedisHealth health,
      Ticker ticker, RedisLink owned) {
    FlagReader reader = new FlagReader(setup.name(), link, health, setup.timing(),
        setup.whenUnreachable(), ticker).start();
    return new RedisBreakerFlag(setup.name(), reader, owned, setup.redis());
  }

  /**
   * Returns whether the flag is open: a local read, never a call to Redis.
   *
   * @return {@code true} if the key says {@code open}, or if Redis cannot be read (by default)
   */
  @Override
  public boolean isOpen() {
    return reader.isOpen();
  }

  /**
   * Opens the flag for every instance: casts this flag's vote in {@code sluice:<name>:votes}
   * (expiring with {@code ttl}), sets the key to {@code open} for as long as the longest-lived vote
   * and publishes {@code open}. This instance's flag opens at once, even when Redis does not
   * answer.
   *
   * <p>Blocks at most {@code sluice.redis.timeout} (200 ms by default), whatever Redis does: the
   * write runs on a background thread, which also waits for pooled connections, connects and
   * asks Sentinel. Never throws for a Redis failure.
   *
   * <p><b>The last call wins.</b> A write Redis did not take is not forgotten: it is written again
   * in the background every {@code sluice.redis.refresh} until Redis takes it, unless a later
   * {@code trip} or {@link #reset()} of this flag replaces it, or {@link #close()} drops it. The
   * expiry counts from this call: written later, the key gets what is left of {@code ttl}, and
   * once nothing is left it is deleted instead (a {@code SET} stuck in a frozen Redis may have run
   * on its resume with the whole {@code ttl}). Writes of other instances or operators made while
   * this one was pending are overwritten when it is taken.
   *
   * @param ttl how long the key lives, counted from this call; after that the flag closes unless
   *     tripped again
   * @return {@code true} if Redis took the write within the timeout; {@code false} if it did not
   *     take it in time — refused, unreachable or slow; the write is then still pending, and
   *     other instances may not see the flag open yet
   * @throws IllegalArgumentException if {@code ttl} is not positive
   * @throws NullPointerException if {@code ttl} is null
   */
  public boolean trip(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero() || ttl.toMillis() == 0) {
      throw new IllegalArgumentException("ttl must be at least 1 ms, but was " + ttl);
    }
    return reader.trip(ttl);
  }

  /**
   * Withdraws this flag's vote; when no other flag's vote is live (another instance's breaker that
   * is still open), also closes the flag for every instance: deletes the key and publishes
   * {@code closed}. So several instances' breakers publishing to one key keep it open while any
   * of them says open. This instance's flag closes once Redis took the delete (after an outage,
   * once Redis has answered for {@code sluice.redis.settle}).
   *
   * <p>Blocks at most {@code sluice.redis.timeout}, never throws for a Redis failure, and is
   * written again until Redis takes it, exactly as {@link #trip(Duration)} — but only while the
   * vote it withdraws would live: after that Redis has let it go on its own. After a failed
   * {@code trip} and a failed {@code reset}, the key ends deleted once Redis answers again.
   *
   * @return {@code true} if Redis took the delete within the timeout; {@code false} if it did not
   *     take it in time — the delete is then still pending, and this and the other instances may
   *     still limit
   */
  public boolean reset() {
    return reader.reset();
  }

  /**
   * Returns what the key said at the last read, or {@link FlagState#UNREACHABLE}.
   *
   * @return the source state
   */
  public FlagState state() {
    return reader.state();
  }

  /** Whether the flag's last spell of open was only presumed (Redis unreadable), for the hold. */
  boolean openWasPresumed() {
    return reader.openWasPresumed();
  }

  /**
   * Returns how long ago the last successful read of the key started.
   *
   * @return the age of the local copy; since the flag was built if no read succeeded yet
   */
  public Duration sinceLastRead() {
    return reader.sinceLastRead();
  }

  /**
   * Stops the background threads and, for a flag built with {@link #connect} or
   * {@link #builder}, closes its Redis connections. A {@link #trip}/{@link #reset} write still
   * pending is dropped. Waits for the threads to end (at most about four timeouts when Redis is
   * silent). Idempotent.
   */
  @Override
  public void close() {
    reader.close();
    if (ownedLink != null) {
      ownedLink.close();
    }
  }

  @Override
  public String toString() {
    FlagState state = reader.state();
    String source = state == FlagState.UNREACHABLE ? "Redis unreachable"
        : "key says " + state.name().toLowerCase(Locale.ROOT);
    return "RedisBreakerFlag[" + name + " in " + where + ": " + source + ", flag "
        + (reader.isOpen() ? "open]" : "closed]");
  }

  /**
   * Builds a {@link RedisBreakerFlag}. Each setter checks its value at once.
   *
   * <p>This class is not threadsafe.
   */
  public static final class Builder {
    private Settings settings;

    private Builder(String redisUri, String name) {
      settings = Settings.empty()
          .with(Keys.REDIS, Keys.REDIS.parse(redisUri))
          .with(Keys.NAME, Keys.NAME.parse(name));
    }

    /**
     * Sets how often the key is read ({@code sluice.redis.refresh}, 250 ms by default).
     *
     * @param interval a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder refresh(Duration interval) {
      return duration(Keys.REDIS_REFRESH, interval);
    }

    /**
     * Sets the connect and read timeout, also the longest wait for a pooled connection
     * ({@code sluice.redis.timeout}, 200 ms by default).
     *
     * @param timeout a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder timeout(Duration timeout) {
      return duration(Keys.REDIS_TIMEOUT, timeout);
    }

    /**
     * Sets how long Redis must answer after an outage before a closed key closes the flag
     * ({@code sluice.redis.settle}, 1 s by default).
     *
     * @param settle a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder settle(Duration settle) {
      return duration(Keys.REDIS_SETTLE, settle);
    }

    /**
     * Sets how often the subscriber pings Redis ({@code sluice.redis.ping}, 1 s by default).
     *
     * @param interval a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder ping(Duration interval) {
      return duration(Keys.REDIS_PING, interval);
    }

    /**
     * Sets how long the key may go unread before Redis counts as unreachable
     * ({@code sluice.redis.unreachable-after}, 4 &times; (refresh + timeout) by default); until
     * then a late or failed read keeps the last value.
     *
     * @param silence a duration longer than refresh plus timeout ({@link #build()} checks that)
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder unreachableAfter(Duration silence) {
      return duration(Keys.REDIS_UNREACHABLE_AFTER, silence);
    }

    /**
     * Sets what the flag says while Redis cannot be read ({@code sluice.redis.unreachable},
     * {@link WhenUnreachable#OPEN} by default).
     *
     * @param policy the policy
     * @return this builder
     * @throws NullPointerException if {@code policy} is null
     */
    public Builder whenUnreachable(WhenUnreachable policy) {
      settings = settings.with(Keys.REDIS_UNREACHABLE,
          Unreachable.valueOf(Objects.requireNonNull(policy, "policy").name()));
      return this;
    }

    /**
     * Reads the key once (waiting at most the timeout) and starts the background threads.
     *
     * @return the running flag; close it when done
     * @throws IllegalArgumentException if the unreachable-after is not longer than refresh plus
     *     timeout
     */
    public RedisBreakerFlag build() {
      return build(Ticker.system());
    }

    RedisBreakerFlag build(Ticker ticker) {
      Setup setup = Setup.of(settings); // checked before anything is connected
      RedisEndpoint endpoint = RedisEndpoint.parse(settings.get(Keys.REDIS));
      RedisLink link = RedisLinks.connect(endpoint, setup.timing().timeout(),
          "sluice-" + setup.name());
      RedisHealth health = new RedisHealth(setup.name(), setup.redis(),
          "the breaker flag's reads", setup.whenUnreachable().meanwhile());
      return start(setup, link, health, ticker, link);
    }

    private Builder duration(Key<Duration> key, Duration value) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw key.invalid(value);
      }
      settings = settings.with(key, value);
      return this;
    }
  }
}
