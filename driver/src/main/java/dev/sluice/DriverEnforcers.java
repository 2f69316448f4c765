package dev.sluice;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Ticker;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enforcers made by {@link SluiceDriver}: one per {@code sluice.name} in this JVM (strictly, in
 * the class loader that loaded Sluice), shared by every connection made with that name, so that a
 * pool of fifty physical connections draws from one bucket.
 *
 * <p>Building outside the lock: building an enforcer may wait on Redis and registers an MXBean, so
 * under the lock the first connect for a name only puts a placeholder {@link Entry} in the map and
 * becomes its one builder; connects for that name wait for that build alone, every other connect
 * and scrape takes the lock for a look-up only, and no losing copy is ever left to clean up.
 *
 * <p>When an enforcer stops: the driver cannot see a pool being closed, only its physical
 * connections, so each enforcer counts the raw connections made for it ({@link DriverConnections},
 * held weakly) and a sweeper checks them every {@value #SWEEP_SECONDS} s; an enforcer with none left
 * and none being opened for {@value #GRACE_SECONDS} s is closed and forgotten. The sweeper is one
 * daemon thread, running only while an enforcer exists.
 *
 * <p>This class is threadsafe: its state is guarded by one {@link ReentrantLock} (not a monitor, so
 * a waiting virtual thread does not pin its carrier), held only for map and list updates: neither
 * {@link Enforcer#open}, {@link Enforcer#close()} nor {@code isClosed()} is ever called while
 * holding it. The long form: docs/architecture.md#driver-modes-enforcers.
 */
final class DriverEnforcers {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.SluiceDriver");

  static final int GRACE_SECONDS = 30;
  static final int SWEEP_SECONDS = 10;

  /** The enforcers of the registered driver. */
  static final DriverEnforcers SHARED =
      new DriverEnforcers(Ticker.system(), Duration.ofSeconds(GRACE_SECONDS), true);

  /** Builds an enforcer from checked settings; tests give one that waits or fails on purpose. */
  interface Opener {
    Enforcer open(Settings settings);
  }

  private final Ticker ticker;
  private final long graceNanos;
  private final boolean sweepInBackground;
  private final Opener opener;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Entry> entries = new HashMap<>();
  private ScheduledExecutorService sweeper;

  DriverEnforcers(Ticker ticker, Duration grace, boolean sweepInBackground) {
    this(ticker, grace, sweepInBackground, settings -> Enforcer.open(settings, null, true));
  }

  DriverEnforcers(Ticker ticker, Duration grace, boolean sweepInBackground, Opener opener) {
    this.ticker = ticker;
    this.graceNanos = grace.toNanos();
    this.sweepInBackground = sweepInBackground;
    this.opener = opener;
  }

  /**
   * One enforcer (or the placeholder of one being built) and the connections made for it. The
   * fields but {@link #budget} and {@link #built} are guarded by the registry's lock.
   */
  static final class Entry {
    private final String name;
    private final Settings settings;
    /** Completed by the one builder: with the enforcer, or with the build's failure. */
    private final CompletableFuture<Enforcer> built = new CompletableFuture<>();
    /** Set once by the builder before {@link #built} completes. */
    private volatile Enforcer enforcer;
    /** Set when the enforcer is being closed; completed once it is. */
    private CompletableFuture<Void> retired;
    private final DriverConnections connections = new DriverConnections();
    private int connecting;
    private boolean idle;
    private long idleSinceNanos;

    private Entry(Settings settings) {
      this.name = settings.get(Keys.NAME);
      this.settings = settings;
    }

    /** The enforcer; only once {@link #acquire} has returned this entry. */
    Enforcer enforcer() {
      return enforcer;
    }

    /** The enforcer's limiter; only once {@link #acquire} has returned this entry. */
    Limiter limiter() {
      return enforcer.limiter();
    }
  }

  private enum Action { BUILD, JOIN, PRUNE, AWAIT_CLOSE }

  /** What {@link #acquire} does next, decided under the lock and done outside it. */
  private record Step(Action action, Entry entry, Entry replaced) {}

  /**
   * Returns the enforcer named by {@code settings}, building it on first use (outside the lock),
   * and counts a connection as being opened for it until {@link #connected} or
   * {@link #abandoned}. An enforcer of that name with other settings and no open connection is
   * closed and replaced.
   *
   * @throws IllegalArgumentException when the name is in use with other settings by open
   *     connections, naming both values; or when the settings do not fit together
   * @throws SQLException when interrupted while another connect builds or closes the enforcer
   */
  Entry acquire(Settings settings) throws SQLException {
    boolean pruned = false;
    while (true) {
      Step step = step(settings, pruned);
      switch (step.action()) {
        case BUILD:
          return build(step.entry(), step.replaced());
        case JOIN:
          return join(step.entry());
        case PRUNE:
          prune(step.entry());
          pruned = true;
          break;
        default:
          await(step.entry().retired, step.entry().name);
      }
    }
  }

  /** Decides the next step for a connect with {@code settings}; counts it when it is to go on. */
  private Step step(Settings settings, boolean pruned) {
    String name = settings.get(Keys.NAME);
    lock.lock();
    try {
      Entry entry = entries.get(name);
      if (entry == null) {
        return placeholder(settings, null);
      }
      if (entry.retired != null) {
        return new Step(Action.AWAIT_CLOSE, entry, null);
      }
      List<String> differences = entry.settings.differences(settings);
      if (differences.isEmpty()) {
        entry.connecting++;
        entry.idle = false;
        return new Step(Action.JOIN, entry, null);
      }
      if (entry.connecting == 0 && entry.connections.isEmpty()) {
        entry.retired = new CompletableFuture<>();
        return placeholder(settings, entry);
      }
      if (entry.connecting == 0 && !pruned) {
        return new Step(Action.PRUNE, entry, null); // its connections may all be closed by now
      }
      throw conflict(entry, differences);
    } finally {
      lock.unlock();
    }
  }

  /** Puts a placeholder for an enforcer this connect is to build; under the lock. */
  private Step placeholder(Settings settings, Entry replaced) {
    Entry entry = new Entry(settings);
    entry.connecting = 1;
    entries.put(entry.name, entry);
    startSweeper();
    return new Step(Action.BUILD, entry, replaced);
  }

  /** Builds the entry's enforcer with no lock held, after closing the one it replaces. */
  private Entry build(Entry entry, Entry replaced) {
    if (replaced != null) {
      LOG.info("{} - replacing the driver's limiter, which has no open connection, with one of"
          + " other settings: {}", entry.name,
          String.join(", ", replaced.settings.differences(entry.settings)));
      retire(replaced); // first, so the new MXBean takes the plain name
    }
    try {
      entry.enforcer = opener.open(entry.settings);
    } catch (RuntimeException | Error e) {
      lock.lock();
      try {
        entries.remove(entry.name, entry);
      } finally {
        lock.unlock();
      }
      entry.built.completeExceptionally(e);
      throw e;
    }
    entry.built.complete(entry.enforcer);
    return entry;
  }

  /** Waits for the entry's enforcer, built by another connect. */
  private Entry join(Entry entry) throws SQLException {
    try {
      await(entry.built, entry.name);
      return entry;
    } catch (SQLException | RuntimeException | Error e) {
      abandoned(entry);
      throw e;
    }
  }

  private static void await(Future<?> future, String name) throws SQLException {
    try {
      future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLTransientConnectionException(name + " - interrupted while waiting for the"
          + " driver's limiter of this name to be built or closed by another connect", null, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      if (cause instanceof IllegalArgumentException) {
        throw new IllegalArgumentException(cause.getMessage(), cause); // this thread's trace
      }
      throw new IllegalStateException(name + " - building the driver's limiter failed: " + cause,
          cause);
    }
  }

  /** Forgets the entry's connections that are closed; {@code isClosed()} asked outside the lock. */
  private void prune(Entry entry) {
    List<WeakReference<Connection>> refs;
    lock.lock();
    try {
      refs = entry.connections.snapshot();
    } finally {
      lock.unlock();
    }
    Set<WeakReference<Connection>> gone = DriverConnections.gone(List.of(refs));
    lock.lock();
    try {
      entry.connections.forget(gone);
    } finally {
      lock.unlock();
    }
  }

  /** Closes a retired entry's enforcer, then forgets the entry and wakes those waiting on it. */
  private void retire(Entry entry) {
    try {
      entry.enforcer.close();
    } finally {
      lock.lock();
      try {
        entries.remove(entry.name, entry);
        if (entries.isEmpty()) {
          stopSweeper();
        }
      } finally {
        lock.unlock();
      }
      entry.retired.complete(null);
    }
  }

  private static IllegalArgumentException conflict(Entry entry, List<String> differences) {
    String users = entry.connections.count() + " open connection(s)"
        + (entry.connecting > 0 ? " and " + entry.connecting + " being opened" : "");
    return new IllegalArgumentException("sluice.name \"" + entry.name + "\" already names a"
        + " limiter in this JVM with other settings, and " + users + " still use it: "
        + String.join(", ", differences) + " (the limiter's value first, then this URL's). Every"
        + " URL naming one limiter must give the same settings: align them, close the other"
        + " pool first (a limiter with no open connection is replaced), or give this one its own"
        + " sluice.name");
  }

  /** Records that {@code raw} was opened for the entry's enforcer. */
  void connected(Entry entry, Connection raw) {
    lock.lock();
    try {
      entry.connecting--;
      entry.connections.add(raw);
    } finally {
      lock.unlock();
    }
  }

  /** Records that a connection could not be opened for the entry's enforcer. */
  void abandoned(Entry entry) {
    lock.lock();
    try {
      entry.connecting--;
    } finally {
      lock.unlock();
    }
  }

  /** The figures of the enforcer named {@code name}, or {@code null} when none is built. */
  Stats stats(String name) {
    Enforcer enforcer = find(name);
    return enforcer == null ? null : enforcer.stats();
  }

  /** The figures of the enforcer named {@code name}, or {@code null} when none is built. */
  Figures figures(String name) {
    Enforcer enforcer = find(name);
    return enforcer == null ? null : enforcer.figures();
  }

  /** The limiter of the enforcer named {@code name}, or {@code null}: for tests. */
  Limiter limiter(String name) {
    Enforcer enforcer = find(name);
    return enforcer == null ? null : enforcer.limiter();
  }

  private Enforcer find(String name) {
    lock.lock();
    try {
      Entry entry = entries.get(name);
      return entry == null ? null : entry.enforcer;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Forgets the connections that are gone and closes the enforcers idle for the grace period. Runs
   * on the sweeper thread; tests call it directly.
   */
  void sweep() {
    Set<WeakReference<Connection>> gone = DriverConnections.gone(snapshot());
    List<Entry> expired = new ArrayList<>();
    lock.lock();
    try {
      long now = ticker.read();
      for (Entry entry : entries.values()) {
        entry.connections.forget(gone);
        if (entry.retired == null && isExpired(entry, now)) {
          entry.retired = new CompletableFuture<>();
          expired.add(entry);
        }
      }
      if (entries.isEmpty()) {
        stopSweeper();
      }
    } finally {
      lock.unlock();
    }
    for (Entry entry : expired) {
      LOG.info("{} - closing the driver's limiter: no connection used it for {} s", entry.name,
          TimeUnit.NANOSECONDS.toSeconds(graceNanos));
      retire(entry);
    }
  }

  /** Whether the entry has had no connection for the grace period; marks it idle if newly so. */
  private boolean isExpired(Entry entry, long now) {
    if (!entry.connections.isEmpty() || entry.connecting > 0 || entry.enforcer == null) {
      entry.idle = false;
      return false;
    }
    if (!entry.idle) {
      entry.idle = true;
      entry.idleSinceNanos = now;
    }
    return now - entry.idleSinceNanos >= graceNanos;
  }

  /** Every entry's connections as they are now, for {@link DriverConnections#gone}. */
  private List<List<WeakReference<Connection>>> snapshot() {
    lock.lock();
    try {
      List<List<WeakReference<Connection>>> seen = new ArrayList<>();
      for (Entry entry : entries.values()) {
        seen.add(entry.connections.snapshot());
      }
      return seen;
    } finally {
      lock.unlock();
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
      LOG.warn("the driver's limiter sweeper failed; it will try again", e); // never kill the task
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
