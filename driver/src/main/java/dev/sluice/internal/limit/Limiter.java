package dev.sluice.internal.limit;

import static dev.sluice.internal.limit.ConnectionState.AUTO_COMMIT;
import static dev.sluice.internal.limit.ConnectionState.CHECKOUT_PLACE;
import static dev.sluice.internal.limit.ConnectionState.HELD;
import static dev.sluice.internal.limit.ConnectionState.IN_TRANSACTION;
import static dev.sluice.internal.limit.ConnectionState.PREPAID;
import static dev.sluice.internal.limit.ConnectionState.RAN;
import static dev.sluice.internal.limit.ConnectionState.READ_ONLY;
import static dev.sluice.internal.limit.ConnectionState.REFUSED;
import static dev.sluice.internal.limit.ConnectionState.SAMPLE_EVERY;
import static dev.sluice.internal.limit.ConnectionState.TRANSACTION;
import static dev.sluice.internal.limit.ConnectionState.TX_CLASS;
import static dev.sluice.internal.limit.ConnectionState.TX_PLACE;
import static dev.sluice.internal.limit.ConnectionState.UNCHARGED;
import static dev.sluice.internal.limit.ConnectionState.UNREAD;

import dev.sluice.BreakerFlag;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limiter of one budget: the one place where admission is decided. The JDBC wrappers report
 * what happens on a connection ({@code ConnectionWrapper}: a statement is about to run, auto-commit
 * changes, a transaction ends) with its state ({@link ConnectionState}), and the limiter applies
 * the door rules — which call takes a permit, which is charged, which is never refused — and
 * decides at each door: whether it is limiting at all ({@link RecoveryHold}: the flag, or the
 * hold after it closed, which counts each door's demand and refuses nothing), then through its
 * limits, each in its own room and each making its own refusal:
 *
 * <ol>
 *   <li>{@link Concurrency}: a place in flight ({@code sluice.concurrency}), if there is a cap;
 *   <li>{@link RateLimit}: a permit of this instance's share ({@link BudgetShare}).
 * </ol>
 *
 * <p>A limit that refuses ends the decision: in enforce mode the door's verdict says so
 * ({@link ConnectionState#REFUSED}, with the limit and the priority), in shadow mode
 * ({@code sluice.mode=shadow}) the call passes uncharged and is counted. No exception is made
 * inside: a read's door ({@link #readVerdict}) returns the refusal to the read's wrapper, which
 * may answer it and otherwise has the exception made ({@link #refusal}); the other doors
 * ({@link #beforeStatement}, {@link #beforeAutoCommit}, {@link #beforeCheckout}) make it at once.
 * Whoever follows limiting (answers) is wired in by {@link #follow}; this room knows nothing of
 * them. A door decides at the
 * priority of the code ({@link Priority}) or, with none set, of the connection (read-only:
 * {@code SHEDDABLE}). What is counted goes to {@link Counts}.
 *
 * <p>This class is threadsafe. With the flag closed, a call reads the flag (a plain memory read)
 * and returns; while limiting, it tries its limits and bumps a {@code LongAdder}: it never blocks
 * and allocates only the exception of a refusal that goes on to the caller.
 */
public final class Limiter {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  private static final Priority[] PRIORITIES = Priority.values();

  private final String name;
  private final Scope scope;
  private final boolean switchIsDoor;
  /** The priority the code set ({@code Priority}'s blocks), {@code null} outside any. */
  private final Supplier<Priority> codePriority;
  private final Counts counts;
  private final Bucket bucket;
  private final BudgetShare share;
  private final RecoveryHold hold;
  /** The cap on statements in flight ({@code sluice.concurrency}); {@code null}: none. */
  private final Concurrency concurrency;
  private final RateLimit rate;
  private final Places places;
  /**
   * Whether someone follows limiting ({@link #follow}): the statements admitted while limiting
   * are then marked {@link ConnectionState#NOTED}. Set once, before the limiter is handed out.
   */
  private boolean noting;
  /** Decisions told to a tracing library, set once before it is handed out; {@code null}: none. */
  private Decisions decisions;
  /** Whether an adaptive cap samples statements, 1 in 64 while not limiting (statement scope). */
  private final boolean sampleWhileClosed;

  public Limiter(String name, LimitSettings settings, Bucket bucket, BreakerFlag flag,
      double instances, boolean driverMode, Ticker ticker, Supplier<Priority> codePriority) {
    this.name = name;
    this.scope = settings.scope();
    this.switchIsDoor = !driverMode || settings.poolAutoCommit();
    this.codePriority = codePriority;
    this.bucket = bucket;
    this.counts = new Counts(name, bucket, ticker, settings.summaryInterval().toNanos(),
        settings.shadow());
    this.concurrency = Concurrency.of(name, settings, instances, ticker);
    this.rate = new RateLimit(name, bucket, flag != BreakerFlag.alwaysOpen(),
        settings.stackTraces());
    this.share = new BudgetShare(name, settings.budget(), instances, settings.burst(), bucket,
        concurrency);
    this.hold = new RecoveryHold(name, flag, new Recovery(settings.settle(),
        settings.threshold()), ticker, bucket, share, counts, counts::shadow, rate::forgetDebts);
    this.sampleWhileClosed = concurrency != null && concurrency.adaptive()
        && scope == Scope.STATEMENT;
    this.places = new Places(concurrency, sampleWhileClosed);
  }

  // --- the door rules ---

  /**
   * Before {@code getConnection()} reaches the delegate: a door in {@code connection} scope, at the
   * code's priority. Returns {@code HELD} when it took a place, to give back by
   * {@link Places#afterCheckout}; else 0. Throws a {@code RateLimitExceededException} to refuse.
   */
  public int beforeCheckout() throws SQLException {
    if (scope == Scope.CONNECTION && hold.isLimiting()) {
      return passed(admit(0, Priority.current())) & HELD;
    }
    return 0;
  }

  /**
   * Before a statement executes: reads the flag once, asks the driver ({@code connection}) for an
   * unread auto-commit only while limiting, and returns the state after the statement is admitted,
   * with {@code HELD} when it took a place and {@code SAMPLED} when it is timed. Throws a
   * {@code RateLimitExceededException} to refuse it (or the driver's exception).
   */
  public int beforeStatement(int state, Connection connection) throws SQLException {
    return passed(readVerdict(state, connection));
  }

  /**
   * As {@link #beforeStatement(int, Connection)}, for a read, which may be answered instead of
   * refused: a refusal is returned, not thrown ({@link ConnectionState#REFUSED}; the state is
   * then to be kept as it was), and told to {@link Decisions} only once made
   * ({@link #refusal}).
   *
   * @throws SQLException the driver's, when asked for an unread auto-commit
   */
  public int readVerdict(int state, Connection connection) throws SQLException {
    if (scope != Scope.STATEMENT) {
      return state; // a checkout made while not limiting counts until closed (Places)
    }
    boolean limiting = hold.isLimiting();
    int next = decide(state, connection, limiting);
    if (!limiting || (next & REFUSED) != 0) {
      return next;
    }
    if (sampleWhileClosed && (next & (HELD | TX_PLACE)) != 0) {
      next = ConnectionState.sampleOneIn(next, concurrency.sampleStride());
    }
    return noting ? next | ConnectionState.NOTED : next;
  }

  private int decide(int state, Connection connection, boolean limiting) throws SQLException {
    if (!limiting && sampleWhileClosed) {
      // counted in the connection's own bits: the no-load latency is known before an outage
      state = ConnectionState.sampleOneIn(state, SAMPLE_EVERY);
    }
    if ((state & UNREAD) != 0) {
      if (!limiting) {
        return state | RAN; // nothing to charge; remember that a transaction may have begun
      }
      state = ConnectionState.read(state, connection);
    }
    if ((state & AUTO_COMMIT) != 0) {
      return limiting ? admit(state, doorPriority(state)) & ~UNCHARGED : state;
    }
    if ((state & IN_TRANSACTION) == 0) {
      // the transaction's first statement is its door, at the priority in force there
      if (!limiting) {
        return state | IN_TRANSACTION;
      }
      int door = transactionDoor(state);
      return (door & REFUSED) != 0 ? door : door | IN_TRANSACTION;
    }
    if (!limiting || (state & UNCHARGED) != 0) {
      return state & ~PREPAID;
    }
    if ((state & TX_CLASS) == 0) { // begun while not limiting: counted from now on, and charged
      state = adopt(state) & ~PREPAID;
    } else if ((state & PREPAID) != 0) {
      return state & ~PREPAID; // the door's permit pays for it
    }
    rate.charge(ConnectionState.transactionPriority(state));
    counts.force();
    return state;
  }

  /**
   * As {@link #beforeStatement(int, Connection)}, for text ({@code Statement.execute(String)}...).
   * Text that ends a transaction ({@link TransactionText}) ends it and passes, never refused nor
   * charged, as {@code commit()} does; it is looked at in statement scope on a connection not
   * known to auto-commit, the flag-closed path included (a transaction ended unseen there would
   * be taken for open once limiting starts, and go on without a door).
   */
  public int beforeStatement(int state, Connection connection, String sql) throws SQLException {
    return passed(readVerdict(state, connection, sql));
  }

  /**
   * As {@link #beforeStatement(int, Connection, String)}, for a read given as text: a refusal is
   * returned, as {@link #readVerdict(int, Connection)} returns it.
   */
  public int readVerdict(int state, Connection connection, String sql) throws SQLException {
    if (scope == Scope.STATEMENT && (state & AUTO_COMMIT) == 0 && TransactionText.ends(sql)) {
      // the transaction's place is held until the ending statement returns; when followed,
      // the end is noted (the transaction's writes are fenced again once committed)
      return (state & ~TRANSACTION) | ((state & TX_PLACE) != 0 ? HELD : 0)
          | (noting ? ConnectionState.NOTED : 0);
    }
    return readVerdict(state, connection);
  }

  /**
   * Before {@code setAutoCommit(autoCommit)} reaches the delegate; returns the state once it
   * succeeds. The switch to manual commit is a transaction's door, except in driver mode under a
   * pool that keeps its connections in manual commit ({@code sluice.pool-auto-commit=false}): the
   * pool switches itself, which must never be refused, so the first statement is the door.
   */
  public int beforeAutoCommit(int state, boolean autoCommit, Connection connection)
      throws SQLException {
    if (autoCommit) {
      return (state | AUTO_COMMIT) & ~(TRANSACTION | UNREAD);
    }
    boolean limiting = hold.isLimiting();
    if ((state & UNREAD) != 0) {
      // While limiting, whether this is a switch decides a door: ask. Otherwise take it for one:
      // nothing is charged now, and the transaction counts as begun, so it is never cut later.
      state = limiting ? ConnectionState.read(state, connection)
          : (state & ~(UNREAD | RAN)) | AUTO_COMMIT;
    }
    if ((state & AUTO_COMMIT) == 0) {
      return state;
    }
    int manual = state & ~AUTO_COMMIT;
    if (scope != Scope.STATEMENT || !switchIsDoor) {
      return manual;
    }
    if (!limiting) {
      return manual | IN_TRANSACTION | PREPAID;
    }
    return passed(transactionDoor(manual)) | IN_TRANSACTION | PREPAID;
  }

  /** The priority a door decides at: the code's, else the connection's (read-only: SHEDDABLE). */
  public Priority doorPriority(int state) {
    Priority priority = codePriority.get();
    if (priority == null) {
      priority = (state & READ_ONLY) != 0 ? Priority.SHEDDABLE : Priority.NORMAL;
    }
    return priority;
  }

  // --- the decision: a door through the limits, in order ---

  /**
   * Admits a call at a door, at {@code priority}, through each limit in turn: the hold counts it,
   * the cap gives it a place (a refusal there spends no permit), the rate a permit (a refusal
   * there gives the place back). A limit that refuses: in shadow mode the call passes, holding
   * nothing, uncharged and counted as shadow-rejected; else the verdict is a refusal.
   *
   * @return {@code state}, with {@code HELD} when a place was taken and {@code UNCHARGED} when
   *     only shadow mode let the call pass; or a {@link ConnectionState#REFUSED} verdict
   */
  private int admit(int state, Priority priority) {
    hold.countDemand();
    if (concurrency != null) {
      if (!concurrency.tryAcquire(priority)) {
        return refused(true, state, priority);
      }
      state |= HELD;
    }
    if (!rate.tryAcquire(priority)) {
      if (concurrency == null || counts.shadow()) {
        return refused(false, state, priority); // in shadow mode the call runs: it keeps its place
      }
      concurrency.releaseUnused();
      return refused(false, state & ~HELD, priority);
    }
    counts.admit(priority);
    if (decisions != null) {
      decisions.admitted(priority);
    }
    return state;
  }

  /** A limit refused: shadow mode lets the call pass, uncharged; enforce mode says so. */
  private int refused(boolean byCap, int state, Priority priority) {
    if (counts.shadow()) {
      counts.shadowReject(priority);
      if (decisions != null) {
        decisions.shadowRefused(priority);
      }
      return state | UNCHARGED;
    }
    counts.reject(priority);
    hold.tellStarted(); // with no breaker flag, the first refusal starts what follows limiting
    return REFUSED | (byCap ? ConnectionState.BY_CAP : 0)
        | priority.ordinal() << ConnectionState.REFUSED_PRIORITY_SHIFT;
  }

  /**
   * The priority a {@link ConnectionState#REFUSED} verdict was decided at.
   *
   * @param verdict a door's refusal
   * @return its priority
   */
  public static Priority refusedAt(int verdict) {
    return PRIORITIES[verdict >>> ConnectionState.REFUSED_PRIORITY_SHIFT & 3];
  }

  /**
   * The exception of a door's refusal, made by the limit that refused, and told to
   * {@link Decisions}: for a read that is not answered, and by every other door at once.
   *
   * @param verdict a {@link ConnectionState#REFUSED} verdict
   * @return the exception to throw
   */
  public RateLimitExceededException refusal(int verdict) {
    Priority priority = refusedAt(verdict);
    return told((verdict & ConnectionState.BY_CAP) != 0
        ? concurrency.refuse(priority, bucket.permitsPerSecond()) : rate.refuse(priority),
        priority);
  }

  /** The state a door admitted, or its refusal thrown. */
  private int passed(int verdict) throws RateLimitExceededException {
    if ((verdict & REFUSED) != 0) {
      throw refusal(verdict);
    }
    return verdict;
  }

  /** A transaction's door: it keeps its place ({@code TX_PLACE}) to its end, and its priority. */
  private int transactionDoor(int state) {
    Priority priority = doorPriority(state);
    int admitted = admit(state, priority);
    if ((admitted & REFUSED) != 0) {
      return admitted;
    }
    return (admitted & ~HELD) | ((admitted & HELD) != 0 ? TX_PLACE : 0)
        | ConnectionState.classBits(priority);
  }

  /**
   * A transaction begun while not limiting runs a statement while limiting: counted from now on
   * (a place whatever the cap: its work is under way) and charged at the priority in force now.
   */
  private int adopt(int state) {
    if (concurrency != null) {
      concurrency.force();
      state |= TX_PLACE;
    }
    return state | ConnectionState.classBits(doorPriority(state));
  }

  // --- the budget's parts, for the data source, stats and JMX ---
  /**
   * Stops limiting for good, when the budget is closed: the connections handed out before pass
   * uncharged from now on, as if the flag were closed, rather than obeying a flag whose reader has
   * stopped (its last value frozen). Nothing is logged for it on the request path.
   */
  public void stop() {
    hold.stop();
    LOG.info("{} - closed: no longer limiting; connections still open pass uncharged", name);
  }

  /** Reads the flag, noticing when limiting starts or stops; {@code true} while recovering. */
  public boolean isLimiting() {
    return hold.isLimiting();
  }

  public String name() {
    return name;
  }

  public Scope scope() {
    return scope;
  }

  public Bucket bucket() {
    return bucket;
  }

  /** This instance's share of the budget, and its changes. */
  public BudgetShare share() {
    return share;
  }

  /** The flag and the recovery hold. */
  public RecoveryHold hold() {
    return hold;
  }

  /** This instance's cap on statements in flight; {@code null} when there is none. */
  public Concurrency concurrency() {
    return concurrency;
  }

  /** Where the ends of statements, transactions and checkouts give their places back. */
  public Places places() {
    return places;
  }

  /**
   * Sets where decisions are told besides the counters; once, before the limiter is handed out.
   *
   * @param decisions the tracing library's side, or {@code null}: none
   */
  public void decisions(Decisions decisions) {
    this.decisions = decisions;
  }

  /** Where decisions are told besides the counters; {@code null}: nowhere. */
  public Decisions decisions() {
    return decisions;
  }

  /** A refusal that goes on to the caller, told to {@link Decisions}; {@code refusal}, to throw. */
  private RateLimitExceededException told(RateLimitExceededException refusal, Priority priority) {
    Decisions d = decisions;
    if (d != null) {
      d.refused(priority, refusal);
    }
    return refusal;
  }

  /**
   * How many times limiting has started or stopped (a count, not a time): a session whose
   * statements were noted only while limiting is known only within one such episode.
   */
  public long episode() {
    return hold.episode();
  }

  /**
   * Sets who follows limiting (answers, wired by the composition root; this room knows nothing
   * of them): told once when limiting starts and once when it stops, by the recovery hold
   * ({@link RecoveryHold#followedBy}); the statements admitted while limiting are marked
   * {@link ConnectionState#NOTED} for it; its note ends the rejection summary line. Once, before
   * the limiter is handed out.
   *
   * @param started told when the flag opens (in enforce mode), or at the first refusal with no
   *     breaker flag
   * @param stopped told when limiting stops, and when the budget closes
   * @param summaryNote what the rejection summary line adds
   */
  public void follow(Runnable started, Runnable stopped, Supplier<String> summaryNote) {
    hold.followedBy(started, stopped);
    counts.noteWith(summaryNote);
    noting = true;
  }

  /** What was admitted, refused and charged, by priority. */
  public Counts counts() {
    return counts;
  }

  /**
   * The ends of what a door began, beside the doors that began them: a statement returns, a
   * transaction ends, a connection closes, a checkout fails. Each gives back the place in flight
   * it held ({@code sluice.concurrency}), exactly once, and a statement whose latency was sampled
   * reports it to the cap. The doors above decide; the connection wrapper reports the ends here,
   * with the state ({@link ConnectionState}) the door returned. Without a cap every end is a
   * change of state bits and nothing else.
   *
   * <p>This class is threadsafe; nothing here blocks, allocates or logs.
   */
  public static final class Places {
    /** The cap on statements in flight; {@code null}: none. */
    private final Concurrency concurrency;
    /** A cap in {@code connection} scope: a checkout that took no place counts until closed. */
    private final boolean countsCheckouts;
    /** Whether an adaptive cap samples statements while not limiting (statement scope only). */
    private final boolean sampleWhileClosed;

    Places(Concurrency concurrency, boolean sampleWhileClosed) {
      this.concurrency = concurrency;
      this.countsCheckouts = concurrency != null && concurrency.countsCheckouts();
      this.sampleWhileClosed = sampleWhileClosed;
    }

    /**
     * The state of a connection just checked out. With an adaptive cap, its count towards its
     * next flag-closed sample starts at a random phase
     * ({@link ConnectionState#randomSamplePhase}).
     *
     * @param checkoutHeld what {@link Limiter#beforeCheckout()} returned
     * @return the state bits, with {@code CHECKOUT_PLACE} when the checkout took a place
     */
    public int checkedOut(int checkoutHeld) {
      if (checkoutHeld == 0 && countsCheckouts) {
        concurrency.openedUnplaced(); // counts against the cap until closed, limiting or not
      }
      int state = ConnectionState.initial() | (checkoutHeld != 0 ? CHECKOUT_PLACE : 0);
      return sampleWhileClosed ? state | ConnectionState.randomSamplePhase() : state;
    }

    /**
     * Called once {@code setAutoCommit(autoCommit)} returned ({@code switched}) or threw. The
     * switch to auto-commit ends the transaction either way (it commits, and a failed commit
     * still ends it): its place is given back. A failed switch to manual commit began nothing: a
     * place its door took is given back.
     *
     * @param before the state before the call
     * @param next what {@link Limiter#beforeAutoCommit} returned
     * @param autoCommit the value set
     * @param switched whether the driver accepted it
     * @return the state to keep
     */
    public int afterAutoCommit(int before, int next, boolean autoCommit, boolean switched) {
      if (autoCommit) {
        release(before & TX_PLACE);
        return switched ? next : ConnectionState.afterFailedSwitchToAutoCommit(before);
      }
      if (switched) {
        return next;
      }
      release(next & ~before & TX_PLACE);
      return before;
    }

    /**
     * Called after {@code commit()} or {@code rollback()} (not to a savepoint) returned or threw:
     * a failed one ends the transaction too (on PostgreSQL a commit that fails has rolled the
     * transaction back), so that a transaction never outlives its real end.
     *
     * @param state the connection's state
     * @return the state with the transaction ended
     */
    public int afterEnd(int state) {
      release(state & TX_PLACE);
      return state & ~TRANSACTION;
    }

    /**
     * Called when the connection is closed or aborted, once: gives back the place its open
     * transaction or, in {@code connection} scope, its checkout holds (or, for a checkout made
     * while not limiting, its count against the cap).
     *
     * @param state the connection's state
     */
    public void afterClose(int state) {
      release(state & TX_PLACE);
      if ((state & CHECKOUT_PLACE) != 0) {
        afterCheckout(HELD, null);
      } else if (countsCheckouts) {
        concurrency.closedUnplaced();
      }
    }

    /**
     * Called once a checkout that {@link Limiter#beforeCheckout} admitted ends: the connection
     * closed, or the delegate failed to hand one out ({@code failure}, which may be the pool's
     * timeout).
     *
     * @param held what {@link Limiter#beforeCheckout} returned
     * @param failure the delegate's failure, or {@code null}
     */
    public void afterCheckout(int held, SQLException failure) {
      if (concurrency != null) {
        if (held != 0) {
          concurrency.releaseUnused();
        }
        if (failure != null) {
          concurrency.checkoutFailed(failure);
        }
      }
    }

    /**
     * When an admitted statement starts, to pass to {@link #afterStatement}: read only for a
     * statement that was {@code SAMPLED} (there is a cap then).
     *
     * @return a {@link Ticker} reading, or {@code 0}
     */
    public long startNanos() {
      return concurrency.startNanos();
    }

    /**
     * Called when a statement that was {@code HELD} or {@code SAMPLED} has returned or thrown:
     * gives its place back if it held one, and reports its latency and outcome where the cap
     * adapts.
     *
     * @param held what {@link ConnectionState#held} made of the door's answer
     * @param startNanos what {@link #startNanos()} returned when it was admitted
     * @param sql its text, or {@code null} (a batch)
     * @param failure what it threw, or {@code null}: a {@code RuntimeException} or an {@code Error}
     *     is reported as {@code null}, never as overload
     */
    public void afterStatement(int held, long startNanos, String sql, SQLException failure) {
      concurrency.release((held & HELD) != 0, (held & ConnectionState.SAMPLED) != 0, startNanos,
          sql, failure);
    }

    /** Gives back a transaction's place, if {@code place} is {@code TX_PLACE}. */
    private void release(int place) {
      if (place != 0) {
        concurrency.releaseUnused();
      }
    }
  }
}
