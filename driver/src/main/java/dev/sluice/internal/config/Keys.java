package dev.sluice.internal.config;

import dev.sluice.Scope;
import dev.sluice.internal.config.Key.Group;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The table of every {@code sluice.*} key. Adding a key means adding one constant here and
 * listing it in {@link #ALL}; the README's configuration reference is checked against this table.
 */
public final class Keys {

  /** The prefix every key shares. */
  public static final String PREFIX = "sluice.";

  public static final Key<String> NAME = Key.named("sluice.name", String.class,
          Key.matching(Pattern.compile("[A-Za-z0-9._-]{1,64}")),
          "be 1 to 64 of the characters A-Z a-z 0-9 . _ -")
      .computedDefault("builder: `default`; driver: derived from the database URL's host, port"
          + " and database")
      .doc("Names the budget: in Redis keys, metrics, logs and error messages. Every data source"
          + " or URL with the same name in one JVM (driver) or one Redis shares one budget.")
      .group(Group.ESSENTIALS).build();

  public static final Key<Double> BUDGET = Key.named("sluice.budget", Double.class,
          Key::positiveNumber, "be a positive number")
      .computedDefault("required")
      .unit("permits/s")
      .doc("What the database takes on the fallback path, all instances together.")
      .group(Group.ESSENTIALS).build();

  public static final Key<Instances> INSTANCES = Key.named("sluice.instances", Instances.class,
          Instances::parse, "be a positive integer or `redis`")
      .defaultValue(Instances.of(1), "`1`")
      .doc("How many instances share the budget; each admits budget / instances. `redis` uses"
          + " the live count from the registry in `sluice.redis`.")
      .group(Group.ESSENTIALS).build();

  public static final Key<Integer> BURST = Key.named("sluice.burst", Integer.class,
          Key::positiveInt, "be a positive integer")
      .computedDefault("100 ms of this instance's share, at least 1")
      .unit("permits")
      .doc("Bucket depth: how many permits this instance may take at once after a quiet spell.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<Scope> SCOPE = Key.named("sluice.scope", Scope.class,
          Key.oneOf(Scope.class), "be `statement` or `connection`")
      .defaultValue(Scope.STATEMENT, "`statement`")
      .doc("What costs a permit: each statement execution (transactions admitted at their"
          + " start), or each `getConnection()`.")
      .group(Group.FREQUENTLY_USED).build();

  public static final Key<String> REDIS = Key.named("sluice.redis", String.class,
          RedisUri::check, "be a URI `redis://[user:password@]host:port[/db]` or `rediss://...`")
      .computedDefault("none")
      .secret(RedisUri::mask)
      .doc("The Redis that holds the breaker flag and the instance registry.")
      .group(Group.ESSENTIALS).build();

  public static final Key<FlagSource> FLAG = Key.named("sluice.flag", FlagSource.class,
          Key.oneOf(FlagSource.class), "be `always` or `redis`")
      .computedDefault("`redis` when `sluice.redis` is set, else `always`")
      .doc("When the limiter is on: `always`, or while the `sluice:<name>:breaker` key in"
          + " `sluice.redis` says `open`.")
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

  public static final Key<Boolean> POOL_AUTO_COMMIT = Key.named("sluice.pool-auto-commit",
          Boolean.class, Key::bool, "be `true` or `false`")
      .defaultValue(Boolean.TRUE, "`true`")
      .doc("Driver mode only: the auto-commit your pool gives its connections (HikariCP"
          + " `autoCommit`). With `true`, `setAutoCommit(false)` begins a transaction and is its"
          + " door; with `false`, the pool makes that switch itself and each transaction's first"
          + " statement is the door.")
      .group(Group.RARELY_USED).build();

  /** Every key, in the order the README lists them. */
  public static final List<Key<?>> ALL = List.of(
      NAME, BUDGET, INSTANCES, REDIS, BURST, SCOPE, FLAG, STACK_TRACES, SUMMARY_INTERVAL,
      POOL_AUTO_COMMIT);

  private Keys() {}
}
