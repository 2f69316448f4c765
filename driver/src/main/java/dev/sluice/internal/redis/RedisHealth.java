package dev.sluice.internal.redis;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether one budget's Redis answers, as its flag reader and registry member see it: logs one
 * WARN when it stops answering and one INFO when it answers again, never one line per failed
 * call.
 *
 * <p>This class is threadsafe.
 */
public final class RedisHealth {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String name;
  private final String where;
  private final String meanwhile;
  private final AtomicBoolean down = new AtomicBoolean();

  /**
   * Creates the tracker; Redis counts as answering until a call fails.
   *
   * @param name the budget's name, first in each line
   * @param where the Redis, password masked
   * @param meanwhile what Sluice does while Redis is unreachable, for the WARN line
   */
  public RedisHealth(String name, String where, String meanwhile) {
    this.name = name;
    this.where = where;
    this.meanwhile = meanwhile;
  }

  /**
   * Reports a failed call; logs a WARN if Redis was answering until now.
   *
   * @param why what failed, passwords masked
   */
  public void failed(String why) {
    if (down.compareAndSet(false, true)) {
      LOG.warn("{} - Redis {} is unreachable ({}); {}", name, where, why, meanwhile);
    }
  }

  /** Reports an answer; logs an INFO if Redis was unreachable until now. */
  public void answered() {
    if (down.compareAndSet(true, false)) {
      LOG.info("{} - Redis {} answers again", name, where);
    }
  }

  /**
   * Returns whether the last report was a failure.
   *
   * @return {@code true} while Redis counts as unreachable
   */
  public boolean isDown() {
    return down.get();
  }
}
