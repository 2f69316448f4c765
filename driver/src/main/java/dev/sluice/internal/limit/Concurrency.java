package dev.sluice.internal.limit;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.internal.config.ConcurrencyCap;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's cap on statements in flight ({@code sluice.concurrency}): the
 * {@link ConcurrencyGate} the limiter admits through, and what sets its cap — this instance's
 * share of a fixed cap, or an {@link AdaptiveConcurrency} controller fed with the latency and the
 * overload errors of the statements the gate admitted.
 *
 * <p>The limiter acquires only while limiting; what acquired releases exactly once: a statement
 * under auto-commit when its {@code execute*} returns or throws, a transaction when it ends, a
 * connection in {@code connection} scope when it is closed. A statement that was refused gives no
 * sample: it did not run.
 *
 * <p>The adaptive cap's moves are logged when it has moved by more than a factor of
 * {@value #LOGGED_FACTOR} since the last line, never per call: a cap that settles is logged a few
 * times an outage.
 *
 * <p>This class is threadsafe, lock-free, and allocates nothing on the request path.
 */
public final class Concurrency {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  static final int LOGGED_FACTOR = 2;
  /** The reasons of a refusal: constant, so that a refusal builds no text. */
  private static final String CAP_REACHED =
      "this instance's cap on statements and transactions in flight is reached";
  private static final String[] PART_REACHED = new String[Priority.values().length];

  static {
    for (Priority p : Priority.values()) {
      PART_REACHED[p.ordinal()] = "the part of this instance's cap that " + Counts.tag(p)
          + " calls may hold is reached (sluice.reserve keeps the rest for higher priorities)";
    }
  }

  private final String name;
  private final ConcurrencyGate gate;
  /** {@code null}: the cap is a share of the fixed {@link #total}. */
  private final AdaptiveConcurrency adaptive;
  private final int total;
  private final Ticker ticker;
  /** The adaptive cap the last log line gave. */
  private final AtomicInteger loggedLimit;
  /** Whether the line saying that the maximum is above what ran was written. */
  private final AtomicBoolean unreachedLogged = new AtomicBoolean();
  /**
   * {@code connection} scope only ({@code null} otherwise): the connections checked out while not
   * limiting and still open. They hold no place of the gate (taking one at a flag-closed checkout
   * would be a write on that path whatever the flag), yet count against the cap and in
   * {@link #inFlight()} until closed (issue 35: with three of them open under a cap of 2, two more
   * checkouts were admitted). One {@link LongAdder} add at such a checkout and at its close; a
   * sum at each door while limiting.
   */
  private final LongAdder unplaced;
  /** Whether its refusals carry a stack trace ({@code sluice.stack-traces}). */
  private final boolean stackTraces;

  private Concurrency(String name, ConcurrencyGate gate, AdaptiveConcurrency adaptive, int total,
      Ticker ticker, boolean connectionScope, boolean stackTraces) {
    this.name = name;
    this.stackTraces = stackTraces;
    this.unplaced = connectionScope ? new LongAdder() : null;
    this.gate = gate;
    this.adaptive = adaptive;
    this.total = total;
    this.ticker = ticker;
    this.loggedLimit = new AtomicInteger(gate.limit());
  }

  /**
   * The cap {@code settings} ask for, divided among {@code instances}.
   *
   * @return the cap, or {@code null} when {@code sluice.concurrency} is not set
   */
  public static Concurrency of(String name, LimitSettings settings, double instances,
      Ticker ticker) {
    ConcurrencyCap cap = settings.concurrency();
    if (cap == null) {
      return null;
    }
    boolean connectionScope = settings.scope() == Scope.CONNECTION;
    if (!cap.auto()) {
      return new Concurrency(name, new ConcurrencyGate(shareOf(cap.total(), instances),
          settings.reserve()), null, cap.total(), ticker, connectionScope,
          settings.stackTraces());
    }
    // The cap starts at the top and comes down as the database crowds: starting low would
    // refuse calls the database could serve while the controller learns.
    ConcurrencyGate gate = new ConcurrencyGate(settings.concurrencyMax(), settings.reserve());
    AdaptiveConcurrency controller = new AdaptiveConcurrency(gate, settings.concurrencyMin(),
        settings.concurrencyMax(), ticker);
    controller.divide(instances);
    return new Concurrency(name, gate, controller, 0, ticker, connectionScope,
        settings.stackTraces());
  }

  /** Each instance's part of a fixed cap: never more than the total together, at least 1. */
  public static int shareOf(int total, double instances) {
    return (int) Math.max(1, Math.floor(total / instances));
  }

  /**
   * Follows the live instance count, as the budget's share does; an adaptive cap stays each
   * instance's own, only its allowance is divided.
   */
  public void divide(double instances) {
    if (adaptive == null) {
      gate.setLimit(shareOf(total, instances));
    } else {
      adaptive.divide(instances);
    }
  }

  /**
   * Takes a place within the part of the cap {@code priority} sees, or returns false; in
   * {@code connection} scope the connections checked out while not limiting and still open take
   * their part of it too.
   */
  public boolean tryAcquire(Priority priority) {
    return unplaced == null ? gate.tryAcquire(priority) : gate.tryAcquire(priority, unplaced());
  }

  /**
   * In {@code connection} scope, a connection checked out while not limiting: it holds no place
   * of the gate, yet counts against the cap until it is closed ({@link #closedUnplaced}).
   */
  void openedUnplaced() {
    unplaced.increment();
  }

  /** The connection of {@link #openedUnplaced} is closed. */
  void closedUnplaced() {
    unplaced.decrement();
  }

  /** Whether connections checked out while not limiting are counted ({@code connection} scope). */
  boolean countsCheckouts() {
    return unplaced != null;
  }

  private int unplaced() {
    return (int) Math.max(0, Math.min(Integer.MAX_VALUE, unplaced.sum()));
  }

  /**
   * The refusal of a call that found the cap, or the part of it that {@code priority} sees,
   * reached; made only for one that goes on to the caller.
   *
   * @param permitsPerSecond this instance's share of the budget, which the exception carries
   */
  RateLimitExceededException refuse(Priority priority, double permitsPerSecond) {
    int cap = gate.limit();
    return RateLimitExceededException.ofConcurrency(name, permitsPerSecond,
        gate.limit(priority) == cap ? CAP_REACHED : PART_REACHED[priority.ordinal()], cap,
        stackTraces);
  }

  /**
   * Counts a place whatever the cap: a transaction (or, in {@code connection} scope, a
   * connection) that began while the flag was closed and runs a statement while limiting. It
   * cannot be refused, since its work is under way; counted, it holds back new doors.
   */
  public void force() {
    gate.forceAcquire();
  }

  /** One admitted statement in this many is sampled; 1 for a fixed cap (which samples none). */
  public int sampleStride() {
    return adaptive == null ? 1 : adaptive.sampleStride();
  }

  /** When an admitted statement starts, for its latency; 0 (no clock read) for a fixed cap. */
  public long startNanos() {
    return adaptive == null ? 0 : ticker.read();
  }

  /** Gives back a place taken by a call that was then refused by the rate: it never ran. */
  public void releaseUnused() {
    gate.release();
  }

  /**
   * Ends an admitted statement (or one sampled while not limiting, which held no place), and
   * with {@code auto} reports its sample: a statement that failed of anything but overload says
   * nothing about the database's crowding (a syntax error returns at once) and gives none; nor
   * does a batch ({@code sql} null) that succeeded: its latency grows with its size, which no
   * shape tells.
   *
   * @param held whether it holds a place in flight
   * @param sampled whether it was timed ({@code SAMPLED}): only those give a latency sample
   * @param startNanos what {@link #startNanos()} returned at its admission
   * @param sql its text, the shape of its sample; {@code null} for a batch of texts
   * @param failure what it threw, or {@code null}
   */
  public void release(boolean held, boolean sampled, long startNanos, String sql,
      SQLException failure) {
    if (held) {
      gate.release();
    }
    if (adaptive == null || !sampled && failure == null) {
      return; // the common case of an unsampled statement: no clock read, no shared write
    }
    boolean overload = isOverload(failure);
    if (!sampled) {
      if (overload) {
        adaptive.onSample(0, 0, true); // not timed, but the strongest signal all the same
        logMove();
      }
      return;
    }
    if (overload || failure == null && sql != null) {
      long now = ticker.read();
      adaptive.onSample(sql == null ? 0 : AdaptiveConcurrency.shapeOf(sql), now - startNanos,
          overload, now);
      logMove();
    }
  }

  /** A checkout that failed of the pool's timeout: the strongest sign the database is full. */
  public void checkoutFailed(SQLException failure) {
    if (adaptive != null && isOverload(failure)) {
      adaptive.onSample(0, 0, true);
      logMove();
    }
  }

  /**
   * Overload: SQLState class 53 (insufficient resources), {@code 57014} (a statement timeout or a
   * cancel), class 08 and the JDBC connection-failure types (the connection was lost, or the
   * pool timed out handing one out), a JDBC timeout. Never a refusal of Sluice's own.
   */
  public static boolean isOverload(SQLException e) {
    if (e == null || e instanceof RateLimitExceededException) {
      return false;
    }
    String state = e.getSQLState();
    if (state != null && (state.startsWith("53") || state.equals("57014")
        || state.startsWith("08"))) {
      return true;
    }
    return e instanceof SQLTransientConnectionException
        || e instanceof SQLNonTransientConnectionException
        || e instanceof SQLRecoverableException || e instanceof SQLTimeoutException;
  }

  /**
   * Logs the adaptive cap once it has moved by more than the factor since the last line; and,
   * once, that the maximum is above what ever ran at once (one volatile read until then).
   */
  private void logMove() {
    if (adaptive.unreachedPeak() > 0 && !unreachedLogged.get()) {
      logUnreached();
    }
    int logged = loggedLimit.get();
    int now = gate.limit();
    if ((now > logged * LOGGED_FACTOR || now * LOGGED_FACTOR < logged)
        && loggedLimit.compareAndSet(logged, now)) {
      LOG.warn("{} - the adaptive concurrency cap moved from {} to {} statements in flight: the"
          + " database's latency {}", name, logged, now,
          now < logged ? "rose above what it is when not crowded" : "is back near its baseline");
    }
  }

  private void logUnreached() {
    if (unreachedLogged.compareAndSet(false, true)) { // once a budget's life
      LOG.warn("{} - sluice.concurrency.max is {}, but at most {} statements ran at once (the pool's"
          + " size, or the callers'), and the database's latency was {}x its uncrowded value"
          + " (4x is the most the cap reads): the adaptive cap now cuts from what is in flight."
          + " Set sluice.concurrency.max to at most the pool's size", name, adaptive.max(),
          adaptive.unreachedPeak(), String.format(Locale.ROOT, "%.1f",
              adaptive.unreachedCrowding()));
    }
  }

  /** The places held, and in {@code connection} scope the open connections that hold none. */
  public int inFlight() {
    return unplaced == null ? gate.inFlight() : gate.inFlight() + unplaced();
  }

  public int limit() {
    return gate.limit();
  }

  public boolean adaptive() {
    return adaptive != null;
  }

  public ConcurrencyGate gate() {
    return gate;
  }
}
