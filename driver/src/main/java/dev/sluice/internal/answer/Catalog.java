package dev.sluice.internal.answer;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether a read's text calls only what an answer may stand for, by the database's own
 * knowledge: the names it calls and mentions ({@link Calls}), judged by the dialect from the
 * catalog ({@link Dialect#judgeFunctions}); a name that is a view is judged by its definition
 * ({@link Dialect#views}), and a stored function whose declaration the database does not hold it
 * to by its body ({@link Dialect#functionBodies}), each read as a read's text is, through at most
 * {@link #MAX_DEPTH} views and functions.
 *
 * <p>Verdicts are cached per database (its JDBC URL), per text and per name for
 * {@link #TTL_NANOS} (one second), failures too, in caches of at most {@link #MAX_ENTRIES} each
 * (emptied when full): a warm read costs one look-up of its text, and a new name at most two
 * catalog queries a second, on the caller's own connection, only while limiting. One caller judges
 * a text at a time; at its first sight the others wait at most {@link #FIRST_SIGHT_WAIT_MILLIS} ms
 * for that verdict, and later they take the verdict it replaces, so a verdict is at most a second
 * and one catalog query old.
 *
 * <p>This class is threadsafe: concurrent maps; two texts' first sights of one name may both ask.
 * The long form: docs/answers.md#a-read-by-the-databases-own-knowledge ("Cached, and how long").
 */
final class Catalog {
  static final long TTL_NANOS = 1_000_000_000L;
  static final int MAX_ENTRIES = 8_192;
  /** How long a caller waits for another's first judgement of a text. */
  static final long FIRST_SIGHT_WAIT_MILLIS = 200;
  /** Views read through views: deeper is ineligible. */
  static final int MAX_DEPTH = 8;

  private final LongSupplier nanoTime;
  private final ConcurrentHashMap<String, Database> databases = new ConcurrentHashMap<>();

  Catalog(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /**
   * A verdict and when it was reached; {@code judged}, while a caller is judging the text at its
   * first sight, counted down when it is judged; {@code judging}: a caller is judging it now,
   * and {@code eligible} is the verdict it replaces.
   */
  private record Verdict(boolean eligible, long atNanos, boolean judging, CountDownLatch judged) {
    Verdict(boolean eligible, long atNanos) {
      this(eligible, atNanos, false, null);
    }
  }

  /** One database's verdicts. */
  private static final class Database {
    final ConcurrentHashMap<String, Verdict> texts = new ConcurrentHashMap<>();
    final ConcurrentHashMap<String, Verdict> functions = new ConcurrentHashMap<>();
    final ConcurrentHashMap<String, Verdict> relations = new ConcurrentHashMap<>();
  }

  /**
   * Whether the read {@code sql} calls only eligible functions, directly or through a view.
   *
   * @param dialect the database's dialect
   * @param database the database's identity (its URL): verdicts are its own
   * @param sql the read's text
   * @param connection the caller's connection to the database (the driver's), for the catalog
   */
  boolean eligible(Dialect dialect, String database, String sql, Connection connection) {
    Database db = databases.get(database);
    if (db == null) {
      db = databases.computeIfAbsent(database, d -> new Database());
    }
    long now = nanoTime.getAsLong();
    Verdict v = db.texts.get(sql);
    if (v != null && now - v.atNanos() < TTL_NANOS) {
      return v.judged() != null ? awaitFirst(db, sql, v) : v.eligible();
    }
    Verdict claim = new Verdict(v != null && v.eligible(), now, true,
        v == null ? new CountDownLatch(1) : null);
    if (v == null) {
      if (db.texts.size() >= MAX_ENTRIES) {
        db.texts.clear();
      }
      Verdict other = db.texts.putIfAbsent(sql, claim);
      if (other != null) {
        return other.judged() != null ? awaitFirst(db, sql, other) : other.eligible();
      }
    } else if (!db.texts.replace(sql, v, claim)) {
      return v.eligible(); // another caller is judging it again: the verdict it replaces
    }
    boolean eligible = false; // the catalog could not be read: nothing is eligible for a while
    try {
      eligible = judge(dialect, db, sql, connection, now);
    } catch (SQLException | RuntimeException e) {
      // cached below like a verdict
    } finally {
      db.texts.put(sql, new Verdict(eligible, now));
      if (claim.judged() != null) {
        claim.judged().countDown();
      }
    }
    return eligible;
  }

  /**
   * Another caller judges the text at its first sight: waits for its verdict, at most
   * {@link #FIRST_SIGHT_WAIT_MILLIS}, asking nothing of the database; not judged by then, not
   * eligible.
   */
  private static boolean awaitFirst(Database db, String sql, Verdict pending) {
    try {
      if (!pending.judged().await(FIRST_SIGHT_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
        return false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    Verdict v = db.texts.get(sql);
    return v != null && v.judged() == null && v.eligible();
  }

  private static boolean judge(Dialect dialect, Database db, String sql, Connection connection,
      long now) throws SQLException {
    return ReadText.isRead(sql, dialect.syntax())
        && judgeText(dialect, db, sql, connection, now, 0);
  }

  /** A read's text, or a view's definition {@code depth} views down. */
  private static boolean judgeText(Dialect dialect, Database db, String sql,
      Connection connection, long now, int depth) throws SQLException {
    if (depth > MAX_DEPTH) {
      return false;
    }
    Calls calls = Calls.of(sql, dialect.syntax(), dialect.foldsToUpper());
    return calls.placeable()
        && functionsEligible(dialect, db, calls.functions(), connection, now, depth)
        && relationsEligible(dialect, db, calls.names(), connection, now, depth);
  }

  /**
   * Whether every function is eligible, asking the catalog once for those not known now: by its
   * declaration, and where the dialect gives one, by its body.
   */
  private static boolean functionsEligible(Dialect dialect, Database db, Set<String> names,
      Connection connection, long now, int depth) throws SQLException {
    Set<String> unknown = unknown(db.functions, names, now);
    if (unknown == null) {
      return false;
    }
    if (unknown.isEmpty()) {
      return true;
    }
    Map<String, Boolean> verdicts = new HashMap<>();
    dialect.judgeFunctions(connection, unknown, verdicts);
    Map<String, List<String>> bodies = dialect.functionBodies(connection, unknown);
    boolean all = true;
    for (String name : unknown) {
      boolean eligible = Boolean.TRUE.equals(verdicts.get(name));
      for (String body : eligible ? bodies.getOrDefault(name, List.of()) : List.<String>of()) {
        eligible &= judgeText(dialect, db, body, connection, now, depth + 1);
      }
      put(db.functions, name, new Verdict(eligible, now));
      all &= eligible;
    }
    return all;
  }

  /** Whether no name is a view that calls what is not eligible, through the views it reads. */
  private static boolean relationsEligible(Dialect dialect, Database db, Set<String> names,
      Connection connection, long now, int depth) throws SQLException {
    Set<String> unknown = unknown(db.relations, names, now);
    if (unknown == null) {
      return false;
    }
    if (unknown.isEmpty()) {
      return true;
    }
    Map<String, List<String>> views = dialect.views(connection, unknown);
    boolean all = true;
    for (String name : unknown) {
      boolean eligible = true;
      for (String definition : views.getOrDefault(name, List.of())) {
        eligible &= judgeText(dialect, db, definition, connection, now, depth + 1);
      }
      put(db.relations, name, new Verdict(eligible, now));
      all &= eligible;
    }
    return all;
  }

  /**
   * The names whose verdict is not known now (empty: all known and eligible), or {@code null}
   * when a known verdict refuses one.
   */
  private static Set<String> unknown(ConcurrentHashMap<String, Verdict> cache, Set<String> names,
      long now) {
    Set<String> unknown = Set.of();
    for (String name : names) {
      Verdict v = cache.get(name);
      if (v == null || now - v.atNanos() >= TTL_NANOS) {
        if (unknown.isEmpty()) {
          unknown = new HashSet<>();
        }
        unknown.add(name);
      } else if (!v.eligible()) {
        return null;
      }
    }
    return unknown;
  }

  private static void put(ConcurrentHashMap<String, Verdict> cache, String key, Verdict v) {
    if (cache.size() >= MAX_ENTRIES) {
      cache.clear();
    }
    cache.put(key, v);
  }
}
