package dev.sluice.internal.answer;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One physical session of the database as answers know it: what its reads see (its
 * {@link #fingerprint}, part of each key), its own last write, and what it wrote in the transaction
 * now open. Kept per physical connection ({@link Tracker.Sessions}), so a pooled connection keeps
 * its session across checkouts, as the database does.
 *
 * <p>A session is known from the moment Sluice reads it from the database ({@link SessionBase})
 * until the episode of limiting ends (the statements that ran while not limiting were not seen),
 * or a statement changes it in a way Sluice cannot read: then it is unknown — none of its reads
 * is answered nor kept — until it is read again, at its next admitted read. A {@code SET} or
 * {@code set_config} Sluice reads joins the fingerprint as its text says, after the statement
 * succeeded outside a transaction (a transaction's change may be rolled back: unknown).
 *
 * <p>Thread-safety: the fingerprint and the last write are volatile (a refused read of another
 * thread never reads this session's, but a pool hands the connection over); the rest is confined
 * to the thread using the connection, as the connection is.
 */
public final class Session {
  /** What Sluice knows of the session, for one episode. Immutable. */
  private record Known(long episode, String base, Map<String, String> changes,
      String fingerprint, Map<String, Kept> returned) {}

  /** The most characters a server setting's changes take in the fingerprint; beyond, unknown. */
  static final int MAX_CHANGES_CHARS = 1_024;

  /** How a change made by {@code set_config} is told in {@link #set}'s value. */
  static final String BY_SET_CONFIG = "by set_config to ";

  private volatile Known known;
  private volatile long lastWriteNanos = Long.MIN_VALUE;
  // confined to the thread using the connection
  /** A transaction begun as text ({@code BEGIN}) is open. */
  boolean textTransaction;
  /** The tables written in the open transaction ({@code null}: none), fenced again at its end. */
  String[] pendingTables;
  /** Whether the open transaction wrote tables Sluice could not name. */
  boolean pendingAll;
  /** What the statement now running does; set when it starts, read when it ends. */
  SessionText.Effect noted;
  /** The setting and value of a noted {@code set_config} whose arguments were parameters. */
  String notedName;
  String notedValue;
  /** When the statement now running started (the answers' clock); {@link #NONE}: none yet. */
  long startedNanos = NONE;
  /** {@link #startedNanos()} of a session none of whose statements was noted. */
  public static final long NONE = Long.MIN_VALUE;
  /** Its database's URL, as the driver said at the first asking ({@link #databaseUrl}). */
  private String databaseUrl;

  Session() {}

  /**
   * The URL of the database the session is of, which the catalog's verdicts are kept by: asked
   * of the driver once per session, as most drivers make a new {@code DatabaseMetaData} at each
   * {@code getMetaData()}. A race asks twice and finds the same.
   *
   * @param physical the session's connection (the driver's)
   */
  String databaseUrl(java.sql.Connection physical) throws java.sql.SQLException {
    String url = databaseUrl;
    if (url == null) {
      url = physical.getMetaData().getURL();
      databaseUrl = url;
    }
    return url;
  }

  /**
   * The session's identity for the keys of its reads in {@code episode}, or {@code null}: not
   * known now (never read, read in another episode, or changed in a way Sluice could not read).
   */
  public String fingerprint(long episode) {
    Known k = known;
    return k != null && k.episode == episode ? k.fingerprint : null;
  }

  /** Read from the database ({@link SessionBase}) during {@code episode}. */
  void known(long episode, String base) {
    known = new Known(episode, base, Map.of(), base, Map.of());
  }

  /** Changed in a way Sluice cannot read: unknown until read again. */
  public void unknown() {
    if (known != null) {
      known = null;
    }
  }

  /** A setting changed as {@code SET name = value} or {@code set_config} says, after it ran. */
  void set(long episode, String name, String value) {
    Known k = known;
    if (k == null || k.episode != episode) {
      return; // read again at its next admitted read, the change with it
    }
    // A custom setting (a dotted name) is replaced whole. A server setting may be set in part
    // (DateStyle's 'ISO' keeps the field order, 'DMY' the style): its changes are kept in
    // order, so sessions whose last SET reads the same but whose states differ stay apart.
    String previous = k.changes.get(name);
    String changed = previous == null || name.indexOf('.') >= 0 ? value
        : previous + " then " + value;
    if (changed.length() > MAX_CHANGES_CHARS) {
      unknown(); // read again at its next admitted read
      return;
    }
    TreeMap<String, String> changes = new TreeMap<>(k.changes);
    changes.put(name, changed);
    StringBuilder f = new StringBuilder(k.base);
    changes.forEach((n, v) -> f.append('\n').append(n).append(" set ").append(v));
    Map<String, Kept> returned = k.returned;
    if (returned.containsKey(name) && !value.equals(k.changes.get(name))) {
      returned = new HashMap<>(returned);
      returned.remove(name);
      returned = Map.copyOf(returned);
    }
    known = new Known(episode, k.base, Map.copyOf(changes), f.toString(), returned);
  }

  /**
   * What {@code set_config(name, value, false)} returned on this session ({@link NoOpSettings}),
   * kept once it ran: only while the session holds {@code name} set to {@code value} by
   * {@code set_config} in {@code episode}.
   */
  void returned(long episode, String name, String value, Kept result) {
    Known k = known;
    if (k == null || k.episode != episode || !(BY_SET_CONFIG + value).equals(k.changes.get(name))) {
      return;
    }
    Map<String, Kept> returned = new HashMap<>(k.returned);
    returned.put(name, result);
    known = new Known(episode, k.base, k.changes, k.fingerprint, Map.copyOf(returned));
  }

  /**
   * The result of {@code sql}, a {@code set_config(name, value, false)}, when running it now
   * would change nothing: the session is known in {@code episode} and holds {@code name} set to
   * exactly {@code value} by {@code set_config} since it was read, and the same text returned
   * {@code value} on it when it ran; else {@code null}.
   */
  Kept noOp(long episode, String name, String value, String sql) {
    Known k = known;
    if (k == null || k.episode != episode) {
      return null;
    }
    Kept result = k.returned.get(name);
    return result != null && (BY_SET_CONFIG + value).equals(k.changes.get(name))
        && result.key().sql().equals(sql) && value.equals(result.text(0, 1)) ? result : null;
  }

  /**
   * When the statement last noted on this session started ({@link #NONE}: none noted): a read
   * recorded now started then.
   */
  public long startedNanos() {
    return startedNanos;
  }

  /** The session wrote at {@code nanos}: none of its reads is answered a result older. */
  void wrote(long nanos) {
    lastWriteNanos = nanos;
  }

  long lastWriteNanos() {
    return lastWriteNanos;
  }
}
