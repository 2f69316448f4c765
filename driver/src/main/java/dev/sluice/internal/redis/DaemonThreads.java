package dev.sluice.internal.redis;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the daemon threads of Sluice's background work, all named {@code sluice-...}, and waits
 * for them to end. An executor counts as terminated a moment before its threads have returned,
 * so closing joins the threads themselves: after {@code close()} none is left.
 *
 * <p>This class is threadsafe.
 */
final class DaemonThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();
  private final List<Thread> made = new CopyOnWriteArrayList<>();

  /** Threads named {@code sluice-<what>-<name>-<n>}. */
  DaemonThreads(String what, String name) {
    this.prefix = "sluice-" + what + "-" + name + "-";
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + count.incrementAndGet());
    thread.setDaemon(true);
    made.add(thread);
    return thread;
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
