package dev.sluice.examples.drill;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * An H2 database in memory that behaves like a real one under load: every query costs time, and
 * the more queries run at once the longer each takes.
 *
 * <p>H2 in memory answers a lookup by primary key in microseconds, whatever the load, so on its own
 * it would never show an overload. Every query of the drill therefore calls {@code DB_WORK(id)}, a
 * function in the database that holds the query for
 *
 * <pre>  cost + crowding &times; (queries running at the same moment - 1)</pre>
 *
 * <p>(1 ms + 0.2 ms per other query by default): alone a query takes 1 ms; with 200 running at once
 * each takes 41 ms, as a real database slows down when its CPUs, locks and buffers are shared by
 * more work than it was sized for. The wait parks the thread and burns no CPU, so the drill stays
 * honest on a 2-core laptop. The function also counts each query that reached the database and
 * its latency: these are the "reached the database" and "DB ms" columns. It is declared
 * {@code DETERMINISTIC} (it returns 0, and stands for the cost of a pure read), so that a read
 * calling it may be answered ({@code H2Dialect} judges the application's routines by
 * {@code IS_DETERMINISTIC}); it takes the row's id so that H2 cannot fold the call into a
 * constant when it prepares the query, and the database runs with {@code QUERY_CACHE_SIZE=0}: H2
 * would otherwise answer a session's repeated deterministic query from its own result cache,
 * without calling the function, and the drill would count less load than it made.
 *
 * <p>With {@code --database mariadb} the rows live in a real MariaDB ({@code drill_users}), and
 * the same work is done on the way to it: the pools' connections come from a data source whose
 * prepared statements do it before each execution, beneath Sluice and the pool, so that what
 * Sluice admits pays it and what it answers does not. The read is then a plain primary-key
 * {@code SELECT}, which MariaDB's own dialect answers.
 *
 * <p>This class is threadsafe. H2 calls {@link #work(int)} as a static method of a public class, so
 * one database is current per JVM at a time; nothing else of it is public.
 */
public final class SimulatedDatabase implements AutoCloseable {

  private static final AtomicInteger NEXT_ID = new AtomicInteger();
  private static volatile SimulatedDatabase current;

  private final String url;
  /** MariaDB's: the data source whose statements do the work; {@code null} for H2. */
  private final DataSource target;
  private final String query;
  private final String write;
  private final long costNanos;
  private final long crowdingNanos;
  private final AtomicInteger running = new AtomicInteger();
  private final Connection keepAlive;
  private volatile Recorder recorder;
  /** 2 once the database has lost half its capacity ({@code --capacity-drop}), else 1. */
  private volatile int slowdown = 1;

  private SimulatedDatabase(String url, boolean mariaDb, double costMillis, double crowdingMillis)
      throws SQLException {
    this.url = url;
    this.costNanos = (long) (costMillis * 1e6);
    this.crowdingNanos = (long) (crowdingMillis * 1e6);
    this.target = mariaDb ? working(url) : null;
    this.query = mariaDb ? "SELECT name FROM drill_users WHERE id = ?"
        : "SELECT name, DB_WORK(id) FROM users WHERE id = ?";
    this.write = mariaDb ? "UPDATE drill_users SET name = CONCAT('user-', id) WHERE id = ?"
        : "UPDATE users SET name = 'user-' || id WHERE id = ? AND DB_WORK(id) = 0";
    this.keepAlive = mariaDb ? DriverManager.getConnection(url)
        : DriverManager.getConnection(url, "sa", "");
  }

  /** The database {@code options} ask for: H2 in memory, or {@code --database}'s MariaDB. */
  static SimulatedDatabase start(DrillOptions options) throws SQLException {
    return options.database == null
        ? start(options.keys, options.dbCostMillis, options.dbCrowdingMillis)
        : startMariaDb(options.database, options.keys, options.dbCostMillis,
            options.dbCrowdingMillis, options.instances, options.threads);
  }

  /**
   * The rows in the MariaDB at {@code url} (table {@code drill_users}, made anew), the work done
   * on the way to it.
   *
   * @param instances the drill's pools
   * @param threads the connections of each
   * @throws SQLException if MariaDB fails, or takes fewer connections than the pools need
   */
  static SimulatedDatabase startMariaDb(String url, int rows, double costMillis,
      double crowdingMillis, int instances, int threads) throws SQLException {
    int connections = instances * threads;
    SimulatedDatabase db = new SimulatedDatabase(url, true, costMillis, crowdingMillis);
    try (Statement s = db.keepAlive.createStatement()) {
      try (ResultSet max = s.executeQuery("SELECT @@max_connections")) {
        max.next();
        int most = max.getInt(1);
        if (connections + 4 > most) {
          db.keepAlive.close();
          throw new SQLException("the MariaDB of --database takes " + most + " connections"
              + " (max_connections), but the drill's pools would open " + connections
              + " (--instances " + instances + " times --threads " + threads + ") and a few of"
              + " its own: ask for fewer, such as --threads " + Math.max(1, (most - 10)
              / instances) + ", or raise max_connections");
        }
      }
      s.execute("CREATE OR REPLACE TABLE drill_users (id INT PRIMARY KEY,"
          + " name VARCHAR(64) NOT NULL)");
      s.execute("INSERT INTO drill_users SELECT seq, CONCAT('user-', seq) FROM seq_1_to_"
          + rows);
    }
    current = db;
    return db;
  }

  /**
   * Creates the database: a {@code users} table with ids {@code 1..rows} and the {@code DB_WORK}
   * function.
   *
   * @param rows how many users (one per key of the cache)
   * @param costMillis what a query costs alone
   * @param crowdingMillis what each other query running at once adds
   * @return the database, now current
   * @throws SQLException if H2 fails
   */
  static SimulatedDatabase start(int rows, double costMillis, double crowdingMillis)
      throws SQLException {
    String url = "jdbc:h2:mem:drill" + NEXT_ID.incrementAndGet()
        + ";DB_CLOSE_DELAY=-1;QUERY_CACHE_SIZE=0";
    SimulatedDatabase db = new SimulatedDatabase(url, false, costMillis, crowdingMillis);
    try (Statement s = db.keepAlive.createStatement()) {
      s.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
      s.execute("INSERT INTO users SELECT x, 'user-' || x FROM SYSTEM_RANGE(1, " + rows + ")");
      s.execute("CREATE ALIAS DB_WORK DETERMINISTIC FOR '" + SimulatedDatabase.class.getName() + ".work'");
    }
    current = db;
    return db;
  }

  /** The query every read runs: one row by primary key, plus the simulated work. */
  static String query() {
    SimulatedDatabase db = current;
    return db == null ? "SELECT name, DB_WORK(id) FROM users WHERE id = ?" : db.query;
  }

  /** The statement every CRITICAL write runs: one row by primary key, plus the simulated work. */
  static String write() {
    SimulatedDatabase db = current;
    return db == null ? "UPDATE users SET name = 'user-' || id WHERE id = ? AND DB_WORK(id) = 0"
        : db.write;
  }

  String url() {
    return url;
  }

  /** MariaDB's data source, whose statements do the work; {@code null} for H2 (use the URL). */
  DataSource target() {
    return target;
  }

  /**
   * A data source over {@code url} whose prepared statements do the work before each execution
   * ({@link #doWork()}); everything else is the driver's, {@code unwrap} included, so that Sluice
   * reaches MariaDB Connector/J's own connection.
   */
  private DataSource working(String jdbcUrl) {
    return proxy(DataSource.class, null, (m, a) -> switch (m.getName()) {
      case "getConnection" -> connection(a == null || a.length == 0
          ? DriverManager.getConnection(jdbcUrl)
          : DriverManager.getConnection(jdbcUrl, (String) a[0], (String) a[1]));
      case "isWrapperFor" -> false;
      case "getLoginTimeout" -> 0;
      default -> null; // the setters: nothing to set
    });
  }

  private Connection connection(Connection real) {
    return proxy(Connection.class, real, (m, a) -> {
      Object made = m.invoke(real, a);
      return m.getName().equals("prepareStatement") ? statement((PreparedStatement) made) : made;
    });
  }

  private PreparedStatement statement(PreparedStatement real) {
    return proxy(PreparedStatement.class, real, (m, a) -> {
      String name = m.getName();
      if ((a == null || a.length == 0) && (name.equals("executeQuery")
          || name.equals("executeUpdate") || name.equals("execute"))) {
        doWork();
      }
      return m.invoke(real, a);
    });
  }

  private interface Call {
    Object call(java.lang.reflect.Method method, Object[] args) throws Exception;
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, Object real, Call call) {
    return (T) Proxy.newProxyInstance(SimulatedDatabase.class.getClassLoader(),
        new Class<?>[] {type}, (self, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
              case "equals" -> self == args[0];
              case "hashCode" -> System.identityHashCode(self);
              default -> type.getSimpleName() + " of the drill's MariaDB";
            };
          }
          try {
            return call.call(method, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /** Counts from now on into {@code recorder}. */
  void recordInto(Recorder recorder) {
    this.recorder = recorder;
  }

  /**
   * Halves the database's capacity, or gives it back: while lost, every query costs twice (its
   * cost and what each other query adds), so it serves half as many at any concurrency.
   */
  void loseHalfCapacity(boolean lost) {
    slowdown = lost ? 2 : 1;
  }

  /**
   * The simulated work of one query, called by H2 once per query.
   *
   * @param id the row's id, unused: it keeps H2 from folding the call at prepare time
   * @return 0
   */
  public static int work(int id) {
    SimulatedDatabase db = current;
    return db == null ? 0 : db.doWork();
  }

  private int doWork() {
    Recorder rec = recorder;
    long start = System.nanoTime();
    int others = running.getAndIncrement();
    if (rec != null) {
      rec.reachedDatabase(start);
    }
    try {
      long deadline = start + slowdown * (costNanos + crowdingNanos * others);
      for (long left = deadline - start; left > 0; left = deadline - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
    } finally {
      running.decrementAndGet();
    }
    long end = System.nanoTime();
    if (rec != null) {
      rec.databaseDone(end, end - start);
    }
    return 0;
  }

  /**
   * Shuts the database down.
   *
   * @throws SQLException if H2 fails
   */
  @Override
  public void close() throws SQLException {
    if (current == this) {
      current = null;
    }
    if (target != null) {
      keepAlive.close(); // the table stays for a look afterwards; the next drill makes it anew
      return;
    }
    try (Statement s = keepAlive.createStatement()) {
      s.execute("SHUTDOWN");
    } finally {
      keepAlive.close();
    }
  }
}
