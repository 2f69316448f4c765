package dev.sluice.internal.answer;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What answers follow of the statements that pass through while limiting: each session's state
 * ({@link Session}, the key's fingerprint) and the writes ({@link Fences}). A statement admitted
 * while limiting is noted when it starts ({@link #started}: what it does, read from its text)
 * and applied when it ends ({@link #ended}: a setting joins the session once it ran; a write
 * fences its tables once it ended). Nothing here runs while not limiting: the connection's
 * door marks only a limiting statement to be noted.
 *
 * <p>Threadsafe: the sessions and fences are; a session's own notes are confined to the thread
 * using its connection.
 */
public final class Tracker {
  private final Sessions sessions = new Sessions();
  private final Fences fences = new Fences();
  private final LongSupplier nanoTime;
  /** The sessions are MariaDB's or MySQL's Connector/J's: statements read as MySQL reads them. */
  private volatile boolean mysql;
  /** Where the fences wait to travel to the other instances; {@code null}: not shared. */
  private final FenceOutbox outgoing;

  Tracker(LongSupplier nanoTime) {
    this(nanoTime, null);
  }

  Tracker(LongSupplier nanoTime, FenceOutbox outgoing) {
    this.nanoTime = nanoTime;
    this.outgoing = outgoing;
  }

  /**
   * The session of a connection, by its physical connection.
   *
   * @param delegate the connection Sluice wraps (the pool's or the driver's)
   * @return its session, made on first sight
   */
  public Session session(Connection delegate) {
    return sessions.of(delegate);
  }

  /**
   * A statement admitted while limiting starts: notes what it will do.
   *
   * @param session its connection's session
   * @param sql its text; {@code null}: unknown (a batch)
   * @param parameters a prepared statement's parameters, or {@code null}
   */
  public void started(Session session, String sql, Parameters parameters) {
    SessionText.Effect effect = mysql ? MariaDbText.classify(sql) : SessionText.classify(sql);
    if ((effect.kind == SessionText.Effect.Kind.READ
        || effect.kind == SessionText.Effect.Kind.WRITE)
        && SessionText.callsAny(sql, fences.catalog().writingFunctions)) {
      effect = SessionText.Effect.UNKNOWN; // the application's VOLATILE function: anything
    }
    session.noted = effect;
    session.notedName = effect.name;
    session.notedValue = effect.value;
    if (effect.kind == SessionText.Effect.Kind.SET) {
      resolve(session, effect, parameters);
    }
    session.startedNanos = nanoTime.getAsLong();
  }

  /** A {@code set_config(?, ?, ?)}: its arguments as the database was sent them. */
  private static void resolve(Session session, SessionText.Effect effect, Parameters p) {
    if (effect.nameParameter > 0) {
      Object name = p == null ? null : p.valueAt(effect.nameParameter);
      session.notedName = name instanceof String n ? n.toLowerCase(java.util.Locale.ROOT) : null;
    }
    if (effect.valueParameter > 0) {
      Object value = p == null ? null : p.valueAt(effect.valueParameter);
      session.notedValue = value instanceof String v ? v : null;
    }
    if (effect.localParameter > 0) {
      Object local = p == null ? null : p.valueAt(effect.localParameter);
      if (!Boolean.FALSE.equals(local)) {
        session.notedName = null; // is_local: the transaction's own, or unknown
      }
    }
  }

  /**
   * The statement noted by {@link #started} has returned or thrown: applies it.
   *
   * @param session its connection's session
   * @param episode the limiter's episode now
   * @param autoCommit whether the connection is in auto-commit, outside any transaction
   * @param failed whether it threw
   */
  public void ended(Session session, long episode, boolean autoCommit, boolean failed) {
    SessionText.Effect e = session.noted;
    if (e == null) {
      return;
    }
    session.noted = null;
    boolean inTransaction = !autoCommit || session.textTransaction;
    switch (e.kind) {
      case READ, NEUTRAL -> { }
      case BEGIN -> session.textTransaction = !failed || session.textTransaction;
      case END -> {
        session.textTransaction = false;
        transactionEnded(session);
      }
      case SET -> {
        if (failed || inTransaction || session.notedName == null || session.notedValue == null) {
          session.unknown();
        } else {
          // tagged by how it was set: SET's text and set_config's value never look alike
          session.set(episode, session.notedName,
              (e.config ? Session.BY_SET_CONFIG : "by SET to ") + session.notedValue);
        }
      }
      case SESSION_UNKNOWN -> session.unknown();
      case WRITE -> {
        if (reachesOthers(e.tables)) {
          session.unknown(); // a trigger or a rule may change the session (set_config)
        }
        wrote(session, e.tables, inTransaction);
      }
      case UNKNOWN -> {
        session.unknown();
        wrote(session, null, inTransaction);
      }
      default -> throw new IllegalStateException("unexpected " + e);
    }
  }

  /**
   * Whether a write of {@code tables} runs more than it says, by the catalog Sluice read:
   * triggers, rules, cascades ({@link TableReach}). An unknown catalog (H2's) says none.
   */
  private boolean reachesOthers(String[] tables) {
    TableReach c = fences.catalog();
    if (!c.known) {
      return false;
    }
    for (String table : tables) {
      if (c.writesReach.contains(table)) {
        return true;
      }
    }
    return false;
  }

  /** A write ended now: its tables fenced; in a transaction, again when the transaction ends. */
  private void wrote(Session session, String[] tables, boolean inTransaction) {
    long now = nanoTime.getAsLong();
    fence(tables, now);
    session.wrote(now);
    if (inTransaction) {
      if (tables == null) {
        session.pendingAll = true;
      } else {
        String[] pending = session.pendingTables;
        session.pendingTables = pending == null ? tables.clone() : concat(pending, tables);
      }
    }
  }

  /** Fences {@code tables} ({@code null}: all) here, and queues them for the other instances. */
  private void fence(String[] tables, long now) {
    fences.wrote(tables, now);
    if (outgoing != null) {
      outgoing.wrote(FenceOutbox.reach(tables, fences.catalog()));
    }
  }

  /**
   * Applies a fence another instance sent ({@code sluice.stale.share}): as a write of
   * {@code tables} ({@code null}: every table) that ended now — no earlier, since the write's
   * time on the other instance means nothing on this clock, and when it was heard it had ended.
   * Called by the subscriber's thread.
   *
   * @param tables the tables the other instance fenced, {@code null}: all
   */
  void fenceHeard(String[] tables) {
    fences.wrote(tables, nanoTime.getAsLong());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  /**
   * The session's transaction ended (commit, rollback, a switch to auto-commit): what it wrote
   * is fenced again, now that others may see it.
   *
   * @param session the connection's session
   */
  public void transactionEnded(Session session) {
    if (session.pendingAll || session.pendingTables != null) {
      long now = nanoTime.getAsLong();
      fence(session.pendingAll ? null : session.pendingTables, now);
      session.wrote(now);
      session.pendingAll = false;
      session.pendingTables = null;
    }
  }

  /**
   * The session's fingerprint in {@code episode}; if it is not known, read from the database
   * first ({@link SessionBase}) on {@code readFrom} — by a query only when {@code mayQuery}
   * (an admitted read's connection; never a refused read's: the database is not asked more than
   * its budget).
   *
   * @param session the session
   * @param episode the limiter's episode, read before
   * @param readFrom the driver's connection of the session
   * @param mayQuery whether a query may read it
   * @return the fingerprint, or {@code null}: the session is not known, its reads neither
   *     answered nor kept
   */
  public String fingerprint(Session session, long episode, Connection readFrom,
      boolean mayQuery) {
    String f = session.fingerprint(episode);
    if (f != null) {
      return f;
    }
    SessionBase.Base base;
    try {
      base = SessionBase.read(readFrom, mayQuery);
    } catch (SQLException | RuntimeException e) {
      return null;
    }
    if (base == null) {
      return null;
    }
    if (!mysql && (MariaDbDialect.isDriverOf(readFrom) || MySqlDialect.isDriverOf(readFrom))) {
      mysql = true;
    }
    fences.learn(base.catalog());
    session.known(episode, base.digest());
    return session.fingerprint(episode);
  }

  /** Whether {@code kept} may be answered to a read of {@code session} ({@link Fences}). */
  boolean admits(Kept kept, Session session) {
    return fences.admits(kept, session);
  }

  /** How many sessions are followed (for tests). */
  int sessions() {
    return sessions.size();
  }

  /**
   * The sessions of one budget, one per physical connection, held weakly: a connection the pool
   * closes and drops takes its session with it. The physical connection is the one the driver
   * made ({@code unwrap(Connection.class)} of what the pool lends: HikariCP gives its delegate), so
   * that in decorator mode every checkout of one pooled connection finds the same session.
   *
   * <p>Threadsafe, no lock: a {@link ConcurrentHashMap} keyed by identity; a lookup allocates
   * nothing (a probe per thread).
   */
  static final class Sessions {
    /** A lookup key per thread, so that finding a session allocates nothing. */
    private static final ThreadLocal<Probe> PROBE = ThreadLocal.withInitial(Probe::new);
    private final ConcurrentHashMap<Object, Session> byConnection = new ConcurrentHashMap<>();
    private final ReferenceQueue<Object> gone = new ReferenceQueue<>();

    /** The session of {@code connection}'s physical connection, made on first sight. */
    Session of(Connection connection) {
      Object physical = physical(connection);
      Probe probe = PROBE.get();
      probe.target = physical;
      probe.hash = System.identityHashCode(physical);
      Session s = byConnection.get(probe);
      probe.target = null;
      if (s != null) {
        return s;
      }
      expunge();
      return byConnection.computeIfAbsent(new Key(physical, gone), k -> new Session());
    }

    int size() {
      return byConnection.size();
    }

    private static Object physical(Connection connection) {
      try {
        Connection inner = connection.unwrap(Connection.class);
        return inner == null ? connection : inner;
      } catch (Exception e) {
        return connection;
      }
    }

    private void expunge() {
      for (Object k = gone.poll(); k != null; k = gone.poll()) {
        byConnection.remove(k);
      }
    }

    /** A physical connection looked for: equal to the {@link Key} of the same connection. */
    private static final class Probe {
      Object target;
      int hash;

      @Override
      public boolean equals(Object o) {
        return o instanceof Key k && target != null && target == k.get();
      }

      @Override
      public int hashCode() {
        return hash;
      }
    }

    /** A physical connection, weakly, equal by identity. */
    private static final class Key extends WeakReference<Object> {
      private final int hash;

      Key(Object referent, ReferenceQueue<Object> queue) {
        super(referent, queue);
        this.hash = System.identityHashCode(referent);
      }

      @Override
      public boolean equals(Object o) {
        if (this == o) {
          return true;
        }
        Object mine = get();
        return mine != null && (o instanceof Key k ? mine == k.get()
            : o instanceof Probe p && mine == p.target);
      }

      @Override
      public int hashCode() {
        return hash;
      }
    }
  }
}
