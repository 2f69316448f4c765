package dev.sluice.internal.redis;

import dev.sluice.FlagState;
import dev.sluice.RedisBreakerFlag.WhenUnreachable;
import dev.sluice.internal.limit.Ticker;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a local copy of the {@code sluice:<name>:breaker} key, so that the request path reads a
 * volatile field and never talks to Redis.
 *
 * <h2>How the copy stays fresh</h2>
 *
 * <ul>
 *   <li><b>Polling is the truth.</b> A background thread reads the key every refresh interval.
 *       Pub/sub messages published while a subscriber is disconnected are lost, so polling alone
 *       decides in the end.
 *   <li><b>Pub/sub accelerates.</b> A subscriber thread applies {@code open}/{@code closed}
 *       messages at once. It pings every {@code sluice.redis.ping}; its read timeout is the ping
 *       interval plus the timeout, so a silent connection ends in an exception and the thread
 *       subscribes again.
 *   <li><b>Cannot read in time means unreachable.</b> A failed read, or no successful read started
 *       within the last refresh interval plus the timeout (a watchdog on a second thread checks,
 *       so a read stuck on a silent Redis cannot hide it), turns the state to
 *       {@link FlagState#UNREACHABLE} and the flag to what {@code sluice.redis.unreachable} says.
 *   <li><b>Settle.</b> After an outage, a closed key closes the flag only once Redis has answered
 *       without a failure for the settle time; an open key opens it at once.
 * </ul>
 *
 * <p>A result read while a message arrived is dropped: the message is newer (writers set the key
 * before they publish), and the next poll reads the key again.
 *
 * <p>This class is threadsafe. {@link #isOpen()} reads one volatile field. State changes happen
 * under one lock (never held across a Redis call), on background threads or in
 * {@link #trip}/{@link #reset} callers.
 */
public final class FlagReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FlagReader.class);
  static final String OPEN = "open";
  static final String CLOSED = "closed";

  private final String name;
  private final String key;
  private final RedisLink link;
  private final RedisHealth health;
  private final Ticker ticker;
  private final long refreshNanos;
  private final long timeoutNanos;
  private final long settleNanos;
  private final long pingNanos;
  private final WhenUnreachable policy;

  private volatile boolean open;
  private volatile FlagState source = FlagState.UNREACHABLE;
  private volatile long lastReadNanos;
  /** Guarded by {@link #lock}: whether no failure happened since {@link #healthySinceNanos}. */
  private boolean healthy = true;
  private boolean everRead;
  private long healthySinceNanos;
  private long messages;
  /**
   * Guards the fields above. A lock rather than {@code synchronized}: {@link #trip} and
   * {@link #reset} run on application threads, possibly virtual ones, which a monitor would pin
   * on Java 21 to 23.
   */
  private final ReentrantLock lock = new ReentrantLock();
  /** Guarded by {@link #lock}: until when this instance's own {@link #trip} holds the flag open. */
  private long tripUntilNanos;

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final DaemonThreads threads;
  private final DaemonThreads subscriberThreads;
  private ScheduledThreadPoolExecutor scheduler;
  private volatile RedisLink.Subscription subscription;

  /**
   * Makes a reader; {@link #start()} starts it.
   *
   * @param name the budget's name: the key and channel are {@code sluice:<name>:breaker}
   * @param link the Redis
   * @param health where Redis failures and recoveries are reported (and logged)
   * @param timing refresh, timeout, settle and ping
   * @param policy what the flag says while Redis cannot be read
   * @param ticker the clock
   */
  public FlagReader(String name, RedisLink link, RedisHealth health, Timing timing,
      WhenUnreachable policy, Ticker ticker) {
    this.name = name;
    this.key = "sluice:" + name + ":breaker";
    this.link = link;
    this.health = health;
    this.ticker = ticker;
    this.refreshNanos = timing.refresh().toNanos();
    this.timeoutNanos = timing.timeout().toNanos();
    this.settleNanos = timing.settle().toNanos();
    this.pingNanos = timing.ping().toNanos();
    this.policy = policy;
    this.threads = new DaemonThreads("redis-flag", name);
    this.subscriberThreads = new DaemonThreads("redis-subscriber", name);
    long now = ticker.read();
    this.lastReadNanos = now;
    this.tripUntilNanos = now;
    this.healthySinceNanos = now - settleNanos; // no outage yet: the first answer decides at once
    this.open = policy != WhenUnreachable.CLOSED; // nothing read yet: as if unreachable
  }

  /**
   * The timings of a reader.
   *
   * @param refresh how often the key is read
   * @param timeout how long one read may take
   * @param settle how long Redis must answer before a closed key closes the flag after an outage
   * @param ping how often the subscriber pings
   */
  public record Timing(Duration refresh, Duration timeout, Duration settle, Duration ping) {}

  /**
   * Reads the key once (waiting at most the timeout), then starts the background threads.
   *
   * @return this reader
   */
  public FlagReader start() {
    poll();
    scheduler = threads.scheduler(2); // no exception ends a task: see DaemonThreads
    scheduler.setRemoveOnCancelPolicy(true);
    scheduler.scheduleAtFixedRate(this::poll, refreshNanos, refreshNanos, TimeUnit.NANOSECONDS);
    long watch = Math.max(TimeUnit.MILLISECONDS.toNanos(5),
        Math.min(refreshNanos, timeoutNanos) / 4);
    scheduler.scheduleAtFixedRate(this::checkStale, watch, watch, TimeUnit.NANOSECONDS);
    scheduler.scheduleAtFixedRate(this::ping, pingNanos, pingNanos, TimeUnit.NANOSECONDS);
    subscriberThreads.newThread(this::listen).start();
    return this;
  }

  /**
   * Returns what the flag says now: one volatile read.
   *
   * @return {@code true} while the limiter should charge permits
   */
  public boolean isOpen() {
    return open;
  }

  /**
   * Returns what the key said at the last read, or that it could not be read.
   *
   * @return the source state
   */
  public FlagState state() {
    return source;
  }

  /**
   * Returns how long ago the last successful read started (since the reader was made, if none).
   *
   * @return the age of the local copy
   */
  public Duration sinceLastRead() {
    return Duration.ofNanos(Math.max(0, ticker.read() - lastReadNanos));
  }

  /**
   * Sets the key to {@code open} with an expiry and publishes {@code open}; the local copy opens
   * at once, even when Redis does not answer (then, under {@code sluice.redis.unreachable=closed},
   * it stays open for {@code ttl} unless Redis answers or {@link #reset()} is called).
   *
   * @param ttl how long the key lives
   * @return whether Redis took the write
   */
  public boolean trip(Duration ttl) {
    lock.lock();
    try {
      tripUntilNanos = ticker.read() + ttl.toNanos();
      heard(OPEN);
    } finally {
      lock.unlock();
    }
    try {
      link.setAndPublish(key, OPEN, ttl, key, OPEN);
      return true;
    } catch (RedisDown e) {
      failed(e.getMessage());
      return false;
    }
  }

  /**
   * Deletes the key and publishes {@code closed}; the local copy closes once Redis took it (and
   * Redis has answered for the settle time after an outage).
   *
   * @return whether Redis took the write
   */
  public boolean reset() {
    lock.lock();
    try {
      tripUntilNanos = ticker.read();
    } finally {
      lock.unlock();
    }
    try {
      link.deleteAndPublish(key, key, CLOSED);
    } catch (RedisDown e) {
      failed(e.getMessage());
      return false;
    }
    heard(CLOSED);
    return true;
  }

  // --- the state machine; package-private so tests can step it on a fake ticker ---

  /** Reads the key once and applies the answer or the failure. */
  void poll() {
    long started = ticker.read();
    long seen;
    lock.lock();
    try {
      seen = messages;
    } finally {
      lock.unlock();
    }
    String value;
    try {
      value = link.get(key);
    } catch (RuntimeException e) { // RedisDown, or a bug: neither may kill the refresher
      if (stopped.getCount() > 0) { // a read cut short by close() is no outage
        failed(e instanceof RedisDown ? e.getMessage() : e.toString());
      }
      return;
    }
    answered(started, OPEN.equals(value), seen);
  }

  private void answered(long started, boolean keyOpen, long seen) {
    lock.lock();
    try {
      if (!healthy) {
        healthy = true;
        healthySinceNanos = started;
      }
      health.answered();
      everRead = true;
      lastReadNanos = started;
      if (messages == seen) { // else a message arrived meanwhile: it is newer than this read
        apply(keyOpen, started);
      }
    } finally {
      lock.unlock();
    }
  }

  /** A pub/sub message, or this instance's own trip or reset. */
  void heard(String message) {
    lock.lock();
    try {
      messages++;
      if (OPEN.equals(message)) {
        open = true;
        if (source != FlagState.UNREACHABLE) {
          source = FlagState.OPEN;
        }
      } else if (CLOSED.equals(message) && source != FlagState.UNREACHABLE) {
        apply(false, ticker.read());
      }
    } finally {
      lock.unlock();
    }
  }

  private void apply(boolean keyOpen, long now) {
    if (keyOpen) {
      source = FlagState.OPEN;
      open = true;
      return;
    }
    source = FlagState.CLOSED;
    boolean settled = healthy && now - healthySinceNanos >= settleNanos;
    if (settled) {
      open = false;
    }
  }

  void failed(String why) {
    lock.lock();
    try {
      healthy = false;
      source = FlagState.UNREACHABLE;
      if (policy == WhenUnreachable.OPEN || policy == WhenUnreachable.LAST && !everRead) {
        open = true;
      } else if (policy == WhenUnreachable.CLOSED) {
        open = ticker.read() - tripUntilNanos < 0; // this instance's own trip still holds
      }
    } finally {
      lock.unlock();
    }
    health.failed(why);
  }

  /** The watchdog: no successful read started within refresh + timeout means unreachable. */
  void checkStale() {
    long age = ticker.read() - lastReadNanos;
    if (age > refreshNanos + timeoutNanos && source != FlagState.UNREACHABLE) {
      lock.lock();
      try {
        if (ticker.read() - lastReadNanos > refreshNanos + timeoutNanos) {
          failed("no answer for " + TimeUnit.NANOSECONDS.toMillis(age) + " ms");
        }
      } finally {
        lock.unlock();
      }
    }
  }

  // --- pub/sub ---

  private void ping() {
    RedisLink.Subscription current = subscription;
    if (current != null) {
      current.ping();
    }
  }

  private void listen() {
    Duration silence = Duration.ofNanos(pingNanos + timeoutNanos);
    RedisLink.Listener listener = new RedisLink.Listener() {
      @Override
      public void subscribed(RedisLink.Subscription live) {
        subscription = live;
        if (stopped.getCount() == 0) {
          live.cancel();
        }
      }

      @Override
      public void message(String message) {
        heard(message);
      }

      @Override
      public void pong() {}
    };
    while (stopped.getCount() > 0) {
      try {
        link.subscribe(key, silence, listener);
      } catch (RuntimeException e) {
        LOG.debug("{} - the breaker subscriber lost its connection: {}", name, e.getMessage());
      }
      subscription = null;
      pause(Math.min(refreshNanos, pingNanos)); // then subscribe again; polling covers the gap
    }
  }

  private void pause(long nanos) {
    try {
      stopped.await(nanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops the threads, waiting until they have ended (at most about two timeouts after a silent
   * Redis). Idempotent. Does not close the link.
   */
  @Override
  public void close() {
    stopped.countDown();
    RedisLink.Subscription current = subscription;
    if (current != null) {
      current.cancel();
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    long waitNanos = 2 * timeoutNanos + pingNanos + TimeUnit.SECONDS.toNanos(1);
    try {
      threads.join(waitNanos);
      subscriberThreads.join(waitNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return key + " (" + source.name().toLowerCase(java.util.Locale.ROOT) + ")";
  }
}
