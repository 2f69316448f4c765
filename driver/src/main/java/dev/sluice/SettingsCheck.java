package dev.sluice;

import dev.sluice.internal.config.ConcurrencyCap;
import dev.sluice.internal.config.Division;
import dev.sluice.internal.config.FlagSource;
import dev.sluice.internal.config.Instances;
import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.config.ShareKey;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.Share;
import java.time.Duration;
import java.util.List;

/**
 * The checks across keys made before an {@link Enforcer} is built: a key that needs another
 * ({@code sluice.instances=redis} needs {@code sluice.redis}), keys that apply only beside another,
 * and a budget whose share, or a burst, no bucket can hold. Each key alone was checked when it was
 * read ({@code Keys}).
 */
final class SettingsCheck {
  private SettingsCheck() {}

  /** The count that divides the budget before the registry answers, if there is one. */
  static double firstCount(Settings settings) {
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

  /**
   * Checks what no single key can: keys that need others, and the share and burst a bucket must
   * hold. Every message names the keys and the values as given.
   *
   * @param settings each key already checked on its own
   * @throws IllegalArgumentException naming the key when the settings do not fit together
   */
  static void acrossKeys(Settings settings) {
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
    if (!settings.get(Keys.STALE_MAX_AGE).isZero()
        && settings.get(Keys.SCOPE) == Scope.CONNECTION) {
      throw new IllegalArgumentException("sluice.stale.max-age (\"" + settings.given(
          Keys.STALE_MAX_AGE) + "\") needs sluice.scope=statement, but sluice.scope was"
          + " \"connection\": there a permit is taken at getConnection(), before any read, so"
          + " there is no refused read to answer; set sluice.stale.max-age=0 or use statement"
          + " scope");
    }
    if (settings.get(Keys.STALE_SHARE) && settings.get(Keys.STALE_MAX_AGE).isZero()) {
      throw new IllegalArgumentException("sluice.stale.share=true needs sluice.stale.max-age above"
          + " 0, but sluice.stale.max-age was \"" + settings.given(Keys.STALE_MAX_AGE) + "\":"
          + " with answers off there is no kept result to share; set sluice.stale.max-age or"
          + " remove sluice.stale.share");
    }
    if (settings.get(Keys.STALE_SHARE) && !hasRedis) {
      throw new IllegalArgumentException("sluice.stale.share=true needs sluice.redis, the Redis"
          + " the kept results travel through; set sluice.redis or remove sluice.stale.share");
    }
    if (hasRedis) {
      unreachableAfter(settings);
    }
    checkShareKey(settings);
    Duration expiry = settings.get(Keys.INSTANCES_EXPIRY);
    Duration needed = settings.get(Keys.REDIS_HEARTBEAT).plus(settings.get(Keys.REDIS_TIMEOUT));
    if (registry && expiry.compareTo(needed) <= 0) {
      throw new IllegalArgumentException("sluice.instances.expiry must be longer than"
          + " sluice.redis.heartbeat plus sluice.redis.timeout (" + needed.toMillis() + " ms), but"
          + " was \"" + expiry.toMillis() + "ms\"; otherwise live instances would be pruned");
    }
  }

  /**
   * How long the flag key may go unread before Redis counts as unreachable
   * ({@code sluice.redis.unreachable-after}): as set, or 4 x (refresh + timeout).
   *
   * @throws IllegalArgumentException if set no longer than refresh plus timeout: each read
   *     would then start an outage
   */
  static Duration unreachableAfter(Settings settings) {
    Duration oneRead = settings.get(Keys.REDIS_REFRESH).plus(settings.get(Keys.REDIS_TIMEOUT));
    if (!settings.isSet(Keys.REDIS_UNREACHABLE_AFTER)) {
      return oneRead.multipliedBy(4);
    }
    Duration given = settings.get(Keys.REDIS_UNREACHABLE_AFTER);
    if (given.compareTo(oneRead) <= 0) {
      throw new IllegalArgumentException("sluice.redis.unreachable-after must be longer than"
          + " sluice.redis.refresh plus sluice.redis.timeout (" + oneRead.toMillis() + " ms), but"
          + " was \"" + settings.given(Keys.REDIS_UNREACHABLE_AFTER) + "\"; a shorter one would"
          + " take every read between two refreshes for an outage");
    }
    return given;
  }

  private static void checkShareKey(Settings settings) {
    boolean share = settings.get(Keys.STALE_SHARE);
    if (!share && settings.isSet(Keys.STALE_SHARE_KEY)) {
      throw new IllegalArgumentException("sluice.stale.share-key is set, but sluice.stale.share"
          + " is not: the key only signs shared results; set sluice.stale.share=true or remove"
          + " sluice.stale.share-key");
    }
    if (!share && settings.isSet(Keys.STALE_SHARE_ENCRYPT)) {
      throw new IllegalArgumentException("sluice.stale.share-encrypt is set (\""
          + settings.given(Keys.STALE_SHARE_ENCRYPT) + "\"), but sluice.stale.share is not: it"
          + " only encrypts shared results; set sluice.stale.share=true or remove"
          + " sluice.stale.share-encrypt");
    }
    if (share && shareKeys(settings, System::getenv) == null) {
      throw new IllegalArgumentException("sluice.stale.share=true needs sluice.stale.share-key"
          + " (or the " + ShareKey.VARIABLE + " environment variable): every message of kept"
          + " results is signed with it, and only signed messages are answered, so that whoever"
          + " can publish on sluice:<name>:answers cannot answer this budget's reads; give every"
          + " instance the same secret of at least " + ShareKey.MIN_LENGTH + " characters"
          + " (`openssl rand -base64 32`)");
    }
  }

  /**
   * The keys of {@code sluice.stale.share-key}, else of the environment variable
   * {@value ShareKey#VARIABLE}, checked; {@code null} when neither gives any.
   */
  static String shareKeys(Settings settings, java.util.function.UnaryOperator<String> env) {
    String set = settings.get(Keys.STALE_SHARE_KEY);
    if (set != null) {
      return set;
    }
    String variable = env.apply(ShareKey.VARIABLE);
    return variable == null || variable.isEmpty() ? null : ShareKey.checkVariable(variable);
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
}
