package dev.sluice.internal.redis;

import dev.sluice.internal.limit.Ticker;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes this instance's trips and resets of the breaker key on a thread of its own, and writes the
 * last of them again until Redis takes it.
 *
 * <p>One Redis call may spend a pool wait, a connect (after a Sentinel lookup, under the link's
 * lock) and two reads, each bounded by the timeout; so the caller of {@code trip}/{@code reset}
 * waits at most one timeout ({@link #await}) and is told {@code false} if Redis has not taken the
 * write by then, while the write goes on here. Only the last call is kept: a later call replaces a
 * pending one, and a call Redis did not take is written again every retry interval. A trip's expiry
 * counts from the call (once nothing is left it is written as a reset); a reset is written again
 * only while the vote it withdraws lives.
 *
 * <p>Each writer votes in the hash {@code sluice:<name>:votes}: a trip casts its vote, then sets
 * the key for as long as the longest-lived vote; a reset withdraws its vote and deletes the key
 * only when no other vote is live, and reads the votes again after the delete, so a reset racing a
 * trip leaves the key open. The fleet's flag is open while any instance's breaker says open.
 *
 * <p>This class is threadsafe. The long form (the frozen Redis' socket buffer, the races):
 * docs/redis.md#trip-and-reset-bounded-and-the-last-call-wins and
 * docs/redis.md#several-breakers-one-flag.
 */
final class FlagWriter implements AutoCloseable {

  /**
   * One trip or reset.
   *
   * @param number counts the calls, from 1
   * @param open a trip (the key set to {@code open}) or a reset (the key deleted)
   * @param untilNanos when a trip ends, on the ticker
   */
  record Call(long number, boolean open, long untilNanos) {}

  /** Hears each call Redis took, before its caller is told: on the writer thread. */
  interface Taken {
    /**
     * Redis took a call.
     *
     * @param call the call
     * @param wroteOpen whether the key was set to {@code open} (a trip with time left)
     */
    void taken(Call call, boolean wroteOpen);
  }

  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String name;
  private final RedisLink link;
  private final String key;
  private final String votes;
  private final String voter;
  private final Ticker ticker;
  private final RedisHealth health;
  private final long retryNanos;
  private final Taken onTaken;
  private final DaemonThreads threads;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Guarded by {@link #lock}: the calls made so far. */
  private long calls;
  /** Guarded by {@link #lock}: the number of the last call Redis took. */
  private long takenNumber;
  /** Guarded by {@link #lock}: the last call while Redis has not taken it, else {@code null}. */
  private Call wanted;
  private boolean started;
  private boolean stopped;

  /**
   * Makes a writer; its thread starts with the first call.
   *
   * @param name the budget's name, for the log
   * @param link the Redis
   * @param key the breaker key, also the channel
   * @param votes the hash of the breakers' votes
   * @param voter this writer's field in it
   * @param ticker the clock a trip's expiry is measured on
   * @param health where write failures and recoveries are reported
   * @param retry how long to wait before writing a call Redis did not take again
   * @param threads makes the writer's thread
   * @param onTaken hears each call Redis took
   */
  FlagWriter(String name, RedisLink link, String key, String votes, String voter, Ticker ticker,
      RedisHealth health, Duration retry, DaemonThreads threads, Taken onTaken) {
    this.name = name;
    this.link = link;
    this.key = key;
    this.votes = votes;
    this.voter = voter;
    this.ticker = ticker;
    this.health = health;
    this.retryNanos = retry.toNanos();
    this.threads = threads;
    this.onTaken = onTaken;
  }

  /**
   * Records a call, replacing any call not yet written, and wakes the writer.
   *
   * @param open a trip, or a reset
   * @param untilNanos when a trip ends, on the ticker; for a reset, when the vote it withdraws
   *     ends (it is written again only until then)
   * @return the call's number, for {@link #await}
   */
  long submit(boolean open, long untilNanos) {
    lock.lock();
    try {
      wanted = new Call(++calls, open, untilNanos);
      if (!started && !stopped) {
        started = true;
        threads.newThread(this::run).start();
      }
      changed.signalAll();
      return calls;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until Redis has taken the call or a later one, at most {@code nanos}.
   *
   * @param number the call's number
   * @param nanos the longest wait
   * @return whether Redis took it (or a later call that replaced it) in time
   */
  boolean await(long number, long nanos) {
    lock.lock();
    try {
      long left = nanos;
      while (takenNumber < number && !stopped && left > 0) {
        left = changed.awaitNanos(left);
      }
      return takenNumber >= number;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return takenNumber >= number;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns whether no call was made after this one.
   *
   * @param call a call
   * @return {@code true} if it is the last call
   */
  boolean isLatest(Call call) {
    lock.lock();
    try {
      return call.number() == calls;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns whether a call is waiting for Redis (being written or to be written again).
   *
   * @return {@code true} while the last call is not taken nor dropped
   */
  boolean pending() {
    lock.lock();
    try {
      return wanted != null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns whether a trip with time left is waiting for Redis: the key does not say it yet, so a
   * read that finds it closed must not close this instance's flag.
   *
   * @param now the ticker's reading
   * @return {@code true} while a trip is unwritten and not expired
   */
  boolean tripPending(long now) {
    lock.lock();
    try {
      return wanted != null && wanted.open() && wanted.untilNanos() - now > 0;
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    for (Call call = next(); call != null; call = next()) {
      boolean wroteOpen;
      try {
        wroteOpen = write(call);
      } catch (RuntimeException e) { // RedisDown, or a bug: neither may end the writer
        if (!isStopped()) {
          health.failed(e instanceof RedisDown down ? down : new RedisDown(e.toString(), e));
        }
        if (!call.open() && call.untilNanos() - ticker.read() <= 0) {
          drop(call); // the vote it withdraws has expired in Redis on its own
        } else {
          pause(call);
        }
        continue;
      }
      health.answered();
      onTaken.taken(call, wroteOpen); // before the caller hears true: the local copy follows
      took(call);
    }
  }

  /** Writes a call; returns whether the key says open after it (this or another's vote). */
  private boolean write(Call call) {
    long leftNanos = call.untilNanos() - ticker.read();
    if (call.open() && leftNanos > 0) {
      long lastMillis = link.vote(votes, voter, Duration.ofNanos(leftNanos));
      openFor(Math.max(lastMillis, 1));
      return true;
    }
    long othersMillis = link.vote(votes, voter, Duration.ZERO);
    if (othersMillis > 0) {
      LOG.info("{} - this instance's breaker closed, but the breaker flag stays open: another"
          + " instance's breaker still says open (its vote lasts {} s more at most)", name,
          (othersMillis + 999) / 1000);
      return true;
    }
    link.deleteAndPublish(key, key, FlagValue.CLOSED_WORD);
    othersMillis = link.vote(votes, voter, Duration.ZERO); // a trip between the two steps
    if (othersMillis > 0) {
      openFor(othersMillis);
      return true;
    }
    return false;
  }

  private void openFor(long millis) {
    link.setAndPublish(key, FlagValue.OPEN_WORD, Duration.ofMillis(millis), key,
        FlagValue.OPEN_WORD);
  }

  /** Stops writing a reset whose vote has expired, unless a later call replaced it. */
  private void drop(Call call) {
    lock.lock();
    try {
      if (wanted != call) {
        return;
      }
      wanted = null;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    LOG.info("{} - stopped writing this instance's reset of the breaker flag to Redis: the vote"
        + " it withdraws has expired there on its own", name);
  }

  /** The call to write, waiting for one; {@code null} once stopped. */
  private Call next() {
    lock.lock();
    try {
      while (wanted == null && !stopped) {
        changed.awaitUninterruptibly();
      }
      return stopped ? null : wanted;
    } finally {
      lock.unlock();
    }
  }

  private void took(Call call) {
    lock.lock();
    try {
      takenNumber = Math.max(takenNumber, call.number());
      if (wanted == call) {
        wanted = null;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits the retry interval, cut short by a newer call or by close. */
  private void pause(Call failed) {
    lock.lock();
    try {
      long left = retryNanos;
      while (wanted == failed && !stopped && left > 0) {
        left = changed.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // no one interrupts this thread but a shutdown
    } finally {
      lock.unlock();
    }
  }

  private boolean isStopped() {
    lock.lock();
    try {
      return stopped;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the writer: a call Redis has not taken yet is dropped, and waiting callers are told
   * {@code false}. Does not wait for the thread; {@link DaemonThreads#join} does.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
