package dev.sluice.bench.overload;

import java.util.PriorityQueue;

/**
 * A database in virtual time whose statements slow each other down, and past a knee, thrash.
 *
 * <p>The drill's database ({@code examples/.../drill/SimulatedDatabase}) adds a fixed delay per
 * other statement running; it never stops serving more. This one is a processor-sharing server with
 * {@code cores} of capacity: every statement in flight gets an equal share, at most one core, so
 * up to {@code cores} statements run at their no-load latency and more stretch each other's
 * latency in proportion (throughput flat, latency up: the queue inside the database). Past
 * {@code knee} statements in flight the whole server loses efficiency as {@code (knee / n)²}
 * &mdash; lock convoys, buffer-pool thrashing, context switches &mdash; so throughput
 * <em>falls</em> as more is let in: the collapse that a cap has to prevent.
 *
 * <p>All statements share one "virtual work" clock: each in-flight statement has received the same
 * service since it began, so a statement ends when that clock has advanced by its work since its
 * admission. One heap ordered by that end point gives the next completion in O(log n).
 *
 * <p>Not threadsafe: the harness is a single-threaded discrete-event simulation.
 */
final class SimulatedDatabase {

  /** One statement inside the database. */
  static final class Statement {
    final long admittedNanos;
    final int shape;
    final int inFlightAtAdmission;
    double endWork;
    boolean over;

    Statement(long admittedNanos, int shape, int inFlightAtAdmission) {
      this.admittedNanos = admittedNanos;
      this.shape = shape;
      this.inFlightAtAdmission = inFlightAtAdmission;
    }
  }

  private final PriorityQueue<Statement> byEnd =
      new PriorityQueue<>((a, b) -> Double.compare(a.endWork, b.endWork));
  private double cores;
  private double knee;
  private int running;
  private long nowNanos;
  private double workNanos;

  SimulatedDatabase(double cores, double knee) {
    resize(cores, knee);
  }

  /** A step in capacity: from now on the server has {@code cores}, thrashing past {@code knee}. */
  void resize(double cores, double knee) {
    this.cores = cores;
    this.knee = knee;
  }

  int running() {
    return running;
  }

  /** The service each statement in flight receives per nanosecond with {@code n} in flight. */
  private double speed(int n) {
    if (n == 0) {
      return 0;
    }
    double share = Math.min(1.0, cores / n);
    return n <= knee ? share : share * (knee / n) * (knee / n);
  }

  /** Moves time forward to {@code nanos}; nothing may end before it (see {@link #nextEndNanos}). */
  void advanceTo(long nanos) {
    workNanos += speed(running) * (nanos - nowNanos);
    nowNanos = nanos;
  }

  void admit(Statement statement, double workNanosNeeded) {
    statement.endWork = workNanos + workNanosNeeded;
    byEnd.add(statement);
    running++;
  }

  /** When the next statement ends at the current speed, or {@code Long.MAX_VALUE}. */
  long nextEndNanos() {
    Statement head = liveHead();
    if (head == null) {
      return Long.MAX_VALUE;
    }
    double left = Math.max(0, head.endWork - workNanos);
    return nowNanos + (long) Math.ceil(left / speed(running));
  }

  /** Removes and returns the statement that ends now. */
  Statement end() {
    Statement head = liveHead();
    byEnd.poll();
    head.over = true;
    running--;
    return head;
  }

  /** Cancels a statement (its statement timeout fired): it stops using the server. */
  void cancel(Statement statement) {
    statement.over = true;
    running--;
  }

  private Statement liveHead() {
    Statement head = byEnd.peek();
    while (head != null && head.over) {
      byEnd.poll();
      head = byEnd.peek();
    }
    return head;
  }
}
