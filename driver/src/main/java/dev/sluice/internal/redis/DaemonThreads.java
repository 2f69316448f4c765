package dev.sluice.internal.redis;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Makes the daemon threads of Sluice's background work, all named {@code sluice-...}. */
final class DaemonThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  /** Threads named {@code sluice-<what>-<name>-<n>}. */
  DaemonThreads(String what, String name) {
    this.prefix = "sluice-" + what + "-" + name + "-";
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + count.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }
}
