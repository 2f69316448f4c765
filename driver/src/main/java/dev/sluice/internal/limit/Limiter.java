package dev.sluice.internal.limit;

import dev.sluice.BreakerFlag;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.config.Settings;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limiter of one budget: the one place where admission is decided. The JDBC wrappers report
 * what happens on a connection ({@code ConnectionWrapper}: a statement is about to run, auto-commit
 * changes, a transaction ends) and the limiter admits, charges or refuses: the door rules (which
 * call takes a permit, which is charged, which is never refused), the flag and the recovery hold,
 * the cap on statements in flight, the priority, shadow mode, and the bucket. Nothing else in the
 * library decides admission.
 *
 * <p>A connection's state is an {@code int} of the bits defined below, beside the rules that read
 * them: the connection keeps it (no allocation per call) and passes it in and out. Its share of
 * the budget is kept apart, off the request path, by {@link BudgetShare}.
 *
 * <p>This class is threadsafe. The request path reads the flag (a plain memory read), then at most
 * tries the bucket and bumps a {@link LongAdder}; it never blocks and allocates only the exception
 * of a rejection. Limiting starting and stopping are noticed on the request path (one volatile
 * read per call) and logged once each; rejections are summed up at most once per
 * {@code sluice.summary-interval}, never logged one by one.
 *
 * <p>Priorities: a door decides at the priority of the code ({@link Priority}) or, with none
 * set, of the connection (read-only: {@code SHEDDABLE}); the bucket gives each priority its own
 * depth ({@code sluice.reserve}, see {@link Bucket}). Both are read only while limiting. In
 * shadow mode ({@code sluice.mode=shadow}) a call the bucket refuses passes, uncharged, and is
 * counted instead; the mode is read only on that refusal path.
 *
 * <p>When the flag closes after having been open, limiting goes on ("recovery", see
 * {@link Recovery}) until this instance's demand has stayed low for {@code sluice.recovery.settle}.
 */
public final class Limiter {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  /** The flag of a stopped limiter: closed for good, whatever the flag it had was saying. */
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

  /**
   * The priority the code set for the calls on this thread ({@link Priority#run}), or
   * {@code null}: read at a door, and only while limiting (one thread-local read).
   */
  public static final ThreadLocal<Priority> CODE_PRIORITY = new ThreadLocal<>();
  /** {@link Priority#values()} once: each call of it copies the array. */
  private static final Priority[] PRIORITIES = Priority.values();
  /** The reasons of a concurrency refusal: constant, so that a refusal builds no text. */
  private static final String CAP_REACHED =
      "this instance's cap on statements and transactions in flight is reached";
  private static final String[] PART_REACHED = new String[PRIORITIES.length];

  static {
    for (Priority p : PRIORITIES) {
      PART_REACHED[p.ordinal()] = "the part of this instance's cap that " + tag(p) + " calls may"
          + " hold is reached (sluice.reserve keeps the rest for higher priorities)";
    }
  }

  private final String name;
  /** Makes the exceptions of a refusal (their constructors are the API package's). */
  private final Refusals refusals;
  private final Bucket bucket;
  /** Read on every gated call; replaced once, by {@link #stop()}, with {@link #STOPPED}. */
  private volatile BreakerFlag flag;
  private final Scope scope;
  private final boolean switchIsDoor;
  private final boolean stackTraces;
  private final Ticker ticker;
  private final long summaryIntervalNanos;
  private final String rejectionReason;

  /** By {@link Priority#ordinal()}: one adder each, so counting by priority allocates nothing. */
  private final LongAdder[] admitted = adders();
  private final LongAdder[] rejected = adders();
  private final LongAdder[] shadowRejected = adders();
  private final LongAdder forced = new LongAdder();
  /** {@code sluice.mode=shadow}: read only on the way to a refusal, changed over JMX. */
  private volatile boolean shadow;
  /** Answers instead of refusals, set once before use; {@code null}: off. Not read here. */
  private dev.sluice.internal.answer.Answers answers;

  /*
   * What the request path has made of the flag, in one volatile int so that each call reads it
   * once. OFF and OPEN mirror a closed and an open flag: a call whose flag matches takes the fast
   * path, so the flag-closed path is one flag read and one compare, as it was before recovery
   * existed. RECOVERING goes on limiting after the flag closed (STARTING: while the thread that
   * saw it close sets the recovery up). Every other call -- the flag changed, or recovery is on --
   * goes through transition(), where each change is one CAS on mode: exactly one thread makes
   * (and logs) each transition, and no lock is taken.
   */
  private static final int OFF = 0;
  private static final int OPEN = 1;
  private static final int STARTING = 2;
  private static final int RECOVERING = 3;
  private static final VarHandle MODE;

  static {
    try {
      MODE = MethodHandles.lookup().findVarHandle(Limiter.class, "mode", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private volatile int mode;
  private final Recovery recovery;
  /** Rejections before the recovery began; published by the CAS to RECOVERING. */
  private long rejectedBeforeRecovery;
  private final AtomicLong nextSummaryNanos = new AtomicLong();
  private final AtomicLong rejectedAtLastSummary = new AtomicLong();
  private final AtomicLong shadowRejectedAtLastSummary = new AtomicLong();
  /** This instance's share of the budget, and its changes. */
  private final BudgetShare share;
  /** The cap on statements in flight ({@code sluice.concurrency}); {@code null}: none. */
  private final Concurrency concurrency;
  /** What each priority's transactions charged beyond its own depth of the bucket. */
  private final ClassDebts debts;
  /**
   * Whether an adaptive cap learns from statements: while not limiting 1 in SAMPLE_EVERY, while
   * limiting 1 admitted statement in its stride (statement scope only).
   */
  private final boolean sampleWhileClosed;

  public Limiter(String name, Settings settings, Bucket bucket, BreakerFlag flag, double instances,
      boolean driverMode, Ticker ticker, Refusals refusals) {
    this.name = name;
    this.refusals = refusals;
    this.bucket = bucket;
    this.flag = flag;
    this.scope = settings.get(Keys.SCOPE);
    this.switchIsDoor = !driverMode || settings.get(Keys.POOL_AUTO_COMMIT);
    this.stackTraces = settings.get(Keys.STACK_TRACES);
    this.summaryIntervalNanos = settings.get(Keys.SUMMARY_INTERVAL).toNanos();
    this.ticker = ticker;
    this.debts = new ClassDebts();
    this.recovery = new Recovery(settings.get(Keys.RECOVERY_SETTLE),
        settings.get(Keys.RECOVERY_THRESHOLD));
    this.shadow = settings.get(Keys.MODE) == Mode.SHADOW;
    this.concurrency = Concurrency.of(name, settings, instances, ticker);
    this.share = new BudgetShare(name, settings.get(Keys.BUDGET), instances,
        settings.isSet(Keys.BURST) ? settings.get(Keys.BURST) : 0, bucket, concurrency);
    this.sampleWhileClosed = concurrency != null && concurrency.adaptive()
        && scope == Scope.STATEMENT;
    this.rejectionReason = flag == BreakerFlag.alwaysOpen()
        ? "this instance's share of the budget is spent"
        : "the cache breaker is open and this instance's share of the budget is spent";
  }

  // --- a connection's state: an int of the bits below, kept by the connection (no allocation
  // per call), passed in and out of the door rules that read them ---

  /** Auto-commit is on: each statement is its own unit of work. */
  public static final int AUTO_COMMIT = 1;
  /** A transaction has been admitted and is open: its statements are charged, never rejected. */
  public static final int IN_TRANSACTION = 1 << 1;
  /** The permit taken at the transaction's door pays for its first statement. */
  public static final int PREPAID = 1 << 2;
  /**
   * The connection's auto-commit has not been read from the driver: nothing has needed it yet.
   * While the flag stays closed nothing ever does, so a checkout costs no driver call; the limiter
   * reads it the first time a decision depends on it.
   */
  public static final int UNREAD = 1 << 3;
  /** With auto-commit unread: a statement ran since the last commit, rollback or switch. */
  public static final int RAN = 1 << 4;
  /**
   * The connection was set read-only through Sluice ({@code setReadOnly(true)}, as Spring's
   * {@code @Transactional(readOnly = true)} does): its calls are {@code SHEDDABLE} unless the code
   * says otherwise. The driver is never asked: some drivers answer {@code isReadOnly()} with a
   * query (H2; MySQL Connector/J unless {@code useLocalSessionState}), which a door, refused or
   * not, would send to the very database it protects.
   */
  public static final int READ_ONLY = 1 << 5;
  /**
   * The open transaction passed its door in shadow mode only: enforce mode would have refused it,
   * so its statements are not charged either (they would never have run).
   */
  public static final int UNCHARGED = 1 << 7;
  /**
   * The open transaction holds one place of the concurrency cap, taken at its door (or at its
   * first statement while limiting, when it began while not limiting) and given back when it
   * ends: commit, rollback, a statement that ends it, {@code setAutoCommit(true)}, close or
   * abort. Its statements take no place of their own.
   */
  public static final int TX_PLACE = 1 << 8;
  /**
   * The priority the open transaction is charged at, plus one (bits 9-10): {@code 0} while it is
   * unknown, for a transaction that began while not limiting.
   */
  public static final int TX_CLASS = 3 << 9;
  private static final int TX_CLASS_SHIFT = 9;
  /**
   * In {@code connection} scope: the connection holds one place of the cap, from its checkout
   * (or its first statement while limiting, when it was checked out while not limiting) until
   * it is closed.
   */
  public static final int CHECKOUT_PLACE = 1 << 11;
  /** What ends with a transaction. */
  private static final int TRANSACTION = IN_TRANSACTION | PREPAID | RAN | UNCHARGED | TX_PLACE
      | TX_CLASS;
  /**
   * Never part of a connection's state: returned with it by {@link #beforeStatement} and
   * {@link #beforeCheckout} when the call took a place in flight ({@code sluice.concurrency}),
   * which {@link #afterStatement} (or {@link #afterCheckout}) must give back exactly once. A
   * high bit, apart from the state's own.
   */
  public static final int HELD = 1 << 30;
  /**
   * Never part of a connection's state either: returned by {@link #beforeStatement} for the
   * statements whose latency an adaptive cap learns from ({@code sluice.concurrency=auto}): while
   * not limiting, one in {@link #SAMPLE_EVERY} of a connection, so that it knows the database's
   * no-load latency before an outage (nothing is held; {@link #afterStatement} only reports it);
   * while limiting, beside {@link #HELD}, one admitted statement in the controller's stride
   * (every one while few run).
   */
  public static final int SAMPLED = 1 << 29;
  /** One statement in this many is {@link #SAMPLED} on the flag-closed path, per connection. */
  public static final int SAMPLE_EVERY = 64;
  /** The state's bits that count a connection's statements towards the next sample (23-28). */
  public static final int SAMPLE_COUNT = (SAMPLE_EVERY - 1) << 23;
  /** One statement in the state's sample count. */
  private static final int SAMPLE_STEP = Integer.lowestOneBit(SAMPLE_COUNT);

  /**
   * The state of a connection just handed out: its auto-commit is read when first needed; it is
   * read-write until {@code setReadOnly(true)} says otherwise.
   *
   * @return the state bits
   */
  public static int initialState() {
    return UNREAD;
  }

  /**
   * The state of a connection whose auto-commit is known to be {@code autoCommit}.
   *
   * @param autoCommit the connection's auto-commit
   * @return the state bits
   */
  public static int initialState(boolean autoCommit) {
    return autoCommit ? AUTO_COMMIT : 0; // and read-write, as a new connection is
  }

  /**
   * The state after {@code setReadOnly(readOnly)} succeeded: known without asking the driver.
   *
   * @param state the connection's transaction state
   * @param readOnly the value set
   * @return the state bits
   */
  public static int readOnly(int state, boolean readOnly) {
    return (state & ~READ_ONLY) | (readOnly ? READ_ONLY : 0);
  }

  /**
   * The state after {@code setAutoCommit(true)} threw. The switch commits an open transaction,
   * and a commit that fails still ends it; whether the driver switched is unknown, so its
   * auto-commit is read again when a decision first needs it. Whether it is read-only is kept.
   *
   * @param state the connection's transaction state before the switch
   * @return the state bits
   */
  public static int afterFailedSwitchToAutoCommit(int state) {
    return UNREAD | (state & (READ_ONLY | CHECKOUT_PLACE));
  }

  /**
   * The state of a connection just checked out. With an adaptive cap, the connection's count
   * towards its next flag-closed sample starts at a random phase: an application that borrows a
   * connection per statement (most Spring code outside transactions) is then sampled one statement
   * in {@link #SAMPLE_EVERY} of the budget, as one that keeps its connections is. Started at 0, a
   * connection that runs fewer than {@link #SAMPLE_EVERY} statements was never sampled. The phase
   * comes from {@link ThreadLocalRandom}: the calling thread's own seed, no shared write.
   *
   * @param checkoutHeld what {@link #beforeCheckout()} returned
   * @return the state bits, with {@link #CHECKOUT_PLACE} when the checkout took a place
   */
  public int checkedOut(int checkoutHeld) {
    int state = initialState() | (checkoutHeld != 0 ? CHECKOUT_PLACE : 0);
    return sampleWhileClosed ? state | randomSamplePhase() : state;
  }

  private static int randomSamplePhase() {
    return ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) * SAMPLE_STEP;
  }

  // --- the door rules ---

  /**
   * Called before {@code getConnection()} reaches the delegate.
   *
   * @return {@link #HELD} when the checkout took a place in flight (in {@code connection} scope),
   *     to give back by {@link #afterCheckout} when the connection closes or the checkout fails;
   *     else {@code 0}
   * @throws SQLException a {@code RateLimitExceededException} when a checkout is refused
   */
  public int beforeCheckout() throws SQLException {
    if (scope == Scope.CONNECTION && isLimiting()) {
      // no connection yet: only the code can say the priority; the place is held until close
      return admit(0, Priority.current()) & HELD;
    }
    return 0;
  }

  /**
   * Called before a statement executes, with the connection's state.
   *
   * <p>Reads the flag once; an unread auto-commit is asked of the driver only while limiting.
   *
   * @param state the connection's transaction state
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @return the state after the statement is admitted, with {@link #HELD} added when it took a
   *     place in flight
   * @throws SQLException a {@code RateLimitExceededException} when the statement is refused, or
   *     the driver's, when its auto-commit cannot be read
   */
  public int beforeStatement(int state, Connection connection) throws SQLException {
    if (scope != Scope.STATEMENT) {
      return concurrency == null || (state & CHECKOUT_PLACE) != 0 || !isLimiting()
          ? state : adoptCheckout(state);
    }
    boolean limiting = isLimiting();
    int next = decide(state, connection, limiting);
    return limiting && sampleWhileClosed && (next & (HELD | TX_PLACE)) != 0
        ? sampleAdmitted(next) : next;
  }

  private int decide(int state, Connection connection, boolean limiting) throws SQLException {
    if (!limiting && sampleWhileClosed) {
      state = countTowardsSample(state);
    }
    if ((state & UNREAD) != 0) {
      if (!limiting) {
        return state | RAN; // nothing to charge; remember that a transaction may have begun
      }
      state = read(state, connection);
    }
    if ((state & AUTO_COMMIT) != 0) {
      return limiting ? admit(state, doorPriority(state)) & ~UNCHARGED : state;
    }
    if ((state & IN_TRANSACTION) == 0) {
      // the transaction's first statement is its door, at the priority in force there
      return (limiting ? transactionDoor(state) : state) | IN_TRANSACTION;
    }
    if (!limiting || (state & UNCHARGED) != 0) {
      return state & ~PREPAID;
    }
    if ((state & TX_CLASS) == 0) { // begun while not limiting: counted from now on, and charged
      state = adopt(state) & ~PREPAID;
    } else if ((state & PREPAID) != 0) {
      return state & ~PREPAID; // the door's permit pays for it
    }
    charge(state);
    return state;
  }

  /**
   * Called before a statement sent as text executes ({@code Statement.execute(String)} and its
   * family). Text that ends a transaction ({@code COMMIT}, {@code ROLLBACK}, {@code END},
   * {@code ABORT}: see {@code TransactionText}) ends the one the state holds, before the driver
   * runs it, whether it then succeeds or fails; like {@code commit()} it is never refused.
   * Any other text is {@link #beforeStatement(int, Connection)}.
   *
   * <p>Text that ends a transaction ends it and passes, never refused nor charged, as
   *  {@code commit()} does. The text is looked at only where it can matter: in statement scope, on
   *  a connection not known to auto-commit. That includes the flag-closed path, where the
   *  auto-commit usually stays unread: a transaction ended unseen while the flag is closed would
   *  be taken for open ({@link #RAN}) once limiting starts, and go on without a door. A statement
   *  that begins with anything but a, c, e or r costs one character's look.
   *
   * @param state the connection's transaction state
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @param sql the statement's text
   * @return the state after the statement is admitted, with {@link #HELD} added when it took a
   *     place in flight
   * @throws SQLException a {@code RateLimitExceededException} when the statement is refused, or
   *     the driver's, when its auto-commit cannot be read
   */
  public int beforeStatement(int state, Connection connection, String sql) throws SQLException {
    if (scope == Scope.STATEMENT && (state & AUTO_COMMIT) == 0 && TransactionText.ends(sql)) {
      // the transaction's place is held until the ending statement returns
      return (state & ~TRANSACTION) | ((state & TX_PLACE) != 0 ? HELD : 0);
    }
    return beforeStatement(state, connection);
  }

  /**
   * Called before {@code setAutoCommit(autoCommit)} reaches the delegate.
   *
   * <p>The switch to manual commit is a transaction's door, except in driver mode under a pool that
   *  keeps its connections in manual commit ({@code sluice.pool-auto-commit=false}): there the
   *  pool makes the switch itself, when it sets a connection up and when it resets one, and those
   *  calls must never be refused; the transaction's first statement is then the door.
   *
   * @param state the connection's transaction state
   * @param autoCommit the value being set
   * @param connection the driver's connection, asked for its auto-commit if the state lacks it
   * @return the state once the call succeeds
   * @throws SQLException a {@code RateLimitExceededException} when a transaction is refused, or
   *     the driver's, when its auto-commit cannot be read
   */
  public int beforeAutoCommit(int state, boolean autoCommit, Connection connection)
      throws SQLException {
    if (autoCommit) {
      return (state | AUTO_COMMIT) & ~(TRANSACTION | UNREAD);
    }
    boolean limiting = isLimiting();
    if ((state & UNREAD) != 0) {
      // While limiting, whether this is a switch decides a door: ask. Otherwise take it for one:
      // nothing is charged now, and the transaction counts as begun, so it is never cut later.
      state = limiting ? read(state, connection) : (state & ~(UNREAD | RAN)) | AUTO_COMMIT;
    }
    if ((state & AUTO_COMMIT) == 0) {
      return state;
    }
    int manual = state & ~AUTO_COMMIT;
    if (scope != Scope.STATEMENT || !switchIsDoor) {
      return manual;
    }
    return (limiting ? transactionDoor(manual) : manual) | IN_TRANSACTION | PREPAID;
  }

  /**
   * Called once {@code setAutoCommit(autoCommit)} returned ({@code switched}) or threw, with the
   * state before it and what {@link #beforeAutoCommit} returned. The switch to auto-commit ends
   * the transaction either way (it commits, and a failed commit still ends it): its place is given
   * back. A switch to manual commit that failed began nothing: a place its door took is given back.
   *
   * @param before the state before the call
   * @param next what {@link #beforeAutoCommit} returned
   * @param autoCommit the value set
   * @param switched whether the driver accepted it
   * @return the state to keep
   */
  public int afterAutoCommit(int before, int next, boolean autoCommit, boolean switched) {
    if (autoCommit) {
      release(before & TX_PLACE);
      return switched ? next : afterFailedSwitchToAutoCommit(before);
    }
    if (switched) {
      return next;
    }
    release(next & ~before & TX_PLACE);
    return before;
  }

  /**
   * Called when the connection is closed or aborted, once: gives back the place its open
   * transaction or, in {@code connection} scope, its checkout holds.
   *
   * @param state the connection's state
   */
  public void afterClose(int state) {
    release(state & TX_PLACE);
    if ((state & CHECKOUT_PLACE) != 0) {
      afterCheckout(HELD, null);
    }
  }

  /** Gives back a transaction's place, if {@code place} is {@link #TX_PLACE}. */
  private void release(int place) {
    if (place != 0) {
      concurrency.releaseUnused();
    }
  }

  /**
   * Called after {@code commit()} or {@code rollback()} (not to a savepoint) returned or threw:
   * a failed one ends the transaction too (on PostgreSQL a commit that fails, a deferred
   * constraint for one, has rolled the transaction back), so that a transaction never outlives
   * its real end; the next statement is a door again.
   *
   * @param state the connection's transaction state
   * @return the state with the transaction ended
   */
  public int afterEnd(int state) {
    release(state & TX_PLACE);
    return state & ~TRANSACTION;
  }

  /**
   * Resolves an unread auto-commit. Under manual commit, statements that ran while it was unread
   * (the flag was closed) belong to a transaction already begun: it is admitted, never cut.
   */
  private static int read(int state, Connection connection) throws SQLException {
    int known = state & ~(UNREAD | RAN);
    if (connection.getAutoCommit()) {
      return known | AUTO_COMMIT;
    }
    return (state & RAN) != 0 ? known | IN_TRANSACTION : known;
  }

  /**
   * Stops limiting for good, when the budget is closed: the connections handed out before pass
   * uncharged from now on, as if the flag were closed, rather than obeying a flag whose reader has
   * stopped (its last value frozen). Nothing is logged for it on the request path.
   */
  public void stop() {
    flag = STOPPED;
    mode = OFF; // ends a recovery too: with the flag closed for good, nothing moves it again
    debts.clear();
    LOG.info("{} - closed: no longer limiting; connections still open pass uncharged", name);
  }

  /**
   * A priority as meters and log lines name it: {@code critical}, {@code normal}...
   *
   * @param priority the priority
   * @return its tag
   */
  public static String tag(Priority priority) {
    return priority.name().toLowerCase(Locale.ROOT);
  }

  // --- the concurrency cap: a place in flight, taken beside the permit ---

  /**
   * Admits a call at a door through both limits, at {@code priority}: a place in flight within
   * the part of the cap the priority sees first (a refusal there spends no permit), then a
   * permit (a refusal there gives the place back). In shadow mode a cap that would refuse lets
   * the call pass, holding nothing, uncharged and counted as shadow-rejected.
   *
   * @return {@code state}, with {@link #HELD} when a place was taken and {@link #UNCHARGED} when
   *     only shadow mode let the call pass
   */
  private int admit(int state, Priority priority) throws RateLimitExceededException {
    if (concurrency == null) {
      return take(priority) ? state : state | UNCHARGED;
    }
    if (!concurrency.tryAcquire(priority)) {
      if (shadow) {
        countDemand();
        shadowPass(priority);
        return state | UNCHARGED;
      }
      throw refuseConcurrency(priority);
    }
    boolean permitted = false;
    try {
      int admitted = take(priority) ? state | HELD : state | HELD | UNCHARGED;
      permitted = true;
      return admitted;
    } finally {
      if (!permitted) {
        concurrency.releaseUnused();
      }
    }
  }

  /**
   * The flag-closed path of an adaptive cap: counts the connection's statements in the state's
   * own bits (no shared counter, no write outside the connection) and marks one in
   * {@link #SAMPLE_EVERY} {@link #SAMPLED}, so that the no-load latency of each statement shape is
   * known before an outage starts; a baseline learned from a flood would take crowding for normal.
   */
  private static int countTowardsSample(int state) {
    return sampleOneIn(state, SAMPLE_EVERY);
  }

  /**
   * The admit path of an adaptive cap: counts the admitted statement in the connection's state
   * bits, as the flag-closed path does, and marks one in {@link Concurrency#sampleStride()}
   * {@link #SAMPLED}: only those are timed and sampled; the others only take and give back their
   * place. The stride is 1 while few statements run, so the controller misses none then.
   */
  private int sampleAdmitted(int state) {
    return sampleOneIn(state, concurrency.sampleStride());
  }

  /**
   * Counts one statement in the state's sample bits and marks it {@link #SAMPLED} when the count
   * is a multiple of {@code stride}, a power of two up to {@link #SAMPLE_EVERY}.
   */
  private static int sampleOneIn(int state, int stride) {
    int count = (state + SAMPLE_STEP) & SAMPLE_COUNT;
    int next = (state & ~SAMPLE_COUNT) | count;
    return (count & (stride - 1) * SAMPLE_STEP) == 0 ? next | SAMPLED : next;
  }

  /**
   * A transaction's door, while limiting: admitted as a call at the door's priority, it keeps
   * the place it took ({@link #TX_PLACE}) until it ends, and remembers its priority, at which its
   * statements are charged.
   */
  private int transactionDoor(int state) throws RateLimitExceededException {
    Priority priority = doorPriority(state);
    int admitted = admit(state, priority);
    return (admitted & ~HELD) | ((admitted & HELD) != 0 ? TX_PLACE : 0) | classBits(priority);
  }

  /**
   * A transaction that began while not limiting runs a statement while limiting: it is counted
   * from now on (one place, whatever the cap: it cannot be refused, its work is under way) and
   * charged at the priority in force now.
   */
  private int adopt(int state) {
    if (concurrency != null) {
      concurrency.force();
      state |= TX_PLACE;
    }
    return state | classBits(doorPriority(state));
  }

  /** As {@link #adopt}, for a connection checked out while not limiting. */
  private int adoptCheckout(int state) {
    concurrency.force();
    return state | CHECKOUT_PLACE;
  }

  private static int classBits(Priority priority) {
    return (priority.ordinal() + 1) << TX_CLASS_SHIFT;
  }

  /** The priority an admitted transaction is charged at. */
  private static Priority transactionPriority(int state) {
    return PRIORITIES[((state & TX_CLASS) >>> TX_CLASS_SHIFT) - 1];
  }

  private RateLimitExceededException refuseConcurrency(Priority priority) {
    countDemand();
    rejected[priority.ordinal()].increment();
    maybeSummarise();
    int cap = concurrency.limit();
    return refusals.concurrency(name, bucket.permitsPerSecond(),
        concurrency.gate().limit(priority) == cap ? CAP_REACHED : PART_REACHED[priority.ordinal()],
        stackTraces, cap);
  }

  /**
   * Called once a checkout that {@link #beforeCheckout} admitted ends: the connection closed, or
   * the delegate failed to hand one out ({@code failure}, which may be the pool's timeout).
   *
   * @param held what {@link #beforeCheckout} returned
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
   * The time an admitted statement starts, to pass to {@link #afterStatement}: read only when
   * a statement was {@link #SAMPLED} (its latency is measured); a statement that is only
   * {@link #HELD} is not timed.
   *
   * @return a {@link Ticker} reading, or {@code 0}
   */
  public long startNanos() {
    return concurrency.startNanos(); // only asked for a call that was SAMPLED: there is a cap
  }

  /**
   * Called when a statement that was {@link #HELD} or {@link #SAMPLED} has returned or thrown:
   * gives its place back if it held one, and reports its latency and outcome where the cap
   * adapts.
   *
   * @param held the bits {@link #beforeStatement} returned of {@link #HELD} and {@link #SAMPLED}
   * @param startNanos what {@link #startNanos()} returned when it was admitted
   * @param sql its text, or {@code null} (a batch)
   * @param failure what it threw, or {@code null}: a {@code RuntimeException} or an {@code Error}
   *     is reported as {@code null}, never as overload
   */
  public void afterStatement(int held, long startNanos, String sql, SQLException failure) {
    concurrency.release((held & HELD) != 0, (held & SAMPLED) != 0, startNanos, sql, failure);
  }

  /** This instance's cap on statements in flight; {@code null} when there is none. */
  public Concurrency concurrency() {
    return concurrency;
  }

  // --- permits ---

  /** Takes a permit while limiting, or throws. */
  public void admit() throws RateLimitExceededException {
    if (isLimiting()) {
      take(Priority.current());
    }
  }

  /** The priority the code set, else the connection's ({@code SHEDDABLE} when read-only). */
  private static Priority doorPriority(int state) {
    Priority priority = CODE_PRIORITY.get();
    if (priority == null) {
      priority = (state & READ_ONLY) != 0 ? Priority.SHEDDABLE : Priority.NORMAL;
    }
    return priority;
  }

  /*
   * Takes a permit, or throws: the caller is limiting. Returns whether it was charged: false
   * when only shadow mode let it pass. The concurrency cap is decided before it, in admit().
   */
  private boolean take(Priority priority) throws RateLimitExceededException {
    countDemand();
    if (debts.settle(bucket, priority) && bucket.tryAcquire(priority)) {
      admitted[priority.ordinal()].increment();
      return true;
    }
    if (shadow) {
      return shadowPass(priority);
    }
    rejected[priority.ordinal()].increment();
    throw rejection(priority); // thrown here, as before shadow mode: the JIT keeps it cheap
  }

  /** Counts a call that reached a door, admitted or not, while recovering: the demand. */
  private void countDemand() {
    if (mode == RECOVERING) {
      recovery.count(ticker.read(), bucket.permitsPerSecond());
    }
  }

  /**
   * A call enforce mode would refuse, in shadow mode: it passes, uncharged (a refusal writes
   * nothing to the bucket), and is counted.
   */
  private boolean shadowPass(Priority priority) {
    shadowRejected[priority.ordinal()].increment();
    maybeSummarise();
    return false;
  }

  /**
   * Charges a statement of an admitted transaction, never refusing it: within the depth of the
   * bucket its priority sees, or else owed by that priority ({@link ClassDebts}), so that it never
   * spends the reserve of a priority above.
   */
  private void charge(int state) {
    debts.charge(bucket, transactionPriority(state));
    forced.increment();
  }

  /** Reads the flag, noticing when limiting starts or stops; {@code true} while recovering. */
  public boolean isLimiting() {
    boolean open = flag.isOpen();
    if (mode != (open ? OPEN : OFF)) {
      return transition(open);
    }
    return open;
  }

  private RateLimitExceededException rejection(Priority priority) {
    long owed = debts.owedBefore(priority);
    long waitNanos = bucket.nanosUntilAvailable(priority) + (owed == 0 ? 0
        : (long) Math.min(Long.MAX_VALUE / 2.0, owed * 1e9 / bucket.permitsPerSecond()));
    maybeSummarise();
    return refusals.rate(name, bucket.permitsPerSecond(), rejectionReason, waitNanos,
        stackTraces);
  }

  // --- share: kept by BudgetShare, off the request path ---

  /**
   * Sets how many instances share the budget now (the registry's live count): see
   * {@link BudgetShare#setInstances}.
   *
   * @param count the live count
   */
  public void setInstances(double count) {
    share.setInstances(count);
  }

  /**
   * Sets this instance's part of the budget under demand division: see
   * {@link BudgetShare#setShare}.
   *
   * @param count the live count, for the figures
   * @param part this instance's share / budget, from 0 to 1; {@code NaN}: budget / count
   */
  public void setShare(double count, double part) {
    share.setShare(count, part);
  }

  /**
   * Changes the budget at runtime (an operator's JMX call): see {@link BudgetShare#setBudget}.
   *
   * @param permitsPerSecond the new budget, all instances together
   * @param by who asked, for the log line
   */
  public void setBudget(double permitsPerSecond, String by) {
    share.setBudget(permitsPerSecond, by);
  }

  /** @return the budget, all instances together, in permits per second */
  public double budget() {
    return share.budget();
  }

  /** @return how many instances share the budget now */
  public double instances() {
    return share.instances();
  }

  public String name() {
    return name;
  }

  public Bucket bucket() {
    return bucket;
  }

  public BreakerFlag flag() {
    return flag;
  }

  public Scope scope() {
    return scope;
  }

  public long admitted() {
    return sum(admitted);
  }

  public long rejected() {
    return sum(rejected);
  }

  public long shadowRejected() {
    return sum(shadowRejected);
  }

  public long admitted(Priority priority) {
    return admitted[priority.ordinal()].sum();
  }

  public long rejected(Priority priority) {
    return rejected[priority.ordinal()].sum();
  }

  public long shadowRejected(Priority priority) {
    return shadowRejected[priority.ordinal()].sum();
  }

  public boolean shadow() {
    return shadow;
  }

  /**
   * Switches between enforce and shadow mode at once (an operator's JMX call); logged at WARN.
   *
   * @param shadowMode {@code true} for shadow, {@code false} for enforce
   * @param by who asked, for the log line
   */
  public void setShadow(boolean shadowMode, String by) {
    boolean before = shadow;
    shadow = shadowMode;
    LOG.warn("{} - mode changed by {} from {} to {}: {}", name, by, modeName(before),
        modeName(shadowMode), shadowMode
            ? "calls the limit would refuse now pass, uncharged, and are counted as"
                + " shadow-rejected"
            : "calls over the limit are refused from now on");
  }

  /** The budget's answers instead of refusals (the connections ask them), or {@code null}. */
  public dev.sluice.internal.answer.Answers answers() {
    return answers;
  }

  /** Sets the answers, once, before the limiter is handed out. */
  public void answerWith(dev.sluice.internal.answer.Answers answers) {
    this.answers = answers;
  }

  public static String modeName(boolean shadowMode) {
    return shadowMode ? "shadow" : "enforce";
  }

  private static LongAdder[] adders() {
    LongAdder[] adders = new LongAdder[Priority.values().length];
    for (int i = 0; i < adders.length; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }

  private static long sum(LongAdder[] adders) {
    long total = 0;
    for (LongAdder adder : adders) {
      total += adder.sum();
    }
    return total;
  }

  public long forced() {
    return forced.sum();
  }

  // --- the flag and the recovery: each transition made by one CAS ---

  /**
   * Whether the limiter is limiting now, for a reader off the request path (stats, JMX): it makes
   * the same transitions a call would, but counts no demand, so that a recovery with no calls at
   * all still ends when its settle is over.
   *
   * @param open what the flag says now
   */
  public boolean limiting(boolean open) {
    return transition(open);
  }

  /**
   * Ends a recovery at once (an operator's JMX call).
   *
   * @param by who asked, for the log line
   * @return whether a recovery was on
   */
  public boolean endRecovery(String by) {
    transition(flag.isOpen()); // a close no call has seen yet starts its recovery first
    if (MODE.compareAndSet(this, RECOVERING, OFF)) {
      debts.clear();
      LOG.warn("{} - recovery ended by {} after {}: stopped limiting; {} refused during the"
          + " recovery", name, by, seconds(recovery.elapsedNanos(ticker.read())),
          calls(rejected() - rejectedBeforeRecovery));
      return true;
    }
    return false;
  }

  /** The slow path: the flag is not what the request path last saw, or a recovery is on. */
  private boolean transition(boolean open) {
    while (true) {
      int seen = mode;
      if (open) {
        if (seen == OPEN || MODE.compareAndSet(this, seen, OPEN)) {
          if (seen != OPEN) {
            limitingStarted(seen);
          }
          return true;
        }
      } else if (seen == OFF) {
        return false;
      } else if (seen == OPEN) {
        flagClosed();
      } else if (seen == STARTING || !recovery.settled(ticker.read())) {
        return true;
      } else if (MODE.compareAndSet(this, RECOVERING, OFF)) {
        debts.clear();
        recoverySettled();
        return false;
      }
    }
  }

  /** The flag was open and is closed: recover, or stop at once when there is no settle. */
  private void flagClosed() {
    if (!recovery.enabled()) {
      if (MODE.compareAndSet(this, OPEN, OFF)) {
        debts.clear();
        LOG.warn("{} - the cache breaker flag is closed: stopped limiting; {} since the last"
            + " summary", name, sinceLastSummary());
      }
    } else if (MODE.compareAndSet(this, OPEN, STARTING)) {
      recovery.begin(ticker.read());
      rejectedBeforeRecovery = rejected();
      if (MODE.compareAndSet(this, STARTING, RECOVERING)) { // else the flag opened again
        LOG.warn("{} - the cache breaker flag is closed, but the cache is likely cold: still"
            + " {} {} permits/s while it refills, so that its misses do not flood the database;"
            + " this stops once demand here stays at or below {}/s for {}", name,
            shadow ? "counting (shadow mode, nothing refused) what would exceed"
                : "limiting the database to", Share.rate(bucket.permitsPerSecond()), quietRate(),
            seconds(recovery.settle().toNanos()));
      }
    }
  }

  private void limitingStarted(int seen) {
    if (seen == STARTING) {
      return; // the flag closed and opened again before the recovery even began: nothing changed
    }
    if (seen == RECOVERING) {
      LOG.warn("{} - the cache breaker flag is open again during recovery: {} goes on at {}"
          + " permits/s", name, shadow ? "counting (shadow mode)" : "limiting",
          Share.rate(bucket.permitsPerSecond()));
      return;
    }
    nextSummaryNanos.set(ticker.read() + summaryIntervalNanos);
    rejectedAtLastSummary.set(rejected());
    shadowRejectedAtLastSummary.set(shadowRejected());
    logLimiting();
  }

  /** With no breaker (the flag always open), limiting is the normal state: INFO, saying so. */
  private void logLimiting() {
    String rate = Share.rate(bucket.permitsPerSecond());
    String share = Share.rate(this.share.budget());
    String what = shadow
        ? "shadow mode: nothing is refused; counting the calls that a limit of"
        : "limiting the database to";
    if (flag == BreakerFlag.alwaysOpen()) {
      LOG.info("{} - {} {} permits/s (this instance's share of {}/s), burst {}{}: there is no"
          + " cache breaker flag (sluice.flag=always), so every call is {}", name, what, rate,
          share, bucket.burst(), shadow ? " would refuse" : "", shadow ? "counted" : "charged");
    } else {
      LOG.warn("{} - the cache breaker flag is open: {} {} permits/s (this instance's share of"
          + " {}/s), burst {}{}", name, what, rate, share, bucket.burst(),
          shadow ? " would refuse" : "");
    }
  }

  private void recoverySettled() {
    LOG.warn("{} - recovery ended after {}: demand here stayed at or below {}/s for {}; stopped"
        + " limiting; {} refused during the recovery", name,
        seconds(recovery.elapsedNanos(ticker.read())), quietRate(),
        seconds(recovery.settle().toNanos()), calls(rejected() - rejectedBeforeRecovery));
  }

  private String quietRate() {
    return Share.rate(
        recovery.threshold() * bucket.permitsPerSecond());
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }

  /** {@code 1 call}, {@code 2 calls}. */
  static String calls(long count) {
    return count == 1 ? "1 call" : count + " calls";
  }

  // --- logging: a summary per interval ---

  /*
   * Enforced and shadow refusals are summed up apart: after a switch of mode, the first summary
   * names the calls of each mode in that mode's words, never one sum of both.
   */
  private void maybeSummarise() {
    long now = ticker.read();
    long due = nextSummaryNanos.get();
    if (now - due >= 0 && nextSummaryNanos.compareAndSet(due, now + summaryIntervalNanos)) {
      long refused = rejected() - rejectedAtLastSummary.getAndSet(rejected());
      long shadowed = shadowRejected() - shadowRejectedAtLastSummary.getAndSet(shadowRejected());
      long millis = (summaryIntervalNanos + (now - due)) / 1_000_000;
      String rate = Share.rate(bucket.permitsPerSecond());
      if (shadow) {
        LOG.warn("{} - shadow mode: would have rejected {} in the last {} ms{} ({}): nothing was"
            + " refused; the limit tried is {} permits/s here ({} within it, {} charged in"
            + " transactions so far)", name, calls(shadowed), millis,
            refused == 0 ? "" : ", and rejected " + calls(refused) + " before the switch to shadow",
            byPriority(), rate, admitted(), forced.sum());
      } else {
        LOG.warn("{} - rejected {} in the last {} ms{} ({}): the database is held to {} permits/s"
            + " here ({} admitted, {} charged in transactions so far)", name, calls(refused),
            millis, shadowed == 0 ? "" : ", and would have rejected " + calls(shadowed)
                + " in shadow mode before the switch to enforce",
            byPriority() + (answers == null ? "" : answers.summaryNote()), rate, admitted(), forced.sum());
      }
    }
  }

  /** Refusals since the last summary, in the words of the mode each was made in. */
  private String sinceLastSummary() {
    long refused = rejected() - rejectedAtLastSummary.get();
    long shadowed = shadowRejected() - shadowRejectedAtLastSummary.get();
    String text = calls(refused) + " rejected";
    return shadowed == 0 ? text : text + ", " + calls(shadowed) + " shadow-rejected";
  }

  /** Refusals so far, enforced and shadow, by priority: {@code critical 0/0, normal 3/0, ...}. */
  private String byPriority() {
    StringBuilder text = new StringBuilder("rejected/shadow-rejected so far by priority:");
    for (Priority p : Priority.values()) {
      text.append(p.ordinal() == 0 ? " " : ", ").append(tag(p)).append(' ')
          .append(rejected(p)).append('/').append(shadowRejected(p));
    }
    return text.toString();
  }
}
