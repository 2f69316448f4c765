package dev.sluice.internal.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The write fences of this instance that wait for the sending thread, to travel to the budget's
 * other instances ({@code sluice.stale.share}; {@link Sharing#fence}). A write queues the tables
 * it fenced here ({@link #wrote}); the sending thread takes them all at its next tick
 * ({@link #take}) and sends them as one message before any result of that tick.
 *
 * <p>Fences merge without loss: the receiver applies a fence at the moment it hears it, so two
 * writes of one table between two ticks are one fence, and a write of unknown tables covers
 * every other. Hence a set of names and one flag, no queue: a write of a table already waiting
 * allocates nothing, and the outbox never holds more than {@value #MAX_TABLES} names (beyond,
 * everything is fenced).
 *
 * <p>Why nothing is lost between a write and the take: a write queues its tables after it
 * ended. If the name was already waiting, the sending thread removes it after the write looked
 * (or the write would have added it again), so the message that carries it is published after
 * the write ended; the receiver applies it later still. Threadsafe, no lock.
 */
final class FenceOutbox {
  /** The most table names waiting; a write of one more fences every table. */
  static final int MAX_TABLES = 256;
  /** What {@link #take} returns for "every table". */
  static final String[] ALL = new String[0];
  private final ConcurrentHashMap<String, Boolean> tables = new ConcurrentHashMap<>();
  private final AtomicBoolean all = new AtomicBoolean();

  /**
   * What a write fenced here, as it should travel: {@code null} (every table) when the catalog
   * is unknown here or a table's writes reach others here ({@link TableReach}): the receiver may
   * know less of the database than this instance.
   *
   * @param written the tables the write names, {@code null}: unknown
   * @param catalog this instance's catalog
   */
  static String[] reach(String[] written, TableReach catalog) {
    if (written == null || !catalog.known) {
      return null;
    }
    for (String table : written) {
      if (catalog.writesReach.contains(table)) {
        return null;
      }
    }
    return written;
  }

  /** A write ended that fenced {@code tables} ({@code null}: every table). */
  void wrote(String[] written) {
    if (written == null) {
      fenceAll();
      return;
    }
    for (String table : written) {
      if (!tables.containsKey(table)) {
        if (tables.size() >= MAX_TABLES) {
          fenceAll();
          return;
        }
        tables.putIfAbsent(table, Boolean.TRUE);
      }
    }
  }

  private void fenceAll() {
    if (!all.get()) {
      all.set(true);
    }
  }

  /**
   * Takes what waits: {@code null} when nothing does, {@link #ALL} for every table, else the
   * names. Called by the sending thread only.
   */
  String[] take() {
    boolean everything = all.getAndSet(false);
    if (tables.isEmpty()) {
      return everything ? ALL : null;
    }
    List<String> names = new ArrayList<>();
    for (String table : tables.keySet()) {
      if (tables.remove(table) != null) {
        names.add(table);
      }
    }
    return everything ? ALL : names.isEmpty() ? null : names.toArray(new String[0]);
  }
}
