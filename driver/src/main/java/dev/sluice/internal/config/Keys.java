package dev.sluice.internal.config;

import dev.sluice.Scope;
import dev.sluice.internal.config.Key.Group;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The table of every {@code sluice.*} key. Adding a key means adding one constant here and
 * listing it in {@link #ALL}; the configuration reference, {@code docs/configuration.md}, is
 * checked against this table.
 *
 * <p>Every key must be writable in nested YAML, where a name cannot hold a value and children
 * at once: a key that is also the prefix of others ({@code sluice.redis}, beside
 * {@code sluice.redis.timeout}) has a second spelling one level down ({@code sluice.redis.uri}),
 * given with {@code .nested(...)}. {@code KeysTest} fails for a prefix without one.
 */
public final class Keys {

  /** The prefix every key shares. */
  public static final String PREFIX = "sluice.";

  public static final Key<String> NAME = Key.named("sluice.name", String.class,
          Key.matching(Pattern.compile("[A-Za-z0-9._-]{1,64}")),
          "be 1 to 64 of the characters A-Z a-z 0-9 . _ -")
      .computedDefault("builder: `default`; driver: derived from the database URL's host, port"
          + " and database (a checksum added when that would be ambiguous)")
      .doc("Names the budget: in Redis keys, metrics, logs and error messages. Every data source"
          + " or URL with the same name in one JVM (driver) or one Redis shares one budget.")
      .group(Group.ESSENTIALS).build();

  public static final Key<Double> BUDGET = Key.named("sluice.budget", Double.class,
          Key::positiveNumber, "be a positive number")
      .computedDefault("required")
      .unit("permits/s")
      .doc("What the database takes on the fallback path, all instances together. Each"
          + " instance's share, budget / instances, must be from 0.001 to 10^9 permits/s (with"
          + " `sluice.instances=10`: a budget from 0.01 to 10^10). A live count from the registry"
          + " that pushes the share below 0.001/s makes that instance admit nothing new, never"
          + " more than its share.")
      .group(Group.ESSENTIALS).build();

  public static final Key<Instances> INSTANCES = Key.named("sluice.instances", Instances.class,
          Instances::parse, "be a positive integer or `redis`")
      .defaultValue(Instances.of(1), "`1`")
      .doc("How many instances share the budget; each admits budget / instances. `redis` uses"
          + " the live count from the registry in `sluice.redis`.")
      .nested("sluice.instances.count").words("redis")
      .group(Group.ESSENTIALS).build();

  public static final Key<Integer> BURST = Key.named("sluice.burst", Integer.class,
          Key::positiveInt, "be a positive integer")
      .computedDefault("100 ms of this instance's share, at least 1; it follows the share when"
          + " the live count or the budget changes")
      .unit("permits")
      .doc("Bucket depth: how many permits this instance may take at once after a quiet spell."
          + " Set, it stays as set; at most about 18 years of the share (576460 at 0.001/s). A"
          + " change of the share never refills the bucket.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Scope> SCOPE = Key.named("sluice.scope", Scope.class,
          Key.oneOf(Scope.class), "be `statement` or `connection`")
      .defaultValue(Scope.STATEMENT, "`statement`")
      .doc("What costs a permit: each statement execution (transactions admitted at their"
          + " start), or each `getConnection()`.")
      .group(Group.FREQUENTLY_USED).build();

  /** {@code sluice.redis}: its name and forms are its parser's, whose messages give them. */
  public static final Key<String> REDIS = Key.named(RedisEndpoint.KEY, String.class,
          RedisEndpoint::check, RedisEndpoint.FORMS)
      .computedDefault("none")
      .secret(Secrets::mask)
      .doc("The Redis that holds the breaker flag and the instance registry: one server, the"
          + " master named in a `redis-sentinel://` URI, found through its Sentinels, or a Redis"
          + " Cluster (`redis-cluster://`), found through any of its listed nodes.")
      .nested("sluice.redis.uri")
      .group(Group.ESSENTIALS).build();

  public static final Key<String> REDIS_PASSWORD = Key.named("sluice.redis.password",
          String.class, text -> text, "be the password of the Redis in `sluice.redis`")
      .computedDefault("the `SLUICE_REDIS_PASSWORD` environment variable; else none")
      .secret(text -> Secrets.MASK)
      .doc("The password for `sluice.redis`, kept out of its URI and so out of every URL and"
          + " pool configuration that gets logged; never shown (always `****`). Set it here or"
          + " in `SLUICE_REDIS_PASSWORD`, not both here and in the URI.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<FlagSource> FLAG = Key.named("sluice.flag", FlagSource.class,
          Key.oneOf(FlagSource.class), "be `always`, `redis` or `manual`")
      .computedDefault("`redis` when `sluice.redis` is set, else `always`")
      .doc("When the limiter is on: `always`; while the `sluice:<name>:breaker` key in"
          + " `sluice.redis` says `open`; or `manual`: from the MXBean's `tripFlag` to its"
          + " `resetFlag` (closed at start; needs `sluice.jmx=true`), for driver mode.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Boolean> STACK_TRACES = Key.named("sluice.stack-traces", Boolean.class,
          Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.FALSE, "`false`")
      .doc("Whether a `RateLimitExceededException` records its stack trace. Off, a rejection"
          + " costs no stack walk.")
      .group(Group.RARELY_USED).build();

  public static final Key<Duration> SUMMARY_INTERVAL = Key.named("sluice.summary-interval",
          Duration.class, Key::positiveDuration,
          "be a positive duration such as `250ms`, `10s`, `1m` or `PT10S`")
      .defaultValue(Duration.ofSeconds(10), "`10s`")
      .unit("duration")
      .doc("At most one log line per interval sums up the rejections while limiting.")
      .group(Group.RARELY_USED).build();

  public static final Key<Boolean> JMX = Key.named("sluice.jmx", Boolean.class,
          Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.TRUE, "`true`")
      .doc("Whether to register an MXBean `dev.sluice:type=RateLimitedDataSource,name=<name>`"
          + " with the figures and the incident operations (trip/reset a manual flag, change the"
          + " budget); unregistered on close.")
      .group(Group.RARELY_USED).build();

  public static final Key<Boolean> POOL_AUTO_COMMIT = Key.named("sluice.pool-auto-commit",
          Boolean.class, Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.TRUE, "`true`")
      .doc("Driver mode only: the auto-commit your pool gives its connections (HikariCP"
          + " `autoCommit`). With `true`, `setAutoCommit(false)` begins a transaction and is its"
          + " door; with `false`, the pool makes that switch itself and each transaction's first"
          + " statement is the door.")
      .driverOnly()
      .group(Group.RARELY_USED).build();

  private static final String DURATION = "be a positive duration such as `250ms`, `10s`, `1m`"
      + " or `PT10S`";

  public static final Key<Duration> REDIS_REFRESH = Key.named("sluice.redis.refresh",
          Duration.class, Key::positiveDuration, DURATION)
      .defaultValue(Duration.ofMillis(250), "`250ms`")
      .unit("duration")
      .doc("How often the flag key is read from `sluice.redis`. With `sluice.redis.timeout`, it"
          + " bounds how soon an unreachable Redis turns the limiter on.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Duration> REDIS_TIMEOUT = Key.named("sluice.redis.timeout",
          Duration.class, Key::positiveDuration, DURATION)
      .defaultValue(Duration.ofMillis(200), "`200ms`")
      .unit("duration")
      .doc("Connect timeout, read timeout and the longest wait for a pooled Redis connection;"
          + " a read that takes longer counts as Redis unreachable.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Duration> REDIS_SETTLE = Key.named("sluice.redis.settle",
          Duration.class, Key::positiveDuration, DURATION)
      .defaultValue(Duration.ofSeconds(1), "`1s`")
      .unit("duration")
      .doc("After an outage, how long Redis must answer without a failure before a closed key"
          + " closes the flag again, so that a flapping Redis does not flap the limiter.")
      .group(Group.RARELY_USED).build();

  public static final Key<Duration> REDIS_UNREACHABLE_AFTER = Key.named(
          "sluice.redis.unreachable-after", Duration.class, Key::positiveDuration, DURATION)
      .computedDefault("4 × (`sluice.redis.refresh` + `sluice.redis.timeout`): `1800ms` with"
          + " their defaults")
      .unit("duration")
      .doc("How long the flag key may go unread before Redis counts as unreachable and the flag"
          + " answers what `sluice.redis.unreachable` says. Until then a late or failed read keeps"
          + " the last value read, so that a slow read on a busy CPU is not taken for an outage."
          + " Must be longer than `sluice.redis.refresh` plus `sluice.redis.timeout`.")
      .group(Group.RARELY_USED).build();

  public static final Key<Unreachable> REDIS_UNREACHABLE = Key.named(
          "sluice.redis.unreachable", Unreachable.class, Key.oneOf(Unreachable.class),
          "be `open`, `closed` or `last`")
      .defaultValue(Unreachable.OPEN, "`open`")
      .doc("What the flag says while it cannot be read: `open` (limit: the cache is probably"
          + " down too), `closed` (pass everything), or `last` (the last value read).")
      .group(Group.RARELY_USED).build();

  public static final Key<Duration> REDIS_PING = Key.named("sluice.redis.ping",
          Duration.class, Key::positiveDuration, DURATION)
      .defaultValue(Duration.ofSeconds(1), "`1s`")
      .unit("duration")
      .doc("How often the pub/sub subscriber pings Redis; a subscriber that hears nothing for"
          + " this long plus `sluice.redis.timeout` reconnects and subscribes again.")
      .group(Group.RARELY_USED).build();

  public static final Key<Duration> REDIS_HEARTBEAT = Key.named("sluice.redis.heartbeat",
          Duration.class, Key::positiveDuration, DURATION)
      .defaultValue(Duration.ofSeconds(1), "`1s`")
      .unit("duration")
      .doc("With `sluice.instances=redis`: how often this instance renews its member of"
          + " `sluice:<name>:instances` and reads the live count.")
      .group(Group.RARELY_USED).build();

  public static final Key<Duration> INSTANCES_EXPIRY = Key.named("sluice.instances.expiry",
          Duration.class, Key::positiveDuration, DURATION)
      .defaultValue(Duration.ofSeconds(5), "`5s`")
      .unit("duration")
      .doc("With `sluice.instances=redis`: a member not renewed for this long (by Redis' own"
          + " clock) is pruned and no longer counted. Must exceed `sluice.redis.heartbeat`"
          + " plus `sluice.redis.timeout`.")
      .group(Group.RARELY_USED).build();

  public static final Key<Integer> INSTANCES_ASSUMED = Key.named("sluice.instances.assumed",
          Integer.class, Key::positiveInt, "be a positive integer")
      .defaultValue(10, "`10`")
      .unit("instances")
      .doc("With `sluice.instances=redis`: the count this instance divides the budget by until"
          + " the registry first answers (for example when it starts while Redis is down), and"
          + " the least it divides by while a lower live count (after joining, or when others"
          + " stop) has not yet lasted `sluice.instances.expiry`. Set it to your usual fleet"
          + " size; `1` lets each count apply at once.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Division> INSTANCES_DIVISION = Key.named("sluice.instances.division",
          Division.class, Key.oneOf(Division.class), "be `equal` or `demand`")
      .defaultValue(Division.EQUAL, "`equal`")
      .doc("With `sluice.instances=redis`: how the live instances split the budget. `equal`: each"
          + " takes budget / live count. `demand`: each publishes its demand (calls at a door per"
          + " second, admitted plus rejected, smoothed) with its heartbeat in"
          + " `sluice:<name>:demand`, and takes its max-min fair share of the budget by demand;"
          + " shares sum to at most the budget. Turn it on for the whole fleet at once: an"
          + " instance that only counts (`equal`, or an older version) is assumed to take"
          + " budget / live count.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Duration> RECOVERY_SETTLE = Key.named("sluice.recovery.settle",
          Duration.class, Key::nonNegativeDuration,
          "be 0 or a positive duration such as `250ms`, `30s`, `1m` or `PT30S`")
      .defaultValue(Duration.ofSeconds(30), "`30s`")
      .unit("duration")
      .doc("After the flag closes, limiting goes on at this instance's share until its demand"
          + " (calls at a door, admitted plus rejected) has stayed at or below"
          + " `sluice.recovery.threshold` of the share for this long, or has stopped falling"
          + " within the share for this long (back to its everyday level), so that a cold cache"
          + " refills at the budget instead of flooding the database. `0` stops limiting as the"
          + " flag closes.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Double> RECOVERY_THRESHOLD = Key.named("sluice.recovery.threshold",
          Double.class, Key::ratio, "be a number greater than 0 and at most 1")
      .defaultValue(0.8, "`0.8`")
      .unit("ratio of the share")
      .doc("During recovery: the demand per second, as a part of this instance's share, at or"
          + " below which the load counts as back to normal.")
      .group(Group.RARELY_USED).build();

  public static final Key<Double> RESERVE = Key.named("sluice.reserve", Double.class,
          Key::reserveRatio, "be a number from 0 up to but not including 1")
      .defaultValue(0.2, "`0.2`")
      .unit("ratio of the burst and of the concurrency cap")
      .doc("While limiting: the part of the bucket, and of `sluice.concurrency`, that a flood of"
          + " lower-priority calls can never take from a higher priority (`CRITICAL` over"
          + " `NORMAL` over `SHEDDABLE`, read-only connections being `SHEDDABLE`). A lower"
          + " priority still gets the whole rate when no higher one needs it (only a smaller"
          + " burst), but only its part of the concurrency cap. `0`: priorities make no"
          + " difference.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Mode> MODE = Key.named("sluice.mode", Mode.class,
          Key.oneOf(Mode.class), "be `enforce` or `shadow`")
      .defaultValue(Mode.ENFORCE, "`enforce`")
      .doc("`shadow`: nothing is refused; a call `enforce` would refuse passes uncharged and is"
          + " counted (`stats().shadowRejected()`, the metrics, the summary log). Switchable at"
          + " runtime over JMX (the MXBean's `Mode` attribute).")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<ConcurrencyCap> CONCURRENCY = Key.named("sluice.concurrency",
          ConcurrencyCap.class, ConcurrencyCap::parse, "be a positive integer or `auto`")
      .computedDefault("none: no cap on concurrency")
      .unit("statements in flight")
      .doc("While limiting, the most statements of all instances together in flight at once (a"
          + " transaction counts as one from its start to its end; in `connection` scope:"
          + " connections checked out, also those checked out before limiting began, until"
          + " closed), divided among the instances as the budget is (each at"
          + " least 1); a call must pass both this and the rate. `auto`: each"
          + " instance adapts its own cap from the latency and overload errors of the statements"
          + " it admits, within `sluice.concurrency.min` and `sluice.concurrency.max`.")
      .nested("sluice.concurrency.limit").words("auto")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Integer> CONCURRENCY_MIN = Key.named("sluice.concurrency.min",
          Integer.class, Key::positiveInt, "be a positive integer")
      .defaultValue(1, "`1`")
      .unit("statements in flight")
      .doc("With `sluice.concurrency=auto`: the lowest cap this instance adapts down to."
          + " Latency alone cuts the caps no lower than 4 in flight at the database, divided among"
          + " the instances (or `max`, if smaller); overload errors cut it down to this.")
      .group(Group.RARELY_USED).build();

  public static final Key<Integer> CONCURRENCY_MAX = Key.named("sluice.concurrency.max",
          Integer.class, Key::positiveInt, "be a positive integer")
      .defaultValue(100, "the pool's maximum size where Sluice can read it (HikariCP, DBCP 2,"
          + " Tomcat JDBC, c3p0 or UCP under `RateLimitedDataSource`), else `100` with a WARN at"
          + " start")
      .unit("statements in flight")
      .doc("With `sluice.concurrency=auto`: the highest cap, and the first one (the cap comes"
          + " down from here as the database crowds). At least `sluice.concurrency.min`; at most"
          + " the pool's size, best (a larger one gets a WARN at start; above twice the pool's"
          + " size the cap is never half full, so it first moves once the database is crowded,"
          + " from the most statements seen in flight, and the log says so once).")
      .group(Group.RARELY_USED).build();

  public static final Key<Duration> STALE_MAX_AGE = Key.named("sluice.stale.max-age",
          Duration.class, Key::nonNegativeDuration,
          "be 0 or a positive duration such as `0`, `500ms`, `5s` or `PT5S`")
      .defaultValue(Duration.ZERO, "`0`")
      .unit("duration")
      .doc("Answers instead of refusals: while limiting, an eligible read (`executeQuery` under"
          + " auto-commit, a read that takes no lock, parameters of value types) that Sluice is"
          + " about to refuse is answered instead from the result of an identical read that the"
          + " database answered at most this long ago, or by joining an identical read in flight;"
          + " the answer carries a `StaleResultWarning`. A read Sluice would admit always goes to"
          + " the database. Statement scope only. See `docs/answers.md`.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Duration> STALE_WAIT = Key.named("sluice.stale.wait",
          Duration.class, Key::nonNegativeDuration,
          "be 0 or a positive duration such as `0`, `50ms` or `PT0.05S`")
      .defaultValue(Duration.ofMillis(50), "`50ms`")
      .unit("duration")
      .doc("With `sluice.stale.max-age`: the longest a read about to be refused waits for an"
          + " identical read in flight on this instance (at most 128 wait for one read); `0`:"
          + " never wait.")
      .group(Group.RARELY_USED).build();

  public static final Key<Integer> STALE_MAX_ROWS = Key.named("sluice.stale.max-rows",
          Integer.class, Key::positiveInt, "be a positive integer")
      .defaultValue(1000, "`1000`")
      .unit("rows")
      .doc("With `sluice.stale.max-age`: the most rows a result may have to be kept for answers.")
      .group(Group.RARELY_USED).build();

  public static final Key<Long> STALE_MEMORY = Key.named("sluice.stale.memory", Long.class,
          Key::size, "be a size above 0 such as `32MB`, `512KB` or a number of bytes")
      .defaultValue(32L << 20, "`32MB`")
      .unit("bytes")
      .doc("With `sluice.stale.max-age`: the estimated memory all kept results of this budget may"
          + " hold together; the oldest is dropped first.")
      .group(Group.RARELY_USED).build();

  public static final Key<Boolean> STALE_SHARE = Key.named("sluice.stale.share", Boolean.class,
          Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.FALSE, "`false`")
      .doc("With `sluice.stale.max-age` and `sluice.redis`: each instance sends the results it"
          + " keeps to the budget's other instances over the Redis channel"
          + " `sluice:<name>:answers`, so that every instance answers from every read the budget"
          + " admitted, not only its own. The rows travel through that Redis: turn it on only"
          + " where it may hold them, as the cache does. See `docs/answers.md`.")
      .group(Group.RARELY_USED).build();

  public static final Key<String> STALE_SHARE_KEY = Key.named(ShareKey.KEY, String.class,
          ShareKey::check, ShareKey.CONSTRAINT)
      .computedDefault("the `SLUICE_SHARE_KEY` environment variable; else none")
      .secret(text -> Secrets.MASK)
      .doc("With `sluice.stale.share` (which needs it): the secret that signs every message of"
          + " kept results (HMAC-SHA256 over the whole message, with a timestamp and a sequence);"
          + " a message unsigned, signed by another key, older than `sluice.stale.max-age` or"
          + " replayed is dropped and counted. Several keys separated by commas rotate one: the"
          + " first signs, all verify. Never shown (always `****`). See `docs/redis.md`.")
      .group(Group.RARELY_USED).build();

  public static final Key<Boolean> STALE_SHARE_ENCRYPT = Key.named("sluice.stale.share-encrypt",
          Boolean.class, Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.FALSE, "`false`")
      .doc("With `sluice.stale.share`: the rows of every shared result also travel encrypted"
          + " (AES-256-GCM, with a key derived from the first `sluice.stale.share-key`), so that"
          + " whoever reads the channel, as `MONITOR` or a subscriber with the password can, reads"
          + " no row. An instance reads encrypted messages whatever its own setting, so a rolling"
          + " deploy turns it on. See `docs/redis.md`.")
      .group(Group.RARELY_USED).build();

  // --- read only by the Spring Boot starter (sluice-spring-boot-starter); elsewhere ignored ---

  public static final Key<Boolean> ENABLED = Key.named("sluice.enabled", Boolean.class,
          Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.TRUE, "`true`")
      .doc("Spring Boot: `false` wraps no data source and binds nothing, whatever else is set.")
      .group(Group.SPRING_BOOT).build();

  public static final Key<String> DATASOURCES = Key.named("sluice.datasources.<bean>.<key>",
          String.class, text -> text, "be a value of `sluice.<key>`")
      .computedDefault("`sluice.<key>`")
      .doc("Spring Boot: a setting for the `DataSource` bean named `<bean>` only, winning over"
          + " `sluice.<key>` (`sluice.datasources.reports.budget=50`; `...enabled=false` leaves"
          + " that bean unwrapped). Without `sluice.name`, a budget is named after its bean.")
      .group(Group.SPRING_BOOT).build();

  public static final Key<String> CIRCUIT_BREAKER = Key.named("sluice.circuit-breaker",
          String.class, Key.matching(Pattern.compile("\\S.*")), "be the name of a Resilience4j"
              + " circuit breaker")
      .computedDefault("none")
      .doc("Spring Boot with Resilience4j: the flag is open while this breaker of the"
          + " application's `CircuitBreakerRegistry` is OPEN, FORCED_OPEN or HALF_OPEN.")
      .nested("sluice.circuit-breaker.name")
      .group(Group.SPRING_BOOT).build();

  public static final Key<Boolean> CIRCUIT_BREAKER_PUBLISH = Key.named(
          "sluice.circuit-breaker.publish", Boolean.class, Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.FALSE, "`false`")
      .doc("Spring Boot, with `sluice.circuit-breaker` and `sluice.redis`: publish the breaker's"
          + " transitions to `sluice:<name>:breaker` (trip, expiring after twice the breaker's"
          + " open wait and at least 1 min; reset on CLOSED) and take the flag from that key, as"
          + " `sluice.flag=redis` does, so that every instance limits when one breaker opens.")
      .group(Group.SPRING_BOOT).build();

  public static final Key<Boolean> WEB = Key.named("sluice.web.enabled", Boolean.class,
          Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.TRUE, "`true`")
      .doc("Spring Boot with Spring MVC or WebFlux: answer a `RateLimitExceededException` (or a"
          + " cause of one) that no handler of the application took with 503, `Retry-After` and"
          + " an RFC 9457 problem detail.")
      .group(Group.SPRING_BOOT).build();

  public static final Key<String> WEB_PRIORITY_HEADER = Key.named("sluice.web.priority-header",
          String.class, Key.matching(Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+")),
          "be an HTTP header name")
      .computedDefault("none")
      .doc("Spring Boot with Spring MVC: the request header (`X-Priority`) whose value,"
          + " `critical`, `normal` or `sheddable` in any case, is the `Priority` of the database"
          + " calls the request's thread makes; another value is answered 400. Only for a header"
          + " a trusted gateway sets: any client can claim `critical`.")
      .group(Group.SPRING_BOOT).build();

  /** Every key, in the order the configuration reference lists them. */
  public static final List<Key<?>> ALL = List.of(
      NAME, BUDGET, INSTANCES, REDIS, REDIS_PASSWORD, BURST, SCOPE, FLAG, REDIS_REFRESH,
      REDIS_TIMEOUT, INSTANCES_ASSUMED, RECOVERY_SETTLE, RESERVE, MODE, INSTANCES_DIVISION,
      CONCURRENCY, STACK_TRACES, SUMMARY_INTERVAL, REDIS_SETTLE, REDIS_UNREACHABLE,
      REDIS_UNREACHABLE_AFTER, REDIS_PING,
      REDIS_HEARTBEAT, INSTANCES_EXPIRY, POOL_AUTO_COMMIT, JMX, RECOVERY_THRESHOLD,
      CONCURRENCY_MIN, CONCURRENCY_MAX, STALE_MAX_AGE, STALE_WAIT, STALE_MAX_ROWS, STALE_MEMORY,
      STALE_SHARE, STALE_SHARE_KEY, STALE_SHARE_ENCRYPT, ENABLED, DATASOURCES, CIRCUIT_BREAKER,
      CIRCUIT_BREAKER_PUBLISH, WEB, WEB_PRIORITY_HEADER);

  /** The keys that only mean something with {@code sluice.redis}. */
  public static final List<Key<?>> REDIS_ONLY = List.of(
      REDIS_PASSWORD, REDIS_REFRESH, REDIS_TIMEOUT, REDIS_SETTLE, REDIS_UNREACHABLE,
      REDIS_UNREACHABLE_AFTER, REDIS_PING);

  /** The keys that only mean something with {@code sluice.instances=redis}. */
  public static final List<Key<?>> REGISTRY_ONLY = List.of(
      REDIS_HEARTBEAT, INSTANCES_EXPIRY, INSTANCES_ASSUMED, INSTANCES_DIVISION);

  private Keys() {}
}
