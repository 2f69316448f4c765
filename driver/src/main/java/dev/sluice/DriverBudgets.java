package dev.sluice;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Ticker;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The budgets made by {@link SluiceDriver}: one per {@code sluice.name} in this JVM (strictly, in
 * the class loader that loaded Sluice), shared by every connection made with that name, so that a
 * pool of fifty physical connections draws from one bucket.
 *
 * <p>Design note: when a budget stops. A driver-made budget may own background work (a Redis flag
 * reader, a registry heartbeat that counts this instance in {@code sluice.instances=redis}). It
 * must stop when the pool that used it is closed, or an application that swaps or closes its pool
 * keeps reading Redis and keeps counting itself as an instance for its whole life. The driver
 * cannot see a pool being closed, only its physical connections: so each budget holds weak
 * references to the raw connections made for it, and a sweeper checks them every
 * {@value #SWEEP_SECONDS} s with {@link Connection#isClosed()} (a local read in the drivers that
 * matter). A connection counts as gone when closed or garbage-collected, so a leaked connection
 * does not keep a budget forever. A budget with no connection left, and none being opened, for
 * {@value #GRACE_SECONDS} s is closed and forgotten; the next connection with its name builds it
 * anew (with settings that may now differ). The grace period keeps the budget, and its bucket,
 * across a pool replacing its connections and across code that opens one connection per task
 * through {@code DriverManager}. The sweeper is one daemon thread, started with the first budget
 * and stopped with the last, so nothing of Sluice stays running once no budget is left.
 *
 * <p>This class is threadsafe: its state is guarded by one {@link ReentrantLock} (not a monitor, so
 * a virtual thread opening a budget's Redis connection does not pin its carrier);
 * {@code isClosed()} is never called while holding it, and neither is {@link Budget#close()}.
 */
final class DriverBudgets {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceDriver.class);

  static final int GRACE_SECONDS = 30;
  static final int SWEEP_SECONDS = 10;

  /** The budgets of the registered driver. */
  static final DriverBudgets SHARED =
      new DriverBudgets(Ticker.system(), Duration.ofSeconds(GRACE_SECONDS), true);

  private final Ticker ticker;
  private final long graceNanos;
  private final boolean sweepInBackground;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Entry> entries = new HashMap<>();
  private ScheduledExecutorService sweeper;

  DriverBudgets(Ticker ticker, Duration grace, boolean sweepInBackground) {
    this.ticker = ticker;
    this.graceNanos = grace.toNanos();
    this.sweepInBackground = sweepInBackground;
  }

  /** One budget and the connections made for it; guarded by the registry's lock. */
  static final class Entry {
    private final Budget budget;
    private final List<WeakReference<Connection>> connections = new ArrayList<>();
    private int connecting;
    private boolean idle;
    private long idleSinceNanos;

    private Entry(Budget budget) {
      this.budget = budget;
    }

    Limiter limiter() {
      return budget.limiter();
    }
  }

  /**
   * Returns the budget named by {@code settings}, building it on first use, and counts a
   * connection as being opened for it until {@link #connected} or {@link #abandoned}.
   *
   * @throws IllegalArgumentException when the name is in use with other settings, naming both
   *     values, or when the settings do not fit together
   */
  Entry acquire(Settings settings) {
    String name = settings.get(Keys.NAME);
    lock.lock();
    try {
      Entry entry = entries.get(name);
      if (entry == null) {
        entry = new Entry(Budget.open(settings, null, true));
        entries.put(name, entry);
        startSweeper();
      } else {
        checkSame(name, entry.budget.settings(), settings);
      }
      entry.connecting++;
      entry.idle = false;
      return entry;
    } finally {
      lock.unlock();
    }
  }

  /** Records that {@code raw} was opened for the entry's budget. */
  void connected(Entry entry, Connection raw) {
    lock.lock();
    try {
      entry.connecting--;
      entry.connections.add(new WeakReference<>(raw));
    } finally {
      lock.unlock();
    }
  }

  /** Records that a connection could not be opened for the entry's budget. */
  void abandoned(Entry entry) {
    lock.lock();
    try {
      entry.connecting--;
    } finally {
      lock.unlock();
    }
  }

  /** The figures of the budget named {@code name}, or {@code null} when there is none. */
  Stats stats(String name) {
    Entry entry = find(name);
    return entry == null ? null : entry.budget.stats();
  }

  /** The limiter of the budget named {@code name}, or {@code null}: for tests. */
  Limiter limiter(String name) {
    Entry entry = find(name);
    return entry == null ? null : entry.limiter();
  }

  private Entry find(String name) {
    lock.lock();
    try {
      return entries.get(name);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Forgets the connections that are gone and closes the budgets idle for the grace period. Runs
   * on the sweeper thread; tests call it directly.
   */
  void sweep() {
    Map<Entry, List<WeakReference<Connection>>> seen = snapshot();
    Set<WeakReference<Connection>> gone = gone(seen);
    List<Budget> expired = new ArrayList<>();
    lock.lock();
    try {
      long now = ticker.read();
      entries.values().removeIf(entry -> {
        entry.connections.removeIf(gone::contains);
        if (isExpired(entry, now)) {
          expired.add(entry.budget);
          return true;
        }
        return false;
      });
      if (entries.isEmpty()) {
        stopSweeper();
      }
    } finally {
      lock.unlock();
    }
    for (Budget budget : expired) {
      LOG.info("{} - closing the driver's budget: no connection used it for {} s",
          budget.limiter().name(), TimeUnit.NANOSECONDS.toSeconds(graceNanos));
      budget.close();
    }
  }

  /** Whether the entry has had no connection for the grace period; marks it idle if newly so. */
  private boolean isExpired(Entry entry, long now) {
    if (!entry.connections.isEmpty() || entry.connecting > 0) {
      entry.idle = false;
      return false;
    }
    if (!entry.idle) {
      entry.idle = true;
      entry.idleSinceNanos = now;
    }
    return now - entry.idleSinceNanos >= graceNanos;
  }

  private Map<Entry, List<WeakReference<Connection>>> snapshot() {
    lock.lock();
    try {
      Map<Entry, List<WeakReference<Connection>>> seen = new IdentityHashMap<>();
      for (Entry entry : entries.values()) {
        seen.put(entry, new ArrayList<>(entry.connections));
      }
      return seen;
    } finally {
      lock.unlock();
    }
  }

  /** The references whose connection was collected or closed; asked outside the lock. */
  private static Set<WeakReference<Connection>> gone(
      Map<Entry, List<WeakReference<Connection>>> seen) {
    Set<WeakReference<Connection>> gone = Collections.newSetFromMap(
        new IdentityHashMap<>());
    for (List<WeakReference<Connection>> refs : seen.values()) {
      for (WeakReference<Connection> ref : refs) {
        Connection connection = ref.get();
        if (connection == null || isClosed(connection)) {
          gone.add(ref);
        }
      }
    }
    return gone;
  }

  private static boolean isClosed(Connection connection) {
    try {
      return connection.isClosed();
    } catch (SQLException | RuntimeException e) {
      return true; // a connection that cannot say is broken: it no longer holds the budget
    }
  }

  private static void checkSame(String name, Settings existing, Settings wanted) {
    List<String> differences = existing.differences(wanted);
    if (!differences.isEmpty()) {
      throw new IllegalArgumentException("sluice.name \"" + name + "\" already names a budget in"
          + " this JVM with other settings: " + String.join(", ", differences)
          + " (the budget's value first, then this URL's). Every URL naming one budget must give"
          + " the same settings: align them, or give this one its own sluice.name");
    }
  }

  private void startSweeper() {
    if (!sweepInBackground || sweeper != null) {
      return;
    }
    sweeper = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "sluice-driver-sweeper");
      thread.setDaemon(true);
      return thread;
    });
    sweeper.scheduleWithFixedDelay(this::sweepQuietly, SWEEP_SECONDS, SWEEP_SECONDS,
        TimeUnit.SECONDS);
  }

  private void stopSweeper() {
    if (sweeper != null) {
      sweeper.shutdown();
      sweeper = null;
    }
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.warn("the driver's budget sweeper failed; it will try again", e); // never kill the task
    }
  }

  boolean isSweeping() {
    lock.lock();
    try {
      return sweeper != null;
    } finally {
      lock.unlock();
    }
  }
}
