package dev.sluice.internal.answer;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions of one budget, one per physical connection, held weakly: a connection the pool
 * closes and drops takes its session with it. The physical connection is the one the driver
 * made ({@code unwrap(Connection.class)} of what the pool lends: HikariCP gives its delegate), so
 * that in decorator mode every checkout of one pooled connection finds the same session.
 *
 * <p>Threadsafe, no lock: a {@link ConcurrentHashMap} keyed by identity; a lookup allocates
 * nothing (a probe per thread).
 */
final class Sessions {
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
