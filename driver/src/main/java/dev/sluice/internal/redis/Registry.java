package dev.sluice.internal.redis;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

/**
 * This instance's member of the registry {@code sluice:<name>:instances}, a sorted set of
 * instance ids scored by their last heartbeat.
 *
 * <p>Each heartbeat is one script run by Redis: it scores this member with Redis' own clock (so
 * host clocks never matter), prunes members older than the expiry, and returns the count left.
 * When the count changes, {@code onCount} hears it (the limiter divides the budget by it, without
 * a fresh burst). When Redis does not answer, nothing changes: the budget stays divided by the
 * last live count, never by one. {@link #close()} removes the member, so the others grow at their
 * next heartbeat rather than after the expiry. No exception ends the heartbeat: a member that
 * stopped beating would be counted out by the others while this instance kept its larger share.
 *
 * <p>With a {@link Demand} (division by demand), each heartbeat also runs a second script, on the
 * hash {@code sluice:<name>:demand}: it writes this member's demand and share stamped with Redis'
 * clock, prunes the fields older than the expiry (so a stale member's demand goes with it) and
 * returns the rest, which the {@link Demand} hears; {@link #close()} leaves a tombstone there. Two calls rather than one script over both
 * keys: every command touches one key, as a Redis Cluster requires (the keys of one budget may
 * sit on different nodes).
 *
 * <p>This class is threadsafe.
 */
public final class Registry implements AutoCloseable {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String key;
  private final String member;
  private final RedisLink link;
  private final RedisHealth health;
  private final Duration heartbeat;
  private final Duration expiry;
  private final IntConsumer onCount;
  /** What the budget is divided by for a live count ({@code HeldCount}); identity by default. */
  private final IntUnaryOperator divisor;
  /** The last count handed to {@link #onCount}; only the heartbeat thread touches it. */
  private int offered;
  /** With demand division: {@code sluice:<name>:demand} and its hook; else {@code null}. */
  private final String demandKey;
  private final Demand demand;
  private volatile int liveCount;
  private volatile boolean closing;
  private final DaemonThreads threads;
  private ScheduledThreadPoolExecutor scheduler;

  /**
   * Makes a member; {@link #start()} joins.
   *
   * @param name the budget's name
   * @param link the Redis
   * @param health where failures and recoveries are reported
   * @param heartbeat how often the member is renewed
   * @param expiry when a member not renewed is pruned
   * @param onCount hears each new live count, on the heartbeat thread
   */
  public Registry(String name, RedisLink link, RedisHealth health, Duration heartbeat,
      Duration expiry, IntConsumer onCount) {
    this(name, link, health, heartbeat, expiry, IntUnaryOperator.identity(), onCount, null);
  }

  /**
   * Makes a member that hands on, for each live count, the count {@code divisor} makes of it.
   *
   * @param name the budget's name
   * @param link the Redis
   * @param health where failures and recoveries are reported
   * @param heartbeat how often the member is renewed
   * @param expiry when a member not renewed is pruned
   * @param divisor the count to divide by for each live count read, on the heartbeat thread
   * @param onCount hears each new count {@code divisor} made, on the heartbeat thread
   */
  public Registry(String name, RedisLink link, RedisHealth health, Duration heartbeat,
      Duration expiry, IntUnaryOperator divisor, IntConsumer onCount) {
    this(name, link, health, heartbeat, expiry, divisor, onCount, null);
  }

  /**
   * Makes a member that also publishes its demand with each heartbeat, in the hash
   * {@code sluice:<name>:demand}, and hands each beat's snapshot to {@code demand}.
   *
   * @param name the budget's name
   * @param link the Redis
   * @param health where failures and recoveries are reported
   * @param heartbeat how often the member is renewed
   * @param expiry when a member not renewed is pruned, from the set and from the hash
   * @param demand what is published, and who hears the snapshots
   */
  public Registry(String name, RedisLink link, RedisHealth health, Duration heartbeat,
      Duration expiry, Demand demand) {
    this(name, link, health, heartbeat, expiry, IntUnaryOperator.identity(), count -> {}, demand);
  }

  private Registry(String name, RedisLink link, RedisHealth health, Duration heartbeat,
      Duration expiry, IntUnaryOperator divisor, IntConsumer onCount, Demand demand) {
    this.demandKey = demand == null ? null : "sluice:" + name + ":demand";
    this.demand = demand;
    this.key = "sluice:" + name + ":instances";
    this.member = memberId();
    this.link = link;
    this.health = health;
    this.heartbeat = heartbeat;
    this.expiry = expiry;
    this.onCount = onCount;
    this.divisor = divisor;
    this.threads = new DaemonThreads("redis-registry", name);
  }

  /** {@code <pid>-<random>}: unique without a host name lookup, which could block. */
  static String memberId() {
    byte[] random = new byte[6];
    RANDOM.nextBytes(random);
    return ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random);
  }

  /**
   * Beats once (waiting at most the timeout), then starts the heartbeat thread.
   *
   * @return this member
   */
  public Registry start() {
    threads.guarded(this::beat).run();
    scheduler = threads.scheduler(1); // an exception is logged and the next beat runs anyway
    long nanos = heartbeat.toNanos();
    scheduler.scheduleWithFixedDelay(this::beat, nanos, nanos, TimeUnit.NANOSECONDS);
    return this;
  }

  /** Renews this member and takes the live count; on failure keeps the last count. */
  void beat() {
    long count;
    try {
      count = link.heartbeat(key, member, expiry);
    } catch (RuntimeException e) { // RedisDown, or a bug: neither may kill the heartbeat
      if (demand != null) {
        demand.missed();
      }
      if (!closing) { // a heartbeat cut short by close() is no outage
        health.failed(e instanceof RedisDown down ? down : new RedisDown(e.toString(), e));
      }
      return;
    }
    int live = (int) Math.max(1, Math.min(Integer.MAX_VALUE, count));
    if (demand != null && !publishDemand(live)) {
      return;
    }
    health.answered();
    int before = liveCount;
    liveCount = live; // before the share follows, so that stats never show a stale count
    int divided = divisor.applyAsInt(live);
    if (divided != offered) {
      try {
        onCount.accept(divided);
        offered = divided;
      } catch (RuntimeException | Error e) {
        liveCount = before; // the next beat offers the count again
        throw e;
      }
    }
  }

  /**
   * Publishes this instance's demand and hands the snapshot on; on failure nothing changes, so
   * the shares stay as they were (never back to the whole budget). A second call rather than one
   * script over both keys: every command touches one key, as a Redis Cluster requires.
   */
  private boolean publishDemand(int live) {
    Map<String, String> values;
    try {
      values = link.publish(demandKey, member, demand.published(), expiry);
    } catch (RuntimeException e) {
      demand.missed();
      if (!closing) {
        health.failed(e instanceof RedisDown down ? down : new RedisDown(e.toString(), e));
      }
      return false;
    }
    Map<String, Published> members = new HashMap<>();
    values.forEach((id, value) -> members.put(id, Published.parse(value)));
    demand.heard(new Snapshot(member, live, members, expiry));
    return true;
  }

  /** How many beats have failed on an exception other than Redis being down: for tests. */
  long beatsFailed() {
    return threads.failures();
  }

  /**
   * Returns the last live count the registry reported.
   *
   * @return instances counted, this one included; {@code 0} before the registry first answered
   */
  public int liveCount() {
    return liveCount;
  }

  /**
   * Returns this instance's member id.
   *
   * @return the id in the sorted set
   */
  public String member() {
    return member;
  }

  /**
   * Stops the heartbeat and removes this member from the instances set; with demand division it
   * leaves {@link Published#LEFT} in its field, which Redis prunes after the expiry (waiting at
   * most the timeout). Idempotent.
   */
  @Override
  public void close() {
    if (scheduler == null || scheduler.isShutdown()) {
      return;
    }
    closing = true;
    scheduler.shutdownNow();
    try {
      threads.join(expiry.toNanos() + TimeUnit.SECONDS.toNanos(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      link.leave(key, member);
      if (demandKey != null) { // a tombstone, not a removal: see Published#LEFT
        link.publish(demandKey, member, Published.LEFT_TEXT, expiry);
      }
    } catch (RedisDown e) {
      // the member expires on its own after sluice.instances.expiry
    }
  }

  @Override
  public String toString() {
    return key + " member " + member;
  }

  /**
   * One heartbeat's view of the registry.
   *
   * @param self this instance's member id
   * @param live the live count of {@code sluice:<name>:instances}
   * @param members what each member published in {@code sluice:<name>:demand}, this one
   *     included; members that count without publishing (equal division, older versions) are
   *     missing from it
   * @param expiry {@code sluice.instances.expiry}: a member that has not beaten for this long is
   *     pruned
   */
  public record Snapshot(String self, int live, Map<String, Published> members,
      Duration expiry) {}

  /**
   * What one member published: {@code "<demand> <share>"} in its field of the hash.
   *
   * @param demand its smoothed demand, calls at a door per second; {@code NaN} if unreadable
   * @param share the share it held when it published, permits per second; {@code NaN} if
   *     unreadable
   * @param left whether the member left ({@link #LEFT})
   */
  public record Published(double demand, double share, boolean left) {
    /** What a member that closed publishes in its field, until Redis prunes it. */
    public static final String LEFT_TEXT = "left";
    /**
     * A member that closed. It leaves a tombstone rather than removing its field, so that the
     * others can tell a member that left (its share is free at once) from one that went missing
     * with the registry's data (its share is still in force until it publishes again or expires).
     */
    public static final Published LEFT = new Published(0, 0, true);

    /** What a member that is still in the registry published. */
    public Published(double demand, double share) {
      this(demand, share, false);
    }

    /**
     * Reads a published value.
     *
     * @param value {@code "<demand> <share>"}, as {@link Demand#published()} makes it, or
     *     {@link #LEFT_TEXT}
     * @return its numbers, {@code NaN} for each one unreadable
     */
    public static Published parse(String value) {
      if (value.equals(LEFT_TEXT)) {
        return LEFT;
      }
      int space = value.indexOf(' ');
      return space < 0 ? new Published(number(value), Double.NaN)
          : new Published(number(value.substring(0, space)), number(value.substring(space + 1)));
    }

    private static double number(String text) {
      try {
        return Double.parseDouble(text);
      } catch (NumberFormatException e) {
        return Double.NaN; // garbage written by someone else: counted as nothing said
      }
    }
  }

  /** What a member with demand division publishes, and who hears its snapshots. */
  public interface Demand {
    /**
     * What to publish for this instance, called once per heartbeat on the heartbeat thread.
     *
     * @return {@code "<demand> <share>"}, permits per second
     */
    String published();

    /** The publication failed (Redis did not answer): nothing was published, nothing heard. */
    void missed();

    /**
     * Hears one heartbeat's snapshot, on the heartbeat thread.
     *
     * @param snapshot the live count and the demands
     */
    void heard(Snapshot snapshot);
  }
}
