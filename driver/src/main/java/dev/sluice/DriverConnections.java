package dev.sluice;

import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The raw connections {@link SluiceDriver} made for one driver-made enforcer, and which of them
 * are gone: what tells {@link DriverEnforcers} that the pool using an enforcer was closed, since
 * the driver cannot see a pool, only its physical connections.
 *
 * <p>They are held through weak references, and a connection counts as gone when it is closed or
 * garbage-collected, so a leaked connection does not keep an enforcer forever. Whether one is
 * closed is asked with {@link Connection#isClosed()} (a local read in the drivers that matter),
 * and a connection that cannot say counts as gone: it is broken, and no longer holds the
 * enforcer.
 *
 * <p>Not threadsafe: {@code DriverEnforcers} guards each with its lock, and calls {@link #gone}
 * on {@linkplain #snapshot() snapshots} with no lock held.
 */
final class DriverConnections {
  private final List<WeakReference<Connection>> refs = new ArrayList<>();

  /** Counts {@code raw}, opened for the enforcer, until it is gone. */
  void add(Connection raw) {
    refs.add(new WeakReference<>(raw));
  }

  /** Whether no connection is counted. */
  boolean isEmpty() {
    return refs.isEmpty();
  }

  /** How many connections are counted, closed ones not yet forgotten included. */
  int count() {
    return refs.size();
  }

  /** A copy of the references, for {@link #gone} outside the lock. */
  List<WeakReference<Connection>> snapshot() {
    return new ArrayList<>(refs);
  }

  /** Stops counting the connections {@link #gone} found. */
  void forget(Set<WeakReference<Connection>> gone) {
    refs.removeIf(gone::contains);
  }

  /**
   * The references whose connection was collected or closed; asks {@code isClosed()}, so never
   * under a lock.
   *
   * @param snapshots snapshots of one or more enforcers' connections
   * @return the references that are gone, compared by identity
   */
  static Set<WeakReference<Connection>> gone(
      Collection<List<WeakReference<Connection>>> snapshots) {
    Set<WeakReference<Connection>> gone = Collections.newSetFromMap(new IdentityHashMap<>());
    for (List<WeakReference<Connection>> refs : snapshots) {
      for (WeakReference<Connection> ref : refs) {
        Connection connection = ref.get();
        if (connection == null || isClosed(connection)) {
          gone.add(ref);
        }
      }
    }
    return gone;
  }

  private static boolean isClosed(Connection connection) {
    try {
      return connection.isClosed();
    } catch (SQLException | RuntimeException e) {
      return true; // a connection that cannot say is broken: it no longer holds the enforcer
    }
  }
}
