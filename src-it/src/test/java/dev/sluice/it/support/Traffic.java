package dev.sluice.it.support;

import dev.sluice.RateLimitExceededException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request threads running one JDBC action in a loop, as an application's request handlers
 * would: counting what passed, what Sluice refused and what else went wrong, and the slowest
 * request since the last look.
 *
 * <p>This class is threadsafe.
 */
public final class Traffic implements AutoCloseable {
  /** One request. */
  @FunctionalInterface
  public interface Request {
    void run(int thread) throws SQLException;
  }

  public final AtomicLong ok = new AtomicLong();
  public final AtomicLong refused = new AtomicLong();
  /** One example per exception class. */
  public final Map<String, Throwable> unexpected = new ConcurrentHashMap<>();
  private final AtomicLong worstNanos = new AtomicLong();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();
  private final Request request;
  private final long pauseAfterOkMillis;

  private Traffic(Request request, long pauseAfterOkMillis) {
    this.request = request;
    this.pauseAfterOkMillis = pauseAfterOkMillis;
  }

  /**
   * Starts {@code count} request threads.
   *
   * @param pauseAfterOkMillis think time after a request that passed, to bound the offered load
   */
  public static Traffic start(String label, int count, long pauseAfterOkMillis, Request request) {
    Traffic traffic = new Traffic(request, pauseAfterOkMillis);
    for (int i = 0; i < count; i++) {
      int id = i;
      Thread t = new Thread(() -> traffic.loop(id), label + "-" + i);
      t.start();
      traffic.threads.add(t);
    }
    return traffic;
  }

  private void loop(int id) {
    while (running.get()) {
      long start = System.nanoTime();
      try {
        request.run(id);
        ok.incrementAndGet();
        note(start);
        pause(pauseAfterOkMillis);
      } catch (RateLimitExceededException e) {
        refused.incrementAndGet();
        note(start);
        pause(2);
      } catch (SQLException | RuntimeException e) {
        note(start);
        unexpected.putIfAbsent(e.getClass().getName(), e);
        pause(10);
      }
    }
  }

  private void note(long startNanos) {
    long took = System.nanoTime() - startNanos;
    worstNanos.accumulateAndGet(took, Math::max);
  }

  /** The slowest request since the last call, and starts a new watch. */
  public Duration worstLatencyAndReset() {
    return Duration.ofNanos(worstNanos.getAndSet(0));
  }

  private static void pause(long millis) {
    if (millis > 0) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops the threads and waits for them. */
  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(30_000);
    }
  }
}
