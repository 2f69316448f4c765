package dev.sluice.internal.answer;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Write fences, for read-your-writes: after a write passes through this instance, no result
 * kept before it that may read a written table is answered — to the writer nor to anyone.
 * A result's time is when its read started ({@link Kept#keptAtNanos()}), a fence's when its
 * write ended (and again when its transaction ended): a read that began before the write ended
 * may have seen the table as before.
 *
 * <p>Which tables a write writes is read from its text ({@link SessionText}); when unsure (a
 * call, a function of the application's own, DDL, a table whose writes reach others through a
 * trigger, a rule, a cascading key or a partition — {@link TableReach}) it fences every table. A
 * kept read may read a table when its text names it, and every table when it names a view, a
 * foreign table, a table with row-level security or a function of the application's own, or
 * when the catalog is unknown. A session is never answered a result older than its own last
 * write, whatever it wrote ({@link Session}).
 *
 * <p>The check costs one volatile read while no table was written since the result's read
 * began; else one lookup per word of the result's text. Threadsafe, no lock.
 */
final class Fences {
  /** The most tables fenced by name; beyond, all are fenced at once and the names forgotten. */
  static final int MAX_TABLES = 10_000;
  private final ConcurrentHashMap<String, Long> tables = new ConcurrentHashMap<>();
  /** The last write to tables Sluice could not name: fences every read. */
  private volatile long all = Long.MIN_VALUE;
  /** The latest fence of any table: a result younger than it needs no look at the names. */
  private volatile long latest = Long.MIN_VALUE;
  private volatile TableReach catalog = TableReach.UNKNOWN;

  /** Learns the catalog of a session's database (joined with those already known). */
  void learn(TableReach learned) {
    TableReach c = catalog;
    TableReach joined = c.with(learned);
    if (joined != c) {
      catalog = joined;
    }
  }

  TableReach catalog() {
    return catalog;
  }

  /**
   * A write ended at {@code nanos}: {@code written} named ({@code null}: unknown tables).
   * Tables whose writes reach others, or any table while the catalog is unknown, fence all.
   */
  void wrote(String[] written, long nanos) {
    TableReach c = catalog;
    if (written == null || !c.known || tables.size() > MAX_TABLES) {
      fenceAll(nanos);
      return;
    }
    for (String table : written) {
      if (c.writesReach.contains(table)) {
        fenceAll(nanos);
        return;
      }
    }
    for (String table : written) {
      tables.merge(table, nanos, Math::max);
    }
    if (latest < nanos) {
      latest = nanos;
    }
  }

  private void fenceAll(long nanos) {
    if (all < nanos) {
      all = nanos;
    }
    if (latest < nanos) {
      latest = nanos;
    }
    if (tables.size() > MAX_TABLES) {
      tables.clear();
    }
  }

  /** Whether {@code kept} may be answered to {@code session} ({@code null}: no session check). */
  boolean admits(Kept kept, Session session) {
    long started = kept.keptAtNanos();
    if (session != null && started <= session.lastWriteNanos()) {
      return false;
    }
    if (started > latest) {
      return true; // nothing written since the read began
    }
    if (started <= all) {
      return false;
    }
    List<String> words = kept.key().words();
    TableReach c = catalog;
    if (words == null || !c.known) {
      return false;
    }
    for (String word : words) {
      if (c.readsOthers.contains(word) || c.functions.contains(word)) {
        return false;
      }
      Long fence = tables.get(word);
      if (fence != null && started <= fence) {
        return false;
      }
    }
    return true;
  }
}
