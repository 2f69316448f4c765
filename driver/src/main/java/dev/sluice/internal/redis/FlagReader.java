package dev.sluice.internal.redis;

import dev.sluice.FlagState;
import dev.sluice.internal.config.Unreachable;
import dev.sluice.internal.limit.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a local copy of the {@code sluice:<name>:breaker} key, so that the request path reads a
 * volatile field and never talks to Redis.
 *
 * <ul>
 *   <li>Polling is the truth: a background thread reads the key every refresh interval.
 *   <li>Pub/sub accelerates: an {@code open} message applies at once (the safe direction); any
 *       other only asks for a read of the key at once, and the read decides.
 *   <li>A failed or late read keeps the last value; only when no read has succeeded for
 *       {@code sluice.redis.unreachable-after} (a watchdog thread checks) does the state turn
 *       {@link FlagState#UNREACHABLE}. A flag open only for that reason
 *       ({@link #openWasPresumed()}) ends without a recovery hold.
 *   <li>After an outage a closed key closes the flag only after the settle time; any value but
 *       {@code open} means closed ({@link FlagValue}), with one WARN per value.
 * </ul>
 *
 * <p>A result read while an {@code open} message arrived, or while this instance tripped or reset,
 * is dropped (the event is newer: writers set the key before they publish), and a closed key does
 * not close the flag while this instance's own trip still waits for Redis ({@link FlagWriter}).
 *
 * <p>This class is threadsafe. {@link #isOpen()} reads one volatile field. State changes happen
 * under one lock (never held across a Redis call), on background threads or in
 * {@link #trip}/{@link #reset} callers, who wait for Redis at most one timeout. The long form:
 * docs/redis.md#a-message-is-a-hint-the-key-is-the-truth and
 * docs/redis.md#when-redis-is-down-refusing-or-silent.
 */
public final class FlagReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FlagReader.class);
  /**
   * The readers of this JVM by Redis and key: a trip here opens the others at once, as its
   * {@code open} message would a few milliseconds later (issue 36, item 5: the Spring Boot
   * starter publishes the breaker through a flag of its own, and the data source's flag waited
   * for the message or the next read while the breaker beside it was already open).
   */
  private static final Map<String, Set<FlagReader>> IN_THIS_JVM = new ConcurrentHashMap<>();

  private final String name;
  private final String key;
  private final RedisLink link;
  private final RedisHealth health;
  private final Ticker ticker;
  private final long refreshNanos;
  private final long timeoutNanos;
  private final long settleNanos;
  private final long pingNanos;
  private final long unreachableAfterNanos;
  private final Unreachable policy;

  private volatile boolean open;
  private volatile FlagState source = FlagState.UNREACHABLE;
  /**
   * Whether the flag's last spell of open began because the key could not be read (or was not
   * read yet) and saw no real open since: no key read {@code open}, no {@code open} message, no
   * trip. Kept after the flag closes, until the next spell of open begins.
   */
  private volatile boolean presumedOpen;
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
  private final DaemonThreads writerThreads;
  private final FlagWriter writer;
  private final ChannelSubscriber subscriber;
  /** Whether a read asked for by a message is queued and not started yet: one at a time. */
  private final AtomicBoolean confirmQueued = new AtomicBoolean();
  /** The last odd value logged, so that each is logged once; {@code null} after a plain one. */
  private final AtomicReference<String> oddValue = new AtomicReference<>();
  private ScheduledThreadPoolExecutor scheduler;

  /**
   * Makes a reader; {@link #start()} starts it.
   *
   * @param name the budget's name: the key and channel are {@code sluice:<name>:breaker}
   * @param link the Redis
   * @param health where failed and recovered reads are reported (and logged); writes get a
   *     tracker of their own
   * @param timing refresh, timeout, settle and ping
   * @param policy what the flag says while Redis cannot be read
   * @param ticker the clock
   */
  public FlagReader(String name, RedisLink link, RedisHealth health, Timing timing,
      Unreachable policy, Ticker ticker) {
    this.name = name;
    this.key = "sluice:" + name + ":breaker";
    this.link = link;
    this.health = health;
    this.ticker = ticker;
    this.refreshNanos = timing.refresh().toNanos();
    this.timeoutNanos = timing.timeout().toNanos();
    this.settleNanos = timing.settle().toNanos();
    this.pingNanos = timing.ping().toNanos();
    this.unreachableAfterNanos = timing.unreachableAfter().toNanos();
    this.policy = policy;
    this.threads = new DaemonThreads("redis-flag", name);
    this.subscriberThreads = new DaemonThreads("redis-subscriber", name);
    this.writerThreads = new DaemonThreads("redis-writer", name);
    this.writer = new FlagWriter(name, link, key, "sluice:" + name + ":votes",
        Registry.memberId(), ticker, health.forUse("the breaker flag's writes (trip/reset)",
        "the last trip() or reset() is written again every "
        + TimeUnit.NANOSECONDS.toMillis(refreshNanos) + " ms until Redis takes it (a reset only"
        + " while its vote lives); this instance's flag follows it meanwhile"), timing.refresh(),
        writerThreads, this::taken);
    this.subscriber = new ChannelSubscriber(name, "the breaker subscriber", key, link,
        Duration.ofNanos(pingNanos + timeoutNanos), Math.min(refreshNanos, pingNanos), this::heard,
        subscriberThreads);
    long now = ticker.read();
    this.lastReadNanos = now;
    this.tripUntilNanos = now;
    this.healthySinceNanos = now - settleNanos; // no outage yet: the first answer decides at once
    this.open = policy != Unreachable.CLOSED; // nothing read yet: as if unreachable
    this.presumedOpen = open;
    IN_THIS_JVM.computeIfAbsent(localKey(), k -> ConcurrentHashMap.newKeySet()).add(this);
  }

  /**
   * The timings of a reader.
   *
   * @param refresh how often the key is read
   * @param timeout how long one read may take
   * @param settle how long Redis must answer before a closed key closes the flag after an outage
   * @param ping how often the subscriber pings
   * @param unreachableAfter how long the key may go unread before Redis counts as unreachable;
   *     longer than refresh plus timeout
   */
  public record Timing(Duration refresh, Duration timeout, Duration settle, Duration ping,
      Duration unreachableAfter) {}

  /**
   * Reads the key once (waiting at most the timeout), then starts the background threads.
   *
   * @return this reader
   */
  public FlagReader start() {
    poll();
    // three threads, none of which an exception ends (see DaemonThreads): a poll and a read asked
    // for by a message may both wait on a silent Redis while the watchdog must still run
    scheduler = threads.scheduler(3);
    scheduler.setRemoveOnCancelPolicy(true);
    scheduler.scheduleAtFixedRate(this::poll, refreshNanos, refreshNanos, TimeUnit.NANOSECONDS);
    long watch = Math.max(TimeUnit.MILLISECONDS.toNanos(5),
        Math.min(refreshNanos, timeoutNanos) / 4);
    scheduler.scheduleAtFixedRate(this::checkStale, watch, watch, TimeUnit.NANOSECONDS);
    scheduler.scheduleAtFixedRate(subscriber::ping, pingNanos, pingNanos, TimeUnit.NANOSECONDS);
    subscriber.start();
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
   * Returns whether the flag's current (or, once closed, its last) spell of open was only
   * presumed: it began because Redis could not be read, and neither the key, a message nor a
   * trip said open since. The limiter starts no recovery hold after such a spell.
   *
   * @return {@code true} if the open was a fail-safe guess, not the breaker's word
   */
  public boolean openWasPresumed() {
    return presumedOpen;
  }

  /**
   * Opens this instance's flag at once, casts this instance's vote (expiring with the trip) and has
   * the key set to {@code open} for as long as the longest-lived vote, {@code open} published.
   * Waits at most the timeout for Redis; if Redis did not take the write
   * by then, it is written again in the background until Redis takes it, unless a later
   * {@link #trip} or {@link #reset} replaces it (the last call wins). Under
   * {@code sluice.redis.unreachable=closed} the flag stays open for {@code ttl} while Redis cannot
   * be read.
   *
   * @param ttl how long the key lives, counted from this call
   * @return whether Redis took the write (or a later call's) within the timeout
   */
  public boolean trip(Duration ttl) {
    long call;
    lock.lock();
    try {
      tripUntilNanos = ticker.read() + nanos(ttl);
      openNow();
      call = writer.submit(true, tripUntilNanos); // under the lock: calls are ordered as here
    } finally {
      lock.unlock();
    }
    for (FlagReader other : IN_THIS_JVM.getOrDefault(localKey(), Set.of())) {
      if (other != this) {
        other.heard(FlagValue.OPEN_WORD); // outside this lock: each takes its own
      }
    }
    return writer.await(call, timeoutNanos);
  }

  /** The Redis and the key: what readers of the same flag in this JVM share. */
  private String localKey() {
    return link + " " + key;
  }

  /**
   * Withdraws this instance's vote and, when no other instance's vote is live, has the key
   * deleted and {@code closed} published; this instance's flag closes once Redis took it (and
   * Redis has answered for the settle time after an outage). Waits at most the timeout; if Redis
   * did not take the write by then, it is written again in the background as for {@link #trip},
   * until the vote it withdraws would have expired anyway.
   *
   * @return whether Redis took the write (or a later call's) within the timeout
   */
  public boolean reset() {
    long call;
    lock.lock();
    try {
      long voteUntilNanos = tripUntilNanos;
      tripUntilNanos = ticker.read();
      messages++;
      call = writer.submit(false, voteUntilNanos);
    } finally {
      lock.unlock();
    }
    return writer.await(call, timeoutNanos);
  }

  /** Whether this instance's last trip or reset is still waiting for Redis; for tests. */
  boolean writePending() {
    return writer.pending();
  }

  /** Redis took a trip or reset of this instance: the local copy follows, unless a later came. */
  private void taken(FlagWriter.Call call, boolean wroteOpen) {
    lock.lock();
    try {
      if (!writer.isLatest(call)) {
        return; // the later call set the local copy already, and is written next
      }
      messages++; // a read in flight may predate the write
      if (!wroteOpen && source != FlagState.UNREACHABLE) {
        apply(false, ticker.read());
      }
    } finally {
      lock.unlock();
    }
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
        failed(e instanceof RedisDown down ? down : new RedisDown(e.toString(), e));
      }
      return;
    }
    FlagValue read = FlagValue.of(value);
    noteOdd(value, read);
    answered(started, read.open(), seen);
  }

  /** Logs a value other than {@code open} once, naming it: a person typed it, meaning something. */
  private void noteOdd(String value, FlagValue read) {
    String odd = read.odd() ? value : null;
    if (!Objects.equals(oddValue.getAndSet(odd), odd) && odd != null) {
      LOG.warn("{} - the key {} holds \"{}\", not \"open\": Sluice takes it as {}; SET it"
          + " to open to open the flag, or DEL it to close it", name, key,
          FlagValue.shown(odd), read.reason());
    }
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
      // A message, trip or reset arrived meanwhile: it is newer than this read. And while this
      // instance's trip waits for Redis, a closed key only says the trip is not written yet.
      boolean stale = messages != seen || !keyOpen && writer.tripPending(ticker.read());
      if (!stale) {
        apply(keyOpen, started);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * A pub/sub message. {@code open} opens the flag at once: the safe direction. Anything else
   * ({@code closed}) is a hint that the key changed: only a read of the key decides, so a stray
   * {@code closed} never closes a flag whose key says open.
   */
  void heard(String message) {
    if (!FlagValue.OPEN_WORD.equals(message)) {
      confirm();
      return;
    }
    lock.lock();
    try {
      openNow();
    } finally {
      lock.unlock();
    }
  }

  /** Guarded by {@link #lock}: an event newer than any read in flight opens the local copy. */
  private void openNow() {
    messages++; // a read in flight started before this event: its answer is stale
    presumedOpen = false;
    open = true;
    if (source != FlagState.UNREACHABLE) {
      source = FlagState.OPEN;
    }
  }

  /** A trip's length in nanoseconds, capped far below where ticker arithmetic would wrap. */
  private static long nanos(Duration ttl) {
    Duration cap = Duration.ofNanos(Long.MAX_VALUE / 4); // 73 years
    return ttl.compareTo(cap) > 0 ? cap.toNanos() : ttl.toNanos();
  }

  /** Queues one read of the key now, unless one is queued already (a stream of messages). */
  private void confirm() {
    ScheduledThreadPoolExecutor current = scheduler;
    if (current != null && confirmQueued.compareAndSet(false, true)) {
      try {
        current.execute(() -> {
          confirmQueued.set(false); // before the read: a message during it asks for another
          poll();
        });
      } catch (RejectedExecutionException e) {
        confirmQueued.set(false); // closing
      }
    }
  }

  private void apply(boolean keyOpen, long now) {
    if (keyOpen) {
      source = FlagState.OPEN;
      presumedOpen = false;
      open = true;
      return;
    }
    source = FlagState.CLOSED;
    boolean settled = healthy && now - healthySinceNanos >= settleNanos;
    if (settled) {
      open = false;
    }
  }

  /**
   * A read failed. Within {@code unreachable-after} of the last successful read's start it keeps
   * the last value and logs nothing: the next read decides (while settling after an outage, the
   * settle starts again). After that, Redis is unreachable.
   */
  void failed(RedisDown why) {
    RedisDown outage = null;
    lock.lock();
    try {
      long silentNanos = ticker.read() - lastReadNanos;
      if (silentNanos <= unreachableAfterNanos) {
        if (ticker.read() - healthySinceNanos < settleNanos) {
          healthy = false; // a flapping Redis: the settle counts again from its next answer
        }
        return;
      }
      // a refusal (NOPERM, WRONGTYPE) is an answer: its WARN must not call Redis unreachable
      outage = why.refused()
          ? new RedisDown(why.getMessage() + "; every read for " + millis(silentNanos) + " ms",
              why, true)
          : new RedisDown("no successful GET " + key + " for " + millis(silentNanos) + " ms,"
              + " more than sluice.redis.unreachable-after (" + millis(unreachableAfterNanos)
              + " ms); the last read: " + why.getMessage(), why);
      unreachable();
    } finally {
      lock.unlock();
    }
    health.failed(outage); // logs: outside the lock, which trip() and reset() callers take
  }

  /** The watchdog: no successful read started within {@code unreachable-after} means unreachable. */
  void checkStale() {
    if (ticker.read() - lastReadNanos <= unreachableAfterNanos
        || source == FlagState.UNREACHABLE) {
      return;
    }
    RedisDown outage;
    lock.lock();
    try {
      long silentNanos = ticker.read() - lastReadNanos;
      if (silentNanos <= unreachableAfterNanos || source == FlagState.UNREACHABLE) {
        return;
      }
      outage = new RedisDown("no answer to GET " + key + " for " + millis(silentNanos)
          + " ms, more than sluice.redis.unreachable-after (" + millis(unreachableAfterNanos)
          + " ms)", null);
      unreachable();
    } finally {
      lock.unlock();
    }
    health.failed(outage);
  }

  /** Guarded by {@link #lock}: Redis has been silent too long; the policy answers. */
  private void unreachable() {
    healthy = false;
    source = FlagState.UNREACHABLE;
    boolean wasOpen = open;
    if (policy == Unreachable.OPEN || policy == Unreachable.LAST && !everRead) {
      open = true;
    } else if (policy == Unreachable.CLOSED) {
      open = ticker.read() - tripUntilNanos < 0; // this instance's own trip still holds
    }
    if (open && !wasOpen) {
      presumedOpen = true;
    }
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  /**
   * Stops the threads, waiting until they have ended (at most about two timeouts after a silent
   * Redis). Idempotent. Does not close the link.
   */
  @Override
  public void close() {
    IN_THIS_JVM.computeIfPresent(localKey(), (k, readers) -> {
      readers.remove(this);
      return readers.isEmpty() ? null : readers;
    });
    stopped.countDown();
    writer.close();
    subscriber.close();
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    long waitNanos = 2 * timeoutNanos + pingNanos + TimeUnit.SECONDS.toNanos(1);
    try {
      threads.join(waitNanos);
      subscriberThreads.join(waitNanos);
      writerThreads.join(waitNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return key + " (" + source.name().toLowerCase(java.util.Locale.ROOT) + ")";
  }
}
