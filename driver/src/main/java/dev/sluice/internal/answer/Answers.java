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
 * <p>An answer only ever replaces a refusal: a read Sluice would admit goes to the database as
 * without answers; only an {@linkplain #eligible eligible} read about to be refused, by the rate
 * or the cap, may instead be answered from the kept result of an identical read at most
 * {@code max-age} old, else by joining an identical read in flight for at most
 * {@code sluice.stale.wait}; otherwise it is refused as before. A read's key holds its
 * {@link Session}, so an answer is what the caller's own session would read; a write through this
 * instance fences what it may have changed ({@link Fences}); both are followed by {@link Tracker}.
 * Nothing is answered inside a transaction, nor for a read that locks, writes or calls what the
 * catalog does not call pure ({@link ReadText}, {@link Catalog}).
 *
 * <p>While limiting, an admitted eligible read is {@linkplain #record recorded} as its caller reads
 * it and, if read to its end within {@code max-rows}, kept in a {@link Store} bounded by
 * {@code sluice.stale.memory}; a read about to be refused asks {@link #answer}. With
 * {@code sluice.stale.share} what is kept also goes to the budget's other instances ({@link
 * Sharing}; the transport is the caller's: {@link #nextShared()}, {@link #heard(String)}), and
 * their results are answered only while the channel is heard ({@link #channelHeard}). Nothing here
 * is on the flag-closed path.
 *
 * <p>This class is threadsafe and takes no lock; a joined read parks without a monitor. The long
 * form (the rule, the consistency given up, when not to turn it on): docs/answers.md#the-rule.
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
  /** {@link #notEligible(Ineligible)} as a function, made once ({@link ReadKey#of}). */
  private final java.util.function.Consumer<Ineligible> ineligibleCounter = counts::notEligible;
  /** The sessions and the write fences ({@link Tracker}). */
  private final Tracker tracker;
  /** {@code null} unless {@code sluice.stale.share}. */
  private final Sharing sharing;
  /** This instance's fences waiting to travel; {@code null} unless {@code sluice.stale.share}. */
  private final FenceOutbox fencesOut;
  /**
   * Since when (the answers' clock) this instance has heard the channel without a break: a
   * result heard before then is not answered, nor any while the channel is not heard
   * ({@link Long#MAX_VALUE}). See {@link #channelHeard(boolean)}.
   */
  private volatile long hearingSinceNanos = Long.MAX_VALUE;
  /**
   * What this instance's getters depend on ({@link Sharing#environment}); known once a read is
   * recorded or refused.
   */
  private volatile String environment;
  private final long maxAgeNanos;
  private final Recording.Landing landing = new Landing();
  private volatile Dialect dialect;
  private final Catalog catalog;
  /** What each read's text is, judged once per text. */
  private final Texts texts = new Texts();
  /**
   * Whether limiting started and has not stopped since, as the limiter's recovery hold tells it
   * ({@link #limitingStarted()}, {@link #limitingStopped()}): the request path's hint to ask the
   * limiter whether a read is to be recorded. Volatile, so that the last word told is the one
   * read (a plain load on x86, as before); read once per prepared statement and admitted read.
   */
  private volatile boolean active;

  private Answers(String budgetName, AnswerSettings settings, LongSupplier nanoTime,
      StaleWarnings warnings, int waitersPerRead, ShareKeys shareKeys, boolean seal) {
    this.budgetName = budgetName;
    this.sharing = shareKeys == null ? null : new Sharing(budgetName, shareKeys, seal,
        settings.maxAge().toMillis(), System::currentTimeMillis);
    this.settings = settings;
    this.nanoTime = nanoTime;
    this.warnings = warnings;
    this.maxAgeNanos = settings.maxAge().toNanos();
    this.store = new Store(settings.memoryBytes(), maxAgeNanos);
    this.flights = new Flights(maxAgeNanos, waitersPerRead);
    this.fencesOut = sharing == null ? null : new FenceOutbox();
    this.tracker = new Tracker(nanoTime, fencesOut);
    this.catalog = new Catalog(nanoTime);
  }

  /** What answers follow of the statements that pass while limiting: sessions, write fences. */
  public Tracker tracker() {
    return tracker;
  }

  /**
   * What a read's text is ({@link Texts.Shape}), judged at this budget's first sight of it.
   *
   * @param sql the statement's text; {@code null}: not a read
   */
  Texts.Shape text(String sql) {
    return texts.of(sql);
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
    return create(budgetName, settings, nanoTime, warnings, Flights.WAITERS_PER_READ, null, false);
  }

  /**
   * The answers of one budget that share their kept results with the budget's other instances
   * ({@code sluice.stale.share}): the caller carries {@link #nextShared()} to them and what they
   * send to {@link #heard(String)}. Every message is signed with the first of
   * {@code shareKeys} and heard only when signed by one of them ({@link Sharing}).
   *
   * @param budgetName the budget's {@code sluice.name}, for the warning and the signature
   * @param settings the checked settings; answers must be {@link AnswerSettings#on() on}
   * @param nanoTime the clock, as {@code System::nanoTime}
   * @param warnings makes the warning of an answer ({@code StaleResultWarning}'s factory)
   * @param shareKeys {@code sluice.stale.share-key}: keys separated by commas, the first signs
   * @param seal {@code sluice.stale.share-encrypt}: the rows sent are also encrypted
   * @return the answers
   * @throws IllegalArgumentException when a key is too short (saying which, never showing it)
   */
  public static Answers sharing(String budgetName, AnswerSettings settings,
      LongSupplier nanoTime, StaleWarnings warnings, String shareKeys, boolean seal) {
    return create(budgetName, settings, nanoTime, warnings, Flights.WAITERS_PER_READ,
        ShareKeys.of(shareKeys), seal);
  }

  static Answers create(String budgetName, AnswerSettings settings, LongSupplier nanoTime,
      StaleWarnings warnings, int waitersPerRead, ShareKeys shareKeys, boolean seal) {
    if (!settings.on()) {
      throw new IllegalArgumentException("answers are off (sluice.stale.max-age=0)");
    }
    return new Answers(budgetName, settings, nanoTime, warnings, waitersPerRead, shareKeys, seal);
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
    return record(key, live, nanoTime.getAsLong());
  }

  /**
   * As {@link #record(ReadKey, ResultSet)}, for a read that started at {@code startedNanos}: the
   * result is as old as its read's start, for its age and for the write fences ({@link Fences}).
   */
  public Recording record(ReadKey key, ResultSet live, long startedNanos) {
    return record(key, live, startedNanos, Store.ANY);
  }

  /**
   * As {@link #record(ReadKey, ResultSet, long)}, kept only if the kept results are not dropped
   * (limiting stopped) between {@code clears} and the moment the caller has read it all.
   *
   * @param clears {@link #clears()}, read before the caller learned that limiting is on
   */
  public Recording record(ReadKey key, ResultSet live, long startedNanos, long clears) {
    if (key == null) {
      return null;
    }
    try {
      Statement statement = live.getStatement();
      Dialect d = dialect(statement.getConnection());
      d = d == null ? null : d.forStatement(statement);
      if (d == null) {
        return notEligible(Ineligible.TYPE);
      }
      if (live.getType() != ResultSet.TYPE_FORWARD_ONLY
          || live.getConcurrency() != ResultSet.CONCUR_READ_ONLY) {
        return notEligible(Ineligible.STATEMENT);
      }
      Columns columns = Columns.read(live.getMetaData());
      if (!columns.keepable() || !d.answersAll(columns)) {
        return notEligible(Ineligible.TYPE);
      }
      long now = nanoTime.getAsLong();
      return new Recording(landing, settings, key, flights.depart(key, now), columns, d,
          Math.min(now, startedNanos), clears);
    } catch (SQLException | RuntimeException e) {
      return null; // the caller's result is untouched; this one is just not kept
    }
  }

  /**
   * Whether a read may be kept or answered on this connection now, by the database's own
   * knowledge: the session is outside any transaction however it began
   * ({@link Dialect#inTransaction}), and every function the text calls, directly or through a
   * view, is one an answer may stand for ({@link Catalog}). Asked only for a read about to be
   * kept or answered, never on the flag-closed path; with a warm cache, one look-up of the text
   * and the driver's transaction state.
   *
   * @param sql the read's text
   * @param connection the driver's connection (not Sluice's wrapper: the catalog's queries must
   *     not pass the limiter)
   * @return {@code false} for a database without a dialect, and whenever it cannot tell
   *     (counted by its reason, {@link #notEligible})
   */
  public boolean eligible(String sql, Connection connection) {
    return eligible(sql, null, connection, null);
  }

  /**
   * As {@link #eligible(String, Connection)}, for a refused read of {@code key}: where the driver
   * has forgotten the session's transaction state ({@link Dialect#forgotTransaction}) and a kept
   * result could answer the read, the server is asked again, one statement that reads nothing;
   * so each asking stands for an answer, never for a refusal alone.
   *
   * @param key the refused read's key, or {@code null}: the driver is not asked
   * @param session the connection's session, which knows its database's URL
   *     ({@link Session#databaseUrl}); {@code null}: the driver is asked
   */
  boolean eligible(String sql, ReadKey key, Connection connection, Session session) {
    Ineligible why;
    try {
      Dialect d = dialect(connection);
      why = d == null ? Ineligible.TYPE : inTransaction(d, key, connection) ? Ineligible.TRANSACTION
          : catalog.eligible(d, session == null ? connection.getMetaData().getURL()
              : session.databaseUrl(connection), sql, connection) ? null : Ineligible.SIDE_EFFECT;
    } catch (SQLException | RuntimeException e) {
      why = Ineligible.SIDE_EFFECT; // the catalog cannot be read: what the text calls is unknown
    }
    if (why != null) {
      notEligible(why);
    }
    return why == null;
  }

  private boolean inTransaction(Dialect d, ReadKey key, Connection connection)
      throws SQLException {
    if (!d.inTransaction(connection)) {
      return false;
    }
    if (key == null || !d.forgotTransaction(connection)
        || store.get(key, nanoTime.getAsLong()) == null) {
      return true;
    }
    try {
      d.askTransaction(connection);
    } catch (SQLException | RuntimeException e) {
      return true; // unknown: as in a transaction
    }
    return d.inTransaction(connection);
  }

  /**
   * Whether a statement's {@code maxFieldSize} may cut the values the driver returns on this
   * connection ({@link Dialect#truncatesTo}): then its reads are not answered.
   *
   * @param maxFieldSize the statement's {@code getMaxFieldSize()}
   * @param connection the driver's connection
   * @return {@code true} for any size but {@code 0} unless the dialect knows the driver ignores
   *     it, and whenever it cannot tell
   */
  public boolean truncatesTo(int maxFieldSize, Connection connection) {
    if (maxFieldSize == 0) {
      return false;
    }
    try {
      Dialect d = dialect(connection);
      return d == null || d.truncatesTo(maxFieldSize);
    } catch (SQLException | RuntimeException e) {
      return true;
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
      d = dialectOf(database.getDatabaseProductName(), database.getDriverName());
      if (d == MariaDbDialect.INSTANCE) {
        d = MariaDbDialect.of(database); // with or without dates, by the URL's options
      } else if (d == MySqlDialect.TEXT) {
        d = MySqlDialect.of(connection); // by the driver's options; null: nothing kept
      }
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
    return dialectOf(productName, null);
  }

  /**
   * The dialect for a database product and its driver; {@code null}: nothing is kept for it.
   * PostgreSQL and H2 by the product; MariaDB and MySQL by the driver, whose getters differ
   * over the same server: MariaDB Connector/J's {@link MariaDbDialect#INSTANCE}, MySQL
   * Connector/J's {@link MySqlDialect#TEXT} (each then narrowed by the connection's options).
   */
  static Dialect dialectOf(String productName, String driverName) {
    String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
    if (name.contains("postgres")) {
      return PostgresDialect.INSTANCE;
    }
    if (name.equals("h2")) {
      return H2Dialect.INSTANCE;
    }
    String driver = driverName == null ? "" : driverName.toLowerCase(Locale.ROOT);
    if (driver.contains("mariadb")) {
      return MariaDbDialect.INSTANCE;
    }
    return MySqlDialect.isDriver(driverName) ? MySqlDialect.TEXT : null;
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
    return answer(key, caller, priority, null);
  }

  /**
   * As {@link #answer(ReadKey, Statement, Priority)}, to a read of {@code session}: never from a
   * result older than a write that may have changed it ({@link Fences}), nor older than the
   * session's own last write.
   *
   * @param session the caller's session, or {@code null}: no session's own write to respect
   */
  public ResultSet answer(ReadKey key, Statement caller, Priority priority, Session session) {
    if (key == null) {
      return null;
    }
    long now = nanoTime.getAsLong();
    Kept kept = store.get(key, now);
    if (kept != null && (!tracker.admits(kept, session) || !stillHeard(kept)
        || !kept.dialect().serves(caller))) {
      kept = null; // a younger read in flight may still answer it
    }
    boolean join = kept == null;
    if (join) {
      kept = flights.join(key, settings.joinWait().toNanos(), now);
      if (kept == null || !tracker.admits(kept, session) || !kept.dialect().serves(caller)) {
        return null;
      }
    }
    return answered(kept, caller, join, priority.ordinal());
  }

  /**
   * Whether {@code kept}, if another instance's, was heard while this instance has heard the
   * channel without a break until now: otherwise a fence may have been sent that it did not
   * hear. This instance's own results are not asked (one field read for a heard result).
   */
  private boolean stillHeard(Kept kept) {
    return !kept.heard() || kept.heardAtNanos() >= hearingSinceNanos;
  }

  /**
   * Keeps what an admitted {@code set_config} of a custom setting returns, on its session, so
   * that the same call on the same session, changing nothing, may be answered
   * ({@link NoOpSettings}).
   *
   * @param session the caller's session, whose statement was noted
   * @param episode the limiter's episode now
   * @param text what the statement's text is
   * @param sql the statement's text
   * @param parameters its parameters, or {@code null}
   * @param live the driver's result set, just returned
   * @param startedNanos when its statement started
   * @return the recording, or {@code null}: not such a call, or its result cannot be kept
   */
  Recording recordSetting(Session session, long episode, Texts.Shape text, String sql,
      Parameters parameters, ResultSet live, long startedNanos) {
    String[] setting = NoOpSettings.of(text.setConfig(), parameters);
    if (setting == null) {
      return null;
    }
    try {
      Dialect d = dialect(live.getStatement().getConnection());
      return d == null ? null : NoOpSettings.record(session, episode, setting, sql, live, d,
          settings, startedNanos);
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Answers a refused {@code set_config} that would change nothing on the caller's session
   * ({@link NoOpSettings}) with what the same call returned on it; {@code null}: it is not one,
   * and is refused as before. Counted as an answer.
   *
   * @param session the caller's session, outside any transaction the connection knows of
   * @param episode the limiter's episode now
   * @param text what the statement's text is
   * @param sql the statement's text
   * @param parameters its parameters, or {@code null}
   * @param caller the caller's statement, the answer's {@code getStatement()}
   * @param priority the priority the limit refused it at
   * @param connection the driver's connection, whose own transaction state is asked
   */
  ResultSet answerSetting(Session session, long episode, Texts.Shape text, String sql,
      Parameters parameters, Statement caller, Priority priority, Connection connection) {
    String[] setting = NoOpSettings.of(text.setConfig(), parameters);
    if (setting == null || session.textTransaction) {
      return null;
    }
    Kept kept = session.noOp(episode, setting[0], setting[1], sql);
    try {
      Dialect d = kept == null ? null : dialect(connection);
      return d == null || d.inTransaction(connection) ? null
          : answered(kept, caller, false, priority.ordinal());
    } catch (SQLException | RuntimeException e) {
      return null;
    }
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
    return new AnsweredResultSet(kept, kept.dialect(), caller, warnings, budgetName, ageMillis,
        join);
  }

  /**
   * How old an answer of {@link #answer} was when it answered, in ms; {@code -1} for any other
   * result set.
   */
  public static long ageMillis(ResultSet answer) {
    return answer instanceof AnsweredResultSet a ? a.ageMillis : -1;
  }

  /** Whether an answer of {@link #answer} joined an identical read in flight. */
  public static boolean joined(ResultSet answer) {
    return answer instanceof AnsweredResultSet a && a.joined;
  }

  /**
   * Counts a read neither kept nor answered, for {@code why}. Called only while answering
   * (limiting, answers on): by the connection's side for what it sees (a transaction, a
   * statement, a session), and here for the rest.
   *
   * @param why the reason
   * @return {@code null}, for the caller to return
   */
  public <T> T notEligible(Ineligible why) {
    counts.notEligible(why);
    return null;
  }

  /** {@link #notEligible(Ineligible)} as a function, for {@link ReadKey#of}: made once. */
  public java.util.function.Consumer<Ineligible> ineligibleCounter() {
    return ineligibleCounter;
  }

  /**
   * Reads neither kept nor answered for {@code reason}, since this budget was built.
   *
   * @param reason a word of {@link Ineligible#words()}
   * @return the count; {@code 0} for a word that names no reason
   */
  public long notEligible(String reason) {
    Ineligible why = Ineligible.of(reason);
    return why == null ? 0 : counts.notEligibleCount(why);
  }

  /**
   * How many times the kept results were dropped: read by a read about to be recorded before it
   * asks whether limiting is on, so that a stop after the read began keeps its result out.
   *
   * @return the count
   */
  public long clears() {
    return store.clears();
  }

  /** Drops every kept result: when limiting ends, and on {@code close()}. */
  public void clear() {
    store.clear();
  }

  /**
   * Whether limiting started and has not stopped since ({@link #limitingStarted()},
   * {@link #limitingStopped()}): until then nothing is recorded, and a statement records no
   * parameters.
   *
   * @return the hint
   */
  public boolean active() {
    return active;
  }

  /**
   * A read was refused (recording began already: the limiter told {@link #limitingStarted()}
   * first). With sharing, the first refusal learns the {@link Sharing#environment} from the
   * caller's connection, so that what other instances send is heard before this one has kept
   * anything.
   *
   * @param caller the refused read's statement; {@code null}: none to learn from
   */
  public void refused(Statement caller) {
    if (sharing != null && environment == null && caller != null) {
      learnEnvironment(caller);
    }
  }

  /**
   * Limiting started, told once by the limiter's recovery hold: recording begins. When the flag
   * opens (and Sluice enforces) that is at once, before any refusal: limiting's first reads,
   * admitted by the burst, are the first results kept. With no breaker flag
   * ({@code sluice.flag=always}) it is told at the first refusal; in shadow mode, never.
   */
  public void limitingStarted() {
    if (!active) {
      active = true;
    }
  }

  /**
   * Limiting stopped (or the budget closed), told once by the limiter's recovery hold, the one
   * place kept results are dropped while the budget lives.
   */
  public void limitingStopped() {
    if (active) {
      active = false;
    }
    store.clear(); // empty or not: a read still being recorded is kept out (clears())
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

  /**
   * Keeps a result this instance read, and queues it for the other instances: the queue holds
   * its slot, not the result, so a result evicted before it is sent is let go, not held.
   */
  void kept(Kept kept) {
    kept(kept, Store.ANY);
  }

  /** As {@link #kept(Kept)}, unless the store was cleared since the read began ({@code clears}). */
  private void kept(Kept kept, long clears) {
    Store.Slot slot = store.put(kept, nanoTime.getAsLong(), clears);
    if (sharing != null && slot != null) {
      sharing.offer(slot);
    }
  }

  /** Where this budget's recordings land: the store, and the reads waiting for them. */
  private final class Landing implements Recording.Landing {
    @Override
    public void keep(Recording recording) {
      Kept kept = recording.toKept();
      kept(kept, recording.clears());
      land(recording, kept);
    }

    @Override
    public void drop(Recording recording) {
      notEligible(recording.why());
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
    if (sharing == null) {
      return null;
    }
    String fences = sharing.fence(fencesOut, environment);
    return fences != null ? fences
        : sharing.next(environment, nanoTime, kept -> tracker.admits(kept, null));
  }

  /**
   * A message of {@link #nextShared()} that Redis did not take: its write fences wait for the
   * next message again (a fence late is better than none); kept results are dropped, as a
   * result worth sharing is a recent one. Called by the sending thread, after it stopped taking
   * messages for the tick.
   *
   * @param message as {@link #nextShared()} made it
   */
  public void unsent(String message) {
    if (fencesOut == null || !Sharing.isFence(message)) {
      return;
    }
    String[] parts = message.split(" ");
    for (int i = 6; i < parts.length - 1; i++) {
      fencesOut.wrote(parts[i].equals("*") ? null : new String[] {new String(
          java.util.Base64.getDecoder().decode(parts[i]), java.nio.charset.StandardCharsets.UTF_8)});
    }
  }

  /**
   * Whether the channel is heard now: {@code true} when Redis confirmed the subscription,
   * {@code false} when it was lost — also when it went silent for {@code sluice.redis.ping} plus
   * {@code sluice.redis.timeout} (the subscriber's read timeout: a live subscription hears a
   * pong every {@code sluice.redis.ping}). While it is not heard, and afterwards for every
   * result heard before, only this instance's own results are answered: a fence another
   * instance sent meanwhile was not heard. Called by the subscriber's thread.
   *
   * @param live whether the subscription is confirmed
   */
  public void channelHeard(boolean live) {
    hearingSinceNanos = live ? nanoTime.getAsLong() : Long.MAX_VALUE;
  }

  /**
   * Keeps a result another instance sent, while this one is limiting and the result is younger
   * than {@code max-age} here; never replaces a younger result. Called by the subscriber's
   * thread; reads the {@link #active()} hint as the request path does, and a result heard as
   * limiting ends is kept out by the store's count of clears ({@link #clears()}).
   *
   * @param message as {@link #nextShared()} made it on the other instance
   * @return why the message was dropped, a word of {@link #sharedDropReasons()} (counted);
   *     {@code null} when it was heard, was this instance's own, or came while not limiting
   */
  public String heard(String message) {
    if (sharing == null) {
      return null;
    }
    long clears = store.clears(); // first: a stop from here on drops what this message keeps
    if (!active && !Sharing.isFence(message)) {
      return null; // fences are applied while not limiting too: a write changes the data
    }
    long now = nanoTime.getAsLong();
    Sharing.Drop why = sharing.read(message, environment, now, kept -> {
      if (now - kept.keptAtNanos() < maxAgeNanos) {
        store.putUnlessYounger(kept.asHeard(now), now, clears);
      }
    }, tracker::fenceHeard);
    return why == null ? null : why.word();
  }

  /** Results this instance sent to the other instances ({@code 0} when not sharing). */
  public long sharedSent() {
    return sharing == null ? 0 : sharing.sent();
  }

  /** Messages of write fences this instance sent to the others ({@code 0} when not sharing). */
  public long sharedFencesSent() {
    return sharing == null ? 0 : sharing.fencesSent();
  }

  /** Messages of write fences heard from the other instances and applied here. */
  public long sharedFencesHeard() {
    return sharing == null ? 0 : sharing.fencesHeard();
  }

  /** Results heard from the other instances, signed and young enough. */
  public long sharedHeard() {
    return sharing == null ? 0 : sharing.heard();
  }

  /** Results kept but not sent: the outbox was full, or a value the codec does not carry. */
  public long sharedUnsent() {
    return sharing == null ? 0 : sharing.unshared();
  }

  /**
   * Messages heard and dropped for {@code reason} ({@code undecodable}: results), since this
   * budget was built; {@code 0} for a word that names no reason.
   *
   * @param reason a word of {@link #sharedDropReasons()}
   */
  public long sharedDropped(String reason) {
    Sharing.Drop why = Sharing.reason(reason);
    return sharing == null || why == null ? 0 : sharing.dropped(why);
  }

  /** The words of the reasons a heard message is dropped, in a fixed order. */
  public static java.util.List<String> sharedDropReasons() {
    return DROP_REASONS;
  }

  private static final java.util.List<String> DROP_REASONS =
      java.util.Arrays.stream(Sharing.Drop.values()).map(Sharing.Drop::word).toList();

  /**
   * Readies the encoding and decoding of shared results ({@link KeptCodec#warmUp}): called once
   * by the sending thread when sharing starts, off every request path.
   */
  public void warmUpSharing() {
    KeptCodec.warmUp(WARM_UP_ROUNDS);
    if (sharing != null) {
      sharing.warmUp(); // the JDK's cryptography loads on first use: not at an outage's start
    }
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
