package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Periodic tasks that no exception ends (issue 10, item 1). */
class DaemonThreadsTest {

  @Test
  void scheduler_taskThrowsEveryRun_runsOnAndLogsEachKindOnce() throws Exception {
    DaemonThreads threads = new DaemonThreads("test", "t");
    ScheduledThreadPoolExecutor scheduler = threads.scheduler(1);
    CountDownLatch runs = new CountDownLatch(6);
    AtomicInteger run = new AtomicInteger();
    scheduler.scheduleAtFixedRate(() -> {
      runs.countDown();
      if (run.incrementAndGet() % 2 == 0) {
        throw new IllegalStateException("even");
      }
      throw new AssertionError("odd"); // an Error does not end it either
    }, 0, 1, TimeUnit.MILLISECONDS);
    try {
      assertThat(runs.await(10, TimeUnit.SECONDS)).as("six runs").isTrue();
    } finally {
      scheduler.shutdownNow();
      threads.join(TimeUnit.SECONDS.toNanos(5));
    }
    assertThat(threads.failures()).isGreaterThanOrEqualTo(6);
    assertThat(threads.kindsLogged()).isEqualTo(2);
  }

  @Test
  void scheduler_fixedDelayTaskThrows_runsOn() throws Exception {
    DaemonThreads threads = new DaemonThreads("test", "t");
    ScheduledThreadPoolExecutor scheduler = threads.scheduler(1);
    CountDownLatch runs = new CountDownLatch(3);
    scheduler.scheduleWithFixedDelay(() -> {
      runs.countDown();
      throw new IllegalStateException("boom");
    }, 0, 1, TimeUnit.MILLISECONDS);
    try {
      assertThat(runs.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      scheduler.shutdownNow();
      threads.join(TimeUnit.SECONDS.toNanos(5));
    }
    assertThat(threads.kindsLogged()).isEqualTo(1);
  }
}
