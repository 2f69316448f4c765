package dev.sluice.internal.redis;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the daemon threads of Sluice's background work, all named {@code sluice-...}, runs their
 * periodic tasks so that no exception ends one, and waits for them to end. An executor counts as
 * terminated a moment before its threads have returned, so closing joins the threads themselves:
 * after {@code close()} none is left.
 *
 * <p>Why no periodic task may die: a {@link ScheduledThreadPoolExecutor} silently cancels a task
 * whose run throws. A dead heartbeat lets this instance's registry member expire, and the others
 * then count it out while it keeps its larger share (issue 10: a share change that threw inside
 * the heartbeat did exactly that); a dead poll freezes the flag. So every periodic task scheduled
 * through {@link #scheduler(int)} (or run through {@link #guarded}) catches what its run throws,
 * logs it at WARN the first time that kind of failure (its exception class) happens here and at
 * DEBUG after, and runs again at its next tick. Errors are caught too: nothing is gained by ending the heartbeat on one.
 *
 * <p>This class is threadsafe.
 */
final class DaemonThreads implements ThreadFactory {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();
  private final List<Thread> made = new CopyOnWriteArrayList<>();
  /** The kinds of failure already logged at WARN: exception class names. */
  private final Set<String> failuresLogged = ConcurrentHashMap.newKeySet();
  private final LongAdder failures = new LongAdder();

  /** Threads named {@code sluice-<what>-<name>-<n>}. */
  DaemonThreads(String what, String name) {
    this.prefix = "sluice-" + what + "-" + name + "-";
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + count.incrementAndGet());
    thread.setDaemon(true);
    thread.setUncaughtExceptionHandler((t, e) -> LOG.warn("{} ended on an exception", t, e));
    made.add(thread);
    return thread;
  }

  /**
   * Returns a scheduler on these threads whose periodic tasks survive their exceptions (see the
   * class notes).
   *
   * @param threads how many threads it keeps
   * @return the scheduler; its owner shuts it down
   */
  ScheduledThreadPoolExecutor scheduler(int threads) {
    return new ScheduledThreadPoolExecutor(threads, this) {
      @Override
      public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, long initialDelay,
          long period, TimeUnit unit) {
        return super.scheduleAtFixedRate(guarded(task), initialDelay, period, unit);
      }

      @Override
      public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, long initialDelay,
          long delay, TimeUnit unit) {
        return super.scheduleWithFixedDelay(guarded(task), initialDelay, delay, unit);
      }
    };
  }

  /** Returns {@code task} made to log what it throws instead of ending. */
  Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        failed(e);
      }
    };
  }

  private void failed(Throwable e) {
    failures.increment();
    String who = prefix.substring(0, prefix.length() - 1);
    if (failuresLogged.add(e.getClass().getName())) {
      LOG.warn("{} - a background task failed and runs again at its next tick (further failures"
          + " of this kind are logged at DEBUG): {}", who, e, e);
    } else {
      LOG.debug("{} - a background task failed again: {}", who, e.toString());
    }
  }

  /** How many runs of a guarded task have failed so far: for tests. */
  long failures() {
    return failures.sum();
  }

  /** How many kinds of failure were logged at WARN: for tests. */
  int kindsLogged() {
    return failuresLogged.size();
  }

  /**
   * Waits until every thread made here has ended, or the time is up.
   *
   * @param nanos the longest wait
   * @throws InterruptedException if the caller is interrupted meanwhile
   */
  void join(long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    for (Thread thread : made) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        TimeUnit.NANOSECONDS.timedJoin(thread, left);
      }
    }
  }
}
