package dev.sluice.internal.limit;

import dev.sluice.BreakerFlag;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a budget is limiting now: the breaker flag, and the recovery hold that goes on limiting
 * after the flag closes until this instance's demand has stayed low, or steady within the share,
 * for {@code sluice.recovery.settle} (the cache behind the flag is likely cold; see
 * {@link Recovery}). A flag that was open only because its Redis could not be read starts no hold.
 * It logs each start and stop of limiting once.
 *
 * <p>Its phase is one volatile int, so that each call reads it once. {@code OFF} and {@code OPEN}
 * mirror a closed and an open flag: a call whose flag matches takes the fast path, so the
 * flag-closed path is one flag read and one compare. {@code RECOVERING} goes on limiting after the
 * flag closed ({@code STARTING}: while the thread that saw it close sets the recovery up). Every
 * other call -- the flag changed, or recovery is on -- goes through {@link #transition}, where each
 * change is one CAS on the phase: exactly one thread makes (and logs) each transition, and no lock
 * is taken.
 *
 * <p>It is not a limit: it refuses nothing. At each door while limiting it counts the demand that
 * decides when the hold ends ({@link #countDemand}).
 *
 * <p>This class is threadsafe.
 */
public final class RecoveryHold {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  /** The flag of a stopped budget: closed for good, whatever the flag it had was saying. */
  private static final BreakerFlag STOPPED = new BreakerFlag() {
    @Override
    public boolean isOpen() {
      return false;
    }

    @Override
    public String toString() {
      return "stopped (the budget is closed)";
    }
  };
  private static final int OFF = 0;
  private static final int OPEN = 1;
  private static final int STARTING = 2;
  private static final int RECOVERING = 3;
  private static final VarHandle PHASE;
  private static final VarHandle TOLD;

  static {
    try {
      PHASE = MethodHandles.lookup().findVarHandle(RecoveryHold.class, "phase", int.class);
      TOLD = MethodHandles.lookup().findVarHandle(RecoveryHold.class, "toldStart", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final String name;
  private final Recovery recovery;
  private final Ticker ticker;
  private final Bucket bucket;
  private final BudgetShare share;
  private final Counts counts;
  /** Whether the limiter is in shadow mode, for the words of the log lines. */
  private final BooleanSupplier shadow;
  /** What else ends when limiting stops: the limiter's debts. */
  private final Runnable whenLimitingStops;
  /** Who follows limiting ({@link #followedBy}): told when it starts; nothing by default. */
  private Runnable followerStarts = () -> {};
  /** Told when limiting stops ({@link #followedBy}). */
  private Runnable followerStops = () -> {};
  /** The episode whose start the follower was told ({@link #tellStarted}). */
  private volatile long toldStart;
  /** Read on every gated call; replaced once, by {@link #stop()}, with {@link #STOPPED}. */
  private volatile BreakerFlag flag;
  private volatile int phase;
  /**
   * Whether the flag's last spell of open was only presumed (its Redis unreadable, the breaker's
   * word unknown): such a spell ends without a hold. Read only when the flag closes.
   */
  private volatile BooleanSupplier openWasPresumed = () -> false;
  /** Whether the flag opened again during a recovery: a presumed open then keeps the hold. */
  private volatile boolean openedInRecovery;
  /** Whether the WARN of a budget below the everyday load was logged; once per budget. */
  private volatile boolean warnedBelowLoad;
  /**
   * Counts the changes into and out of limiting, each counted before the phase changes: whoever
   * sees the new phase sees the new count ({@link #episode()}).
   */
  private final AtomicLong episodes = new AtomicLong();
  /** Rejections before the recovery began; published by the CAS to RECOVERING. */
  private long rejectedBeforeRecovery;

  RecoveryHold(String name, BreakerFlag flag, Recovery recovery, Ticker ticker, Bucket bucket,
      BudgetShare share, Counts counts, BooleanSupplier shadow, Runnable whenLimitingStops) {
    this.name = name;
    this.flag = flag;
    this.recovery = recovery;
    this.ticker = ticker;
    this.bucket = bucket;
    this.share = share;
    this.counts = counts;
    this.shadow = shadow;
    this.whenLimitingStops = whenLimitingStops;
  }

  /**
   * Sets who follows limiting: told once when it starts (the flag opens; with no breaker flag, the
   * first refusal) and once when it stops, by this room and nowhere else. In shadow mode no start
   * is told. Set once, before the limiter is handed out.
   *
   * @param started told when limiting starts
   * @param stopped told when limiting stops (and when the budget closes)
   */
  void followedBy(Runnable started, Runnable stopped) {
    this.followerStarts = started;
    this.followerStops = stopped;
  }

  /**
   * Tells the follower that limiting started, once per episode: when the flag opens, and at a
   * refusal (a volatile read then, once told). Lock-free: a stop that raced the start is told
   * again after it ({@code LimiterFollowerTest}), so the last word the follower hears is
   * the one that holds.
   */
  void tellStarted() {
    long episode = episodes.get();
    long told = toldStart;
    if (told == episode || phase == OFF || !TOLD.compareAndSet(this, told, episode)) {
      return;
    }
    followerStarts.run();
    if (phase == OFF) {
      followerStops.run(); // stopped meanwhile: told after the start
    }
  }

  /** Limiting stopped: the limiter's debts are forgotten and the follower told. */
  private void stopped() {
    whenLimitingStops.run();
    followerStops.run();
  }

  /** Reads the flag, noticing when limiting starts or stops; {@code true} while recovering. */
  public boolean isLimiting() {
    boolean open = flag.isOpen();
    if (phase != (open ? OPEN : OFF)) {
      return transition(open);
    }
    return open;
  }

  /**
   * Whether a call now would find the budget limiting, for a reader of the figures (stats, JMX,
   * meters): read without acting -- no transition, no demand counted, no log, nothing dropped --
   * so that reading the figures, however often, leaves every decision as it was. The calls make
   * the transitions: a recovery begins at the first call that finds the flag closed after it was
   * open (until then this says {@code true}: that call will be charged), and ends at the first
   * call after its settle (from then on this says {@code false}).
   *
   * @param open what the flag says now
   * @return whether a call now would be charged
   */
  public boolean limitingNow(boolean open) {
    if (open) {
      return true;
    }
    int seen = phase;
    return seen == OPEN ? recovery.enabled()
        && !(openWasPresumed.getAsBoolean() && !openedInRecovery) // as flagClosed decides
        : seen == STARTING || seen == RECOVERING && !recovery.settled(ticker.read());
  }

  /**
   * How many times limiting has started or stopped: a statement that ran while not limiting ran
   * in another episode than the one before and the one after it. Read only by answers, while
   * limiting.
   */
  public long episode() {
    return episodes.get();
  }

  /** Counts a call that reached a door while recovering, admitted or not: the demand. */
  void countDemand() {
    if (phase == RECOVERING) {
      recovery.count(ticker.read(), bucket.permitsPerSecond());
    }
  }

  public BreakerFlag flag() {
    return flag;
  }

  /**
   * Tells the hold how to learn that an open flag was only presumed open (a Redis flag that could
   * not be read): set once, before the limiter is handed out.
   *
   * @param presumed {@code true} while the flag's last spell of open was a fail-safe guess
   */
  public void openPresumedBy(BooleanSupplier presumed) {
    this.openWasPresumed = presumed;
  }

  /**
   * Ends a recovery at once (an operator's JMX call).
   *
   * @param by who asked, for the log line
   * @return whether a recovery was on
   */
  public boolean endRecovery(String by) {
    transition(flag.isOpen()); // a close no call has seen yet starts its recovery first
    episodes.incrementAndGet();
    if (PHASE.compareAndSet(this, RECOVERING, OFF)) {
      stopped();
      LOG.warn("{} - recovery ended by {} after {}: stopped limiting; {} refused during the"
          + " recovery", name, by, seconds(recovery.elapsedNanos(ticker.read())),
          Counts.calls(counts.rejected() - rejectedBeforeRecovery));
      return true;
    }
    return false;
  }

  /**
   * Stops limiting for good, when the budget is closed: the connections handed out before pass
   * uncharged from now on, as if the flag were closed, rather than obeying a flag whose reader has
   * stopped (its last value frozen).
   */
  void stop() {
    flag = STOPPED;
    episodes.incrementAndGet();
    phase = OFF; // ends a recovery too: with the flag closed for good, nothing moves it again
    stopped();
  }

  /** The slow path: the flag is not what the request path last saw, or a recovery is on. */
  private boolean transition(boolean open) {
    while (true) {
      int seen = phase;
      if (open) {
        if (seen == OFF) {
          episodes.incrementAndGet(); // before the phase: whoever sees it limiting sees this
        }
        if (seen == OPEN || PHASE.compareAndSet(this, seen, OPEN)) {
          if (seen != OPEN) {
            limitingStarted(seen);
          }
          return true;
        }
      } else if (seen == OFF) {
        return false;
      } else if (seen == OPEN) {
        flagClosed();
      } else if (seen == STARTING) {
        return true;
      } else if (!recovery.settled(ticker.read())) {
        noteSteadyAbove();
        return true;
      } else {
        episodes.incrementAndGet(); // before the phase, as above
        if (PHASE.compareAndSet(this, RECOVERING, OFF)) {
          stopped();
          logEnd();
          return false;
        }
      }
    }
  }

  /** Logs why a recovery ended: quiet demand, or demand back at its everyday level. */
  private void logEnd() {
    long now = ticker.read();
    String refused = Counts.calls(counts.rejected() - rejectedBeforeRecovery);
    if (recovery.quiet(now)) {
      LOG.warn("{} - recovery ended after {}: demand here stayed at or below {}/s for {};"
          + " stopped limiting; {} refused during the recovery", name,
          seconds(recovery.elapsedNanos(now)), quietRate(), seconds(recovery.settle().toNanos()),
          refused);
    } else {
      LOG.warn("{} - recovery ended after {}: demand here stopped falling at about {}/s, within"
          + " this instance's share of {}/s, for {}: back to its everyday level, the cache"
          + " likely warm; stopped limiting; {} refused during the recovery", name,
          seconds(recovery.elapsedNanos(now)), Share.rate(recovery.level()),
          Share.rate(bucket.permitsPerSecond()), seconds(recovery.settle().toNanos()), refused);
    }
  }

  /**
   * Warns once per budget when demand stopped falling above the share: likely a budget below the
   * everyday load, which refuses everyday traffic at every outage and keeps the hold on.
   */
  private void noteSteadyAbove() {
    if (warnedBelowLoad || !recovery.steadyAbove(ticker.read())) {
      return;
    }
    warnedBelowLoad = true;
    double rate = bucket.permitsPerSecond();
    double level = recovery.level();
    LOG.warn("{} - during the recovery, demand here stopped falling at about {}/s, above this"
        + " instance's share of {}/s (budget {}/s): if that is the everyday load, the budget is"
        + " below it, so every outage refuses everyday traffic, and this hold goes on until"
        + " demand falls to {}/s or stays steady within the share for {}. Raise sluice.budget to"
        + " at least about {}/s, or end the recovery with the MXBean's endRecovery()", name,
        Share.rate(level), Share.rate(rate), Share.rate(share.budget()), quietRate(),
        seconds(recovery.settle().toNanos()), Share.rate(level * share.budget() / rate));
  }

  /** The flag was open and is closed: recover, or stop at once when there is no settle. */
  private void flagClosed() {
    if (openWasPresumed.getAsBoolean() && !openedInRecovery) {
      episodes.incrementAndGet(); // before the phase, as in transition
      if (PHASE.compareAndSet(this, OPEN, OFF)) {
        stopped();
        LOG.warn("{} - the breaker flag's Redis answers again and the key says closed: stopped"
            + " limiting, with no recovery hold, since the flag was open only because Redis could"
            + " not be read, not because the cache's breaker opened; {} since the last summary",
            name, counts.sinceLastSummary());
      }
    } else if (!recovery.enabled()) {
      episodes.incrementAndGet();
      if (PHASE.compareAndSet(this, OPEN, OFF)) {
        stopped();
        LOG.warn("{} - the cache breaker flag is closed: stopped limiting; {} since the last"
            + " summary", name, counts.sinceLastSummary());
      }
    } else {
      // read before the CAS: the calls that find STARTING are limited, and their refusals are
      // the recovery's (read after it, the log's count missed them: LimiterRecoveryTest saw 3989
      // of 3990 once)
      long rejectedBefore = counts.rejected();
      if (!PHASE.compareAndSet(this, OPEN, STARTING)) {
        return;
      }
      recovery.begin(ticker.read());
      rejectedBeforeRecovery = rejectedBefore;
      if (PHASE.compareAndSet(this, STARTING, RECOVERING)) { // else the flag opened again
        LOG.warn("{} - the cache breaker flag is closed, but the cache is likely cold: still"
            + " {} {} permits/s while it refills, so that its misses do not flood the database;"
            + " this stops once demand here stays at or below {}/s for {}, or stops falling"
            + " within the share for as long (back to its everyday level)", name,
            shadow.getAsBoolean() ? "counting (shadow mode, nothing refused) what would exceed"
                : "limiting the database to", Share.rate(bucket.permitsPerSecond()), quietRate(),
            seconds(recovery.settle().toNanos()));
      }
    }
  }

  private void limitingStarted(int seen) {
    openedInRecovery = seen == RECOVERING || seen == STARTING;
    if (seen == STARTING) {
      return; // the flag closed and opened again before the recovery even began: nothing changed
    }
    if (seen == RECOVERING) {
      LOG.warn("{} - the cache breaker flag is open again during recovery: {} goes on at {}"
          + " permits/s", name, shadow.getAsBoolean() ? "counting (shadow mode)" : "limiting",
          Share.rate(bucket.permitsPerSecond()));
      return;
    }
    counts.startSummaries();
    boolean inShadow = shadow.getAsBoolean();
    String rate = Share.rate(bucket.permitsPerSecond());
    String budget = Share.rate(share.budget());
    String what = inShadow
        ? "shadow mode: nothing is refused; counting the calls that a limit of"
        : "limiting the database to";
    if (flag == BreakerFlag.alwaysOpen()) {
      // with no breaker (the flag always open), limiting is the normal state: INFO, saying so
      LOG.info("{} - {} {} permits/s (this instance's share of {}/s), burst {}{}: there is no"
          + " cache breaker flag (sluice.flag=always), so every call is {}", name, what, rate,
          budget, bucket.burst(), inShadow ? " would refuse" : "",
          inShadow ? "counted" : "charged");
    } else {
      LOG.warn("{} - the cache breaker flag is open: {} {} permits/s (this instance's share of"
          + " {}/s), burst {}{}", name, what, rate, budget, bucket.burst(),
          inShadow ? " would refuse" : "");
      if (!inShadow) {
        tellStarted();
      }
    }
  }

  private String quietRate() {
    return Share.rate(recovery.threshold() * bucket.permitsPerSecond());
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
