package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.Limit;
import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import dev.sluice.testing.Await;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, items 1, 2, 3 and 5: the concurrency cap's promises, measured where they are made,
 * at the database. A watcher on a connection of its own polls {@code pg_stat_activity} for the
 * backends of the test's pool that are not idle ({@code active}, or {@code idle in transaction}:
 * a transaction occupies its backend from its first statement to its end).
 *
 * <ol>
 *   <li>One-statement transactions begun together peaked at 3-8 backends in use with a cap of 2:
 *       the door ({@code setAutoCommit(false)}) reserved nothing and the statements were forced
 *       in. A transaction now holds one place from its door to its end.
 *   <li>What was running when the flag opened was not counted: transactions open then, and in
 *       {@code connection} scope connections checked out then, are now counted from their first
 *       statement while limiting; statements already running are the one excess, until they
 *       return.
 *   <li>With a cap of 2 and a {@code SHEDDABLE} flood, {@code CRITICAL} calls got 0 of 60: the
 *       cap now keeps {@code sluice.reserve} of itself for the priorities above.
 *   <li value="5">A result streamed with a fetch size kept a backend busy after the place was
 *       given back (2 active with a cap of 1): PostgreSQL streams only inside a transaction, which
 *       now holds its place until it ends.
 * </ol>
 */
class ConcurrencyCapAtTheDatabaseTest {
  private static final String APP = "sluice-cap-promises";
  private static EmbeddedPostgres postgres;
  private final List<AutoCloseable> closing = new ArrayList<>();

  @BeforeAll
  static void startPostgres() throws IOException {
    postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "100").start();
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  @AfterEach
  void close() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
  }

  private RateLimitedDataSource dataSource(int poolSize, int cap, Scope scope, BreakerFlag flag)
      throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    config.addDataSourceProperty("ApplicationName", APP);
    HikariDataSource pool = new HikariDataSource(config);
    closing.add(pool);
    Properties settings = new Properties();
    settings.setProperty("sluice.concurrency", Integer.toString(cap));
    RateLimitedDataSource ds = RateLimitedDataSource.builder(pool).name(APP).budget(100_000)
        .scope(scope).breakerFlag(flag).properties(settings).build();
    closing.add(ds);
    Await.until("the pool is full", Duration.ofSeconds(30),
        () -> pool.getHikariPoolMXBean().getTotalConnections() == poolSize);
    return ds;
  }

  /** Item 1: one-statement transactions begun together, twelve threads, a cap of 2. */
  @Test
  void oneStatementTransactions_backendsInUseNeverExceedTheCap() throws Exception {
    RateLimitedDataSource ds = dataSource(12, 2, Scope.STATEMENT, BreakerFlag.alwaysOpen());
    AtomicBoolean running = new AtomicBoolean(true);
    LongAdder committed = new LongAdder();
    LongAdder refused = new LongAdder();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < 12; t++) {
      workers.add(new Thread(() -> transactions(ds, running, committed, refused)));
    }
    workers.forEach(Thread::start);
    Watch watch = Watch.during(Duration.ofSeconds(3));
    running.set(false);
    for (Thread worker : workers) {
      worker.join();
    }

    assertThat(watch.most).as("backends in use at most (cap 2)").isLessThanOrEqualTo(2);
    assertThat(watch.most).as("the cap was reached").isEqualTo(2);
    assertThat(committed.sum()).isPositive();
    assertThat(refused.sum()).isPositive();
    assertThat(ds.stats().inFlight()).isZero();
  }

  private static void transactions(RateLimitedDataSource ds, AtomicBoolean running,
      LongAdder committed, LongAdder refused) {
    try (Connection connection = ds.getConnection();
        PreparedStatement sleep = connection.prepareStatement("select pg_sleep(0.03)")) {
      while (running.get()) {
        try {
          connection.setAutoCommit(false);
        } catch (RateLimitExceededException e) {
          refused.increment();
          Thread.onSpinWait();
          continue;
        }
        try {
          sleep.execute();
          connection.commit();
          committed.increment();
        } finally {
          connection.setAutoCommit(true);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Item 2, transactions: five transactions are open (each has run a statement) when the flag
   * opens; each runs one more. They are counted from then until they end, so a new door finds
   * the cap of 3 reached while they stay open, idle in transaction, on their backends.
   */
  @Test
  void transactionsOpenWhenTheFlagOpens_areCountedUntilTheyEnd() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    RateLimitedDataSource ds = dataSource(8, 3, Scope.STATEMENT, flag);
    List<Connection> open = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Connection connection = ds.getConnection();
      connection.setAutoCommit(false);
      execute(connection, "select 1");
      open.add(connection);
    }
    flag.trip();
    for (Connection connection : open) {
      execute(connection, "select 2"); // never refused: their work is under way
    }

    assertThat(ds.stats().inFlight()).isEqualTo(5);
    assertThat(Watch.now()).as("their backends, idle in transaction").isEqualTo(5);
    try (Connection other = ds.getConnection()) {
      assertThatThrownBy(() -> execute(other, "select 3"))
          .isInstanceOfSatisfying(RateLimitExceededException.class,
              e -> assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY));
    }
    for (Connection connection : open) {
      connection.commit();
      connection.close();
    }
    assertThat(ds.stats().inFlight()).isZero();
  }

  /**
   * Item 2, statements: eight statements run when the flag opens, and a flood follows. The
   * excess over the cap of 3 is those eight, for as long as they run: once they have returned,
   * the backends in use never exceed the cap.
   */
  @Test
  void statementsRunningWhenTheFlagOpens_areTheOnlyExcess_untilTheyReturn() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    RateLimitedDataSource ds = dataSource(16, 3, Scope.STATEMENT, flag);
    CountDownLatch returned = new CountDownLatch(8);
    for (int i = 0; i < 8; i++) {
      new Thread(() -> {
        try (Connection connection = ds.getConnection()) {
          execute(connection, "select pg_sleep(1.5)");
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        } finally {
          returned.countDown();
        }
      }).start();
    }
    Await.until("eight statements run", Duration.ofSeconds(20), () -> Watch.now() == 8);
    flag.trip();
    AtomicBoolean running = new AtomicBoolean(true);
    List<Thread> flood = new ArrayList<>();
    LongAdder ran = new LongAdder();
    for (int t = 0; t < 8; t++) {
      // CRITICAL: the whole cap (NORMAL would see 2 of 3, sluice.reserve keeping one)
      flood.add(new Thread(() -> statements(ds, running, ran, Priority.CRITICAL)));
    }
    flood.forEach(Thread::start);
    Watch whileTheyRun = Watch.until(returned);
    // A backend says "idle" only once it waits for its next command, a moment after its client
    // has the result (a run once counted the last of the eight here, 4 > 3): the window after
    // them starts once the database says they are done, not when their threads are.
    Await.until("the eight backends idle", Duration.ofSeconds(20), () -> Watch.now() <= 3);
    Watch after = Watch.during(Duration.ofSeconds(2));
    running.set(false);
    for (Thread thread : flood) {
      thread.join();
    }

    assertThat(whileTheyRun.most).as("at most the eight and the cap").isLessThanOrEqualTo(8 + 3);
    assertThat(after.most).as("once they returned: the cap").isLessThanOrEqualTo(3);
    assertThat(after.most).isEqualTo(3);
    assertThat(ran.sum()).isPositive();
  }

  /** Item 2, {@code connection} scope: connections checked out before the flag opened. */
  @Test
  void connectionScope_connectionsCheckedOutBeforeTheFlagOpens_areCountedUntilClosed()
      throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    RateLimitedDataSource ds = dataSource(8, 2, Scope.CONNECTION, flag);
    List<Connection> out = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      out.add(ds.getConnection());
    }
    flag.trip();
    for (Connection connection : out) {
      execute(connection, "select 1");
    }

    assertThat(ds.stats().inFlight()).isEqualTo(5);
    assertThatThrownBy(ds::getConnection)
        .isInstanceOfSatisfying(RateLimitExceededException.class,
            e -> assertThat(e.limit()).isEqualTo(Limit.CONCURRENCY));
    for (Connection connection : out) {
      connection.close();
    }
    assertThat(ds.stats().inFlight()).isZero();
    ds.getConnection().close();
  }

  /**
   * Item 3: with a cap of 2 and eight threads flooding with {@code SHEDDABLE} statements, one
   * thread sends {@code CRITICAL} calls at 20/s for 3 s: within {@code reserve} x cap (one place,
   * to the nearest whole place), every one is admitted.
   */
  @Test
  void sheddableFlood_criticalWithinTheReserve_isAdmitted() throws Exception {
    RateLimitedDataSource ds = dataSource(10, 2, Scope.STATEMENT, BreakerFlag.alwaysOpen());
    AtomicBoolean running = new AtomicBoolean(true);
    LongAdder sheddable = new LongAdder();
    List<Thread> flood = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      flood.add(new Thread(() -> statements(ds, running, sheddable, Priority.SHEDDABLE)));
    }
    flood.forEach(Thread::start);
    Await.until("the flood holds its part", Duration.ofSeconds(10),
        () -> ds.stats().inFlight() == 1);
    int admitted = 0;
    try (Connection connection = ds.getConnection();
        PreparedStatement critical = connection.prepareStatement("select pg_sleep(0.01)")) {
      for (int i = 0; i < 60; i++) {
        long next = System.nanoTime() + 50_000_000L;
        try {
          Priority.CRITICAL.call(critical::execute);
          admitted++;
        } catch (RateLimitExceededException e) {
          // counted by what was not admitted
        }
        java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
      }
    }
    running.set(false);
    for (Thread thread : flood) {
      thread.join();
    }

    assertThat(admitted).as("CRITICAL admitted of 60").isEqualTo(60);
    assertThat(sheddable.sum()).isPositive();
    assertThat(ds.stats().rejected(Priority.SHEDDABLE)).isPositive();
  }

  /**
   * Item 5: a result streamed with a fetch size (PostgreSQL streams only inside a transaction)
   * holds the place until the transaction ends: with a cap of 1, while it is read, another call
   * is refused and one backend works for the pool.
   */
  @Test
  void streamedResult_holdsThePlaceUntilTheTransactionEnds() throws Exception {
    RateLimitedDataSource ds = dataSource(4, 1, Scope.STATEMENT, BreakerFlag.alwaysOpen());
    try (Connection reader = ds.getConnection(); Connection other = ds.getConnection()) {
      reader.setAutoCommit(false);
      Statement streaming = reader.createStatement();
      streaming.setFetchSize(5);
      int rows = 0;
      int most = 0;
      try (ResultSet result = streaming.executeQuery(
          "select g, pg_sleep(0.002) from generate_series(1, 200) g")) {
        while (result.next()) {
          if (rows++ % 50 == 10) {
            assertThatThrownBy(() -> execute(other, "select pg_sleep(0.05)"))
                .isInstanceOf(RateLimitExceededException.class);
            most = Math.max(most, Watch.now());
          }
        }
      }
      reader.commit();

      assertThat(rows).isEqualTo(200);
      assertThat(most).isEqualTo(1);
      assertThat(ds.stats().inFlight()).isZero();
      execute(other, "select 1"); // the place is free again
    }
  }

  private static void statements(RateLimitedDataSource ds, AtomicBoolean running, LongAdder ran,
      Priority priority) {
    try (Connection connection = ds.getConnection();
        PreparedStatement sleep = connection.prepareStatement("select pg_sleep(0.03)")) {
      while (running.get()) {
        try {
          priority.call(sleep::execute);
          ran.increment();
        } catch (RateLimitExceededException e) {
          Thread.onSpinWait();
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /**
   * The most backends of the pool in use, polled from a connection of the watcher's own, as
   * seen by two polls in a row. One poll alone can count one statement more than ever ran at
   * once: PostgreSQL reads {@code pg_stat_activity} backend by backend, not at one instant, so
   * a statement that ended after its backend was read and the next one, begun before its own
   * backend was read, are both counted (one run of the full suite saw 12 while the eight ran,
   * the eight and four, against a cap of 3). A cap that let more through would hold them for a
   * statement's whole 30 ms, many polls.
   */
  private static final class Watch {
    int most;

    static Watch during(Duration span) throws SQLException {
      long end = System.nanoTime() + span.toNanos();
      return poll(() -> System.nanoTime() - end < 0);
    }

    static Watch until(CountDownLatch done) throws SQLException {
      return poll(() -> done.getCount() > 0);
    }

    private static Watch poll(java.util.function.BooleanSupplier going) throws SQLException {
      Watch watch = new Watch();
      try (Connection watcher = watcherConnection();
          PreparedStatement inUse = watcher.prepareStatement(IN_USE)) {
        int previous = 0;
        while (going.getAsBoolean()) {
          int now = count(inUse);
          watch.most = Math.max(watch.most, Math.min(previous, now));
          previous = now;
        }
      }
      return watch;
    }

    static int now() {
      try (Connection watcher = watcherConnection();
          PreparedStatement inUse = watcher.prepareStatement(IN_USE)) {
        return count(inUse);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    private static final String IN_USE = "select count(*) from pg_stat_activity"
        + " where application_name = '" + APP + "' and state <> 'idle'";

    private static Connection watcherConnection() throws SQLException {
      return DriverManager.getConnection(postgres.getJdbcUrl("postgres", "postgres"));
    }

    private static int count(PreparedStatement inUse) throws SQLException {
      try (ResultSet rows = inUse.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }
}
