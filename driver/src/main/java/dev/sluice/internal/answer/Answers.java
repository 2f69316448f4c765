package dev.sluice.internal.answer;

import dev.sluice.Priority;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Answers instead of refusals, for one budget: the room's entry. Off unless
 * {@code sluice.stale.max-age > 0}.
 *
 * <h2>The rule</h2>
 * An answer only ever replaces a refusal. A read Sluice would admit goes to the database exactly
 * as without answers; only an eligible read that Sluice is about to refuse — by the rate or by
 * the concurrency cap — may instead be answered: from the kept result of an identical read that
 * completed at most {@code max-age} ago ("recent", HTTP's {@code stale-if-error}), else by
 * waiting at most {@code sluice.stale.wait} for an identical read in flight ("joined", Vitess'
 * query consolidator). Otherwise it is refused as before. Its caller's alternative was an
 * exception; what it gets instead is marked ({@code StaleResultWarning}) and bounded in age.
 *
 * <h2>The consistency given up</h2>
 * An answer may predate the caller's own write by up to {@code max-age}: a service that writes a
 * row and reads it back while limiting may read the row as it was. An application that writes an
 * answered read back into its cache extends that by the cache's TTL. Nothing is answered inside
 * a transaction, nor for a read that locks ({@code FOR UPDATE}), writes ({@code WITH … DELETE}),
 * or draws something new ({@code nextval}, {@code random()}); see {@link ReadText}.
 *
 * <h2>When not to turn it on</h2>
 * When a read must see the caller's latest write (read-your-writes across requests, a balance
 * checked before a debit); when a read calls a function of the application's own that writes or
 * draws a value (Sluice cannot see inside it); when a stale result is worse for the user than an
 * error. Any of these, for some reads only: keep them in a transaction, or off the budget.
 *
 * <h2>How it runs</h2>
 * While limiting, an admitted eligible read is recorded ({@link #record}) as its caller reads
 * it, and, if read to its end within {@code max-rows} rows, kept in a {@link Store} bounded by
 * {@code sluice.stale.memory}. A read about to be refused asks {@link #answer}. With
 * {@code sluice.stale.share}, what is kept is also queued for the budget's other instances, and
 * what they kept is kept here too ({@link Sharing}; the transport is the caller's:
 * {@link #nextShared()}, {@link #heard(String)}). Nothing here is
 * on the flag-closed path: the limiter asks only while limiting, and a statement records its
 * parameters only while answers are on.
 *
 * <p>This class is threadsafe and takes no lock; a joined read parks without a monitor.
 */
public final class Answers {
  /** Enough encodings and decodings for the JIT to compile the codec (about 0.3 s of a core). */
  static final int WARM_UP_ROUNDS = 3_000;
  private final String budgetName;
  private final AnswerSettings settings;
  private final LongSupplier nanoTime;
  private final StaleWarnings warnings;
  private final Store store;
  private final Flights flights;
  private final AnswerCounts counts = new AnswerCounts();
  /** {@code null} unless {@code sluice.stale.share}. */
  private final Sharing sharing;
  /**
   * What this instance's getters depend on ({@link Sharing#environment}); known once a read is
   * recorded or refused.
   */
  private volatile String environment;
  private final long maxAgeNanos;
  private final Recording.Landing landing = new Landing();
  private volatile Dialect dialect;
  /**
   * Whether the flag opened, or this budget refused a read, since a read last found it not
   * limiting: the request path's hint to ask the limiter whether a read is to be recorded. A
   * plain field, so that the flag-closed path reads no volatile field for answers: a stale value
   * costs at most one needless question to the limiter, or one read not recorded.
   */
  private boolean active;

  private Answers(String budgetName, AnswerSettings settings, LongSupplier nanoTime,
      StaleWarnings warnings, int waitersPerRead, boolean share) {
    this.budgetName = budgetName;
    this.sharing = share ? new Sharing(System::currentTimeMillis) : null;
    this.settings = settings;
    this.nanoTime = nanoTime;
    this.warnings = warnings;
    this.maxAgeNanos = settings.maxAge().toNanos();
    this.store = new Store(settings.memoryBytes(), maxAgeNanos);
    this.flights = new Flights(maxAgeNanos, waitersPerRead);
  }

  /**
   * The answers of one budget.
   *
   * @param budgetName the budget's {@code sluice.name}, for the warning
   * @param settings the checked settings; answers must be {@link AnswerSettings#on() on}
   * @param nanoTime the clock, as {@code System::nanoTime}
   * @param warnings makes the warning of an answer ({@code StaleResultWarning}'s factory)
   * @return the answers
   */
  public static Answers create(String budgetName, AnswerSettings settings, LongSupplier nanoTime,
      StaleWarnings warnings) {
    return create(budgetName, settings, nanoTime, warnings, Flights.WAITERS_PER_READ, false);
  }

  /**
   * The answers of one budget that share their kept results with the budget's other instances
   * ({@code sluice.stale.share}): the caller carries {@link #nextShared()} to them and what they
   * send to {@link #heard(String)}.
   *
   * @param budgetName the budget's {@code sluice.name}, for the warning
   * @param settings the checked settings; answers must be {@link AnswerSettings#on() on}
   * @param nanoTime the clock, as {@code System::nanoTime}
   * @param warnings makes the warning of an answer ({@code StaleResultWarning}'s factory)
   * @return the answers
   */
  public static Answers sharing(String budgetName, AnswerSettings settings,
      LongSupplier nanoTime, StaleWarnings warnings) {
    return create(budgetName, settings, nanoTime, warnings, Flights.WAITERS_PER_READ, true);
  }

  static Answers create(String budgetName, AnswerSettings settings, LongSupplier nanoTime,
      StaleWarnings warnings, int waitersPerRead, boolean share) {
    if (!settings.on()) {
      throw new IllegalArgumentException("answers are off (sluice.stale.max-age=0)");
    }
    return new Answers(budgetName, settings, nanoTime, warnings, waitersPerRead, share);
  }

  /**
   * Starts keeping an admitted eligible read's result, while limiting; the result set's wrapper
   * then reports each {@code next()} to the recording.
   *
   * @param key the read's key ({@link ReadKey#of}); {@code null}: nothing to keep
   * @param live the driver's result set, just returned by {@code executeQuery}
   * @return the recording, or {@code null} when the result cannot be kept (its driver or a
   *     column's type is not answered faithfully, or it is not forward-only and read-only)
   */
  public Recording record(ReadKey key, ResultSet live) {
    if (key == null) {
      return null;
    }
    try {
      Dialect d = dialect(live.getStatement().getConnection());
      if (d == null || live.getType() != ResultSet.TYPE_FORWARD_ONLY
          || live.getConcurrency() != ResultSet.CONCUR_READ_ONLY) {
        return null;
      }
      Columns columns = Columns.read(live.getMetaData());
      if (!columns.keepable() || !d.answersAll(columns)) {
        return null;
      }
      long now = nanoTime.getAsLong();
      return new Recording(landing, settings, key, flights.depart(key, now), columns, d, now);
    } catch (SQLException | RuntimeException e) {
      return null; // the caller's result is untouched; this one is just not kept
    }
  }

  /**
   * The dialect of the budget's database, looked up on first use, and with it the
   * {@link #environment} a shared result must come from.
   */
  private Dialect dialect(Connection connection) throws SQLException {
    Dialect d = dialect;
    if (d == null) {
      // Racy on purpose: two first recordings may both look the product up; both find the same.
      DatabaseMetaData database = connection.getMetaData();
      d = dialectOf(database.getDatabaseProductName());
      if (sharing != null) {
        environment = Sharing.environment(database.getDriverName(), database.getDriverVersion());
      }
      dialect = d;
    }
    return d;
  }

  /**
   * The dialect for a database product name; {@code null}: nothing is kept for it. Here, not in
   * {@link Dialect}: the base class naming its subclasses would make a cycle.
   */
  static Dialect dialectOf(String productName) {
    if (productName == null) {
      return null;
    }
    String name = productName.toLowerCase(Locale.ROOT);
    if (name.contains("postgres")) {
      return PostgresDialect.INSTANCE;
    }
    return name.equals("h2") ? H2Dialect.INSTANCE : null;
  }

  /**
   * Answers a read that is about to be refused, if it can: from a result kept at most
   * {@code max-age} ago, else by waiting at most {@code sluice.stale.wait} for an identical
   * read in flight. Holds no lock and no permit while it waits.
   *
   * @param key the read's key ({@link ReadKey#of}); {@code null}: not answerable
   * @param caller the caller's statement, the answer's {@code getStatement()}
   * @param priority the priority the limit refused it at, which the answer is counted under
   * @return the answered result, or {@code null}: refuse the read as without answers
   */
  public ResultSet answer(ReadKey key, Statement caller, Priority priority) {
    if (key == null) {
      return null;
    }
    long now = nanoTime.getAsLong();
    Kept kept = store.get(key, now);
    boolean join = kept == null;
    if (join) {
      kept = flights.join(key, settings.joinWait().toNanos(), now);
      if (kept == null) {
        return null;
      }
    }
    return answered(kept, caller, join, priority.ordinal());
  }

  private void learnEnvironment(Statement caller) {
    try {
      dialect(caller.getConnection());
    } catch (SQLException | RuntimeException e) {
      // the next refusal tries again; the read is refused or answered as it would be
    }
  }

  private ResultSet answered(Kept kept, Statement caller, boolean join, int priority) {
    long ageMillis = Math.max(0, (nanoTime.getAsLong() - kept.keptAtNanos()) / 1_000_000);
    counts.answered(priority, join, kept.heard(), ageMillis);
    return new AnsweredResultSet(kept, kept.dialect(), caller,
        warnings.stale(budgetName, ageMillis, join));
  }

  /** Drops every kept result: when limiting ends, and on {@code close()}. */
  public void clear() {
    store.clear();
  }

  /**
   * Whether the flag opened or a read was refused since a read last found the budget not
   * limiting ({@link #limitingStarted()}, {@link #refused}, {@link #notLimiting()}): until then
   * nothing is recorded, and a statement records no parameters. A plain read.
   *
   * @return the hint
   */
  public boolean active() {
    return active;
  }

  /**
   * A read was refused: the budget is limiting; recording may begin. With sharing, the first
   * refusal also learns the {@link Sharing#environment} from the caller's connection, so that
   * what other instances send is heard before this one has kept anything.
   *
   * @param caller the refused read's statement; {@code null}: none to learn from
   */
  public void refused(Statement caller) {
    if (!active) {
      active = true;
    }
    if (sharing != null && environment == null && caller != null) {
      learnEnvironment(caller);
    }
  }

  /**
   * The breaker flag opened (and Sluice enforces): recording may begin at once, before any
   * refusal — limiting's first reads, admitted by the burst, are the first results kept. With
   * no breaker flag ({@code sluice.flag=always}), or in shadow mode, nothing calls this: there
   * recording begins with the first refusal ({@link #refused}).
   */
  public void limitingStarted() {
    if (!active) {
      active = true;
    }
  }

  /** A call found the budget not limiting (or limiting stopped): drops every kept result. */
  public void notLimiting() {
    if (active) {
      active = false;
    }
    if (store.entries() > 0) {
      store.clear();
    }
  }

  /**
   * What the rejection summary line says of the answers: {@code ; answered instead so far: …},
   * and once there are answers how old they were (the median and the 99th percentile of their
   * ages since the start, in ms).
   */
  public String summaryNote() {
    return counts.summaryNote(sharing != null);
  }

  /** Reads answered instead of refused, since this budget was built. */
  public long answered() {
    return counts.answered();
  }

  /** The part of {@link #answered()} that joined a read in flight. */
  public long joined() {
    return counts.joined();
  }

  /** The reads of {@code priority} answered instead of refused, since this budget was built. */
  public long answered(Priority priority) {
    return counts.answered(priority);
  }

  /** The part of {@link #answered(Priority)} that joined a read in flight. */
  public long joined(Priority priority) {
    return counts.joined(priority);
  }

  /**
   * The age under which {@code quantile} of the answers since this budget was built were, in
   * milliseconds (exact under 1 s, to 10 ms under 10 s, to 100 ms beyond); {@code -1} before the
   * first answer. A scan of the distribution: for stats, meters and the summary, not requests.
   *
   * @param quantile from 0 to 1, as {@code 0.99}
   */
  public long ageMillis(double quantile) {
    return counts.ageMillis(quantile);
  }

  /** How many results are kept now (a gauge). */
  public int entries() {
    return store.entries();
  }

  /** The kept results' estimated bytes now (a gauge). */
  public long bytes() {
    return store.bytes();
  }

  /** Where this budget's recordings land: the store, and the reads waiting for them. */
  private final class Landing implements Recording.Landing {
    @Override
    public void keep(Recording recording) {
      Kept kept = recording.toKept();
      store.put(kept, nanoTime.getAsLong());
      land(recording, kept);
      if (sharing != null) {
        sharing.offer(kept);
      }
    }

    @Override
    public void drop(Recording recording) {
      land(recording, null);
    }

    private void land(Recording recording, Kept kept) {
      if (recording.flight() != null) {
        flights.land(recording.key(), recording.flight(), kept);
      }
    }
  }

  /**
   * The results this instance kept since the last call (at most {@value Sharing#BATCH}), as one
   * message to the budget's other instances; {@code null} when none waits, or when not sharing.
   * Called by the sending thread, which encodes them.
   */
  public String nextShared() {
    return sharing == null ? null : sharing.next(environment, nanoTime);
  }

  /**
   * Keeps a result another instance sent, while this one is limiting and the result is younger
   * than {@code max-age} here; never replaces a younger result. Called by the subscriber's
   * thread; reads the {@link #active()} hint as the request path does (a result heard a moment
   * after limiting ended is dropped with the others when a read next finds it ended).
   *
   * @param message as {@link #nextShared()} made it on the other instance
   */
  public void heard(String message) {
    if (sharing == null || !active) {
      return;
    }
    long now = nanoTime.getAsLong();
    sharing.read(message, environment, now, kept -> {
      if (now - kept.keptAtNanos() < maxAgeNanos) {
        store.putUnlessYounger(kept.asHeard(), now);
      }
    });
  }

  /**
   * Readies the encoding and decoding of shared results ({@link KeptCodec#warmUp}): called once
   * by the sending thread when sharing starts, off every request path.
   */
  public void warmUpSharing() {
    KeptCodec.warmUp(WARM_UP_ROUNDS);
  }

  /** Answers from results another instance kept, since this budget was built. */
  public long answeredFromOthers() {
    return counts.fromOthers();
  }

  /** Where this budget's recordings land (for a benchmark that records without a flight). */
  Recording.Landing landing() {
    return landing;
  }

  /** Sets the environment as a first refusal learns it from its connection (for tests). */
  void learned(String environment) {
    this.environment = environment;
  }

  /** Whether a caller waits for the read of {@code key} in flight (for tests). */
  boolean hasWaiters(ReadKey key) {
    return flights.hasWaiters(key);
  }
}
