package dev.sluice.internal.redis;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether Redis serves one use of one budget — the flag's reads, the flag's writes, the instance
 * registry — as that use sees it: logs one WARN when the use starts failing and one INFO when it
 * works again, never one line per failed call.
 *
 * <p>Each use has a tracker of its own because Redis may serve one and refuse another: an ACL
 * user allowed {@code EVAL} but not {@code GET} keeps the registry working while every flag read
 * fails. One shared tracker would flip at each alternate call and log a WARN and an INFO every
 * refresh. The WARN says what failed: an error reply ({@code NOPERM} on {@code GET},
 * {@code WRONGTYPE} on a key of the wrong type) is not "unreachable".
 *
 * <p>This class is threadsafe.
 */
public final class RedisHealth {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String name;
  private final String where;
  private final String use;
  private final String meanwhile;
  private final AtomicBoolean down = new AtomicBoolean();

  /**
   * Creates the tracker of one use; it counts as working until a call fails.
   *
   * @param name the budget's name, first in each line
   * @param where the Redis, password masked
   * @param use what uses Redis, as the lines name it: {@code the breaker flag's reads}
   * @param meanwhile what Sluice does while this use fails, for the WARN line
   */
  public RedisHealth(String name, String where, String use, String meanwhile) {
    this.name = name;
    this.where = where;
    this.use = use;
    this.meanwhile = meanwhile;
  }

  /**
   * Returns a tracker for another use of the same Redis by the same budget.
   *
   * @param otherUse what uses Redis
   * @param otherMeanwhile what Sluice does while that use fails
   * @return a tracker of its own, working until a call fails
   */
  public RedisHealth forUse(String otherUse, String otherMeanwhile) {
    return new RedisHealth(name, where, otherUse, otherMeanwhile);
  }

  /**
   * Reports a failed call; logs a WARN, saying what failed, if this use worked until now.
   *
   * @param failure what failed, passwords masked
   */
  public void failed(RedisDown failure) {
    if (!down.compareAndSet(false, true)) {
      return;
    }
    if (failure.refused()) {
      LOG.warn("{} - Redis {} answers, but refuses {} ({}){}; {}", name, where, use,
          failure.getMessage(), advice(failure.getMessage()), meanwhile);
    } else {
      LOG.warn("{} - Redis {} is unreachable for {} ({}); {}", name, where, use,
          failure.getMessage(), meanwhile);
    }
  }

  /** Reports an answer; logs an INFO if this use failed until now. */
  public void answered() {
    if (down.compareAndSet(true, false)) {
      LOG.info("{} - Redis {} serves {} again", name, where, use);
    }
  }

  /**
   * Returns whether the last report was a failure.
   *
   * @return {@code true} while this use fails
   */
  public boolean isDown() {
    return down.get();
  }

  /** What to do about an error reply, for the operator reading the WARN. */
  private String advice(String message) {
    if (message.contains("NOPERM")) {
      return "; give the Redis user the commands GET, SET, DEL, PUBLISH, SUBSCRIBE, PING, EVAL,"
          + " ZREM and HDEL on the keys and channel sluice:" + name + ":*, the ones the registry's"
          + " script runs (TIME, ZADD, ZREMRANGEBYSCORE, PEXPIRE, ZCARD, HSET, HGETALL), and"
          + " CLUSTER SLOTS on a Redis Cluster";
    }
    if (message.contains("WRONGTYPE")) {
      return "; the key holds the wrong type: sluice:" + name + ":breaker must be a string"
          + " (DEL it, or SET it to open), sluice:" + name + ":instances a sorted set and sluice:"
          + name + ":demand a hash (DEL them)";
    }
    if (message.contains("WRONGPASS") || message.contains("NOAUTH")) {
      return "; check the user and password given in sluice.redis";
    }
    return "";
  }
}
