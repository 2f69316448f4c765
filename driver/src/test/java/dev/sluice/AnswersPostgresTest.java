package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.testing.LogTap;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Answers instead of refusals, end to end over a real PostgreSQL: the rule (an answer only ever
 * replaces a refusal), joining a read in flight, and the reads never answered. The bucket runs on
 * a fake clock: budget 0.01/s and burst 1, so one permit is there at the start and the next
 * after 100 s of fake time; an answer's age is fake time too.
 */
class AnswersPostgresTest {
  private static final String BY_ID = "SELECT id, name FROM items WHERE id = ?";
  private static final Duration REFILL = Duration.ofSeconds(100);
  /** The advisory lock a statement holding the cap's place waits for. */
  private static final int HOLDER_LOCK = 4242;

  private static EmbeddedPostgres postgres;
  private static HikariDataSource pool;
  private static HikariDataSource manualPool;
  private static int budgets;

  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private final List<RateLimitedDataSource> built = new ArrayList<>();

  @BeforeAll
  static void startPostgres() throws IOException, SQLException {
    postgres = EmbeddedPostgres.builder().start();
    pool = pool("answers", true);
    manualPool = pool("answers-manual", false);
  }

  private static HikariDataSource pool(String name, boolean autoCommit) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
    config.setMaximumPoolSize(4);
    config.setAutoCommit(autoCommit);
    return new HikariDataSource(config);
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (pool != null) {
      pool.close();
      manualPool.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @BeforeEach
  void freshTable() throws SQLException {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS items");
      s.execute("CREATE TABLE items (id int PRIMARY KEY, name text)");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }
  }

  @AfterEach
  void closeBudgets() throws SQLException {
    for (RateLimitedDataSource ds : built) {
      ds.close();
    }
  }

  private RateLimitedDataSource answering(javax.sql.DataSource delegate, String... more) {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.stale.wait", "30s"); // a join that should happen never runs out
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.jmx", "false");
    for (int i = 0; i < more.length; i += 2) {
      p.setProperty(more[i], more[i + 1]);
    }
    RateLimitedDataSource ds = RateLimitedDataSource.builder(unclosable(delegate))
        .name("answers-" + ++budgets).budget(0.01).burst(1).breakerFlag(flag).properties(p)
        .ticker(ticker).build();
    built.add(ds);
    return ds;
  }

  /** The pool as a plain {@code DataSource}: closing a budget leaves the shared pool open. */
  private static javax.sql.DataSource unclosable(javax.sql.DataSource pool) {
    return (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
        AnswersPostgresTest.class.getClassLoader(), new Class<?>[] {javax.sql.DataSource.class},
        (proxy, method, args) -> {
          try {
            return method.invoke(pool, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /** What a read saw: its rows' names, and the warning it carried. */
  private record Read(List<String> names, SQLWarning warning) {
    StaleResultWarning stale() {
      return (StaleResultWarning) warning;
    }
  }

  /** Lets the statement of {@link #holdThePlace} take its lock and end. */
  private static void letGo(Connection gate) throws SQLException {
    try (Statement s = gate.createStatement()) {
      s.execute("SELECT pg_advisory_unlock(" + HOLDER_LOCK + ")");
    }
  }

  private static Read read(ResultSet rs) throws SQLException {
    try (rs) {
      List<String> names = new ArrayList<>();
      while (rs.next()) {
        names.add(rs.getInt(1) + ":" + rs.getString(2));
      }
      return new Read(names, rs.getWarnings());
    }
  }

  private static Read byId(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(BY_ID)) {
      ps.setInt(1, id);
      return read(ps.executeQuery());
    }
  }

  private static Read byId(javax.sql.DataSource ds, int id) throws SQLException {
    try (Connection c = ds.getConnection()) {
      return byId(c, id);
    }
  }

  private static void rename(int id, String name) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement("UPDATE items SET name = ? WHERE id = ?")) {
      ps.setString(1, name);
      ps.setInt(2, id);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }

  private static int entries(RateLimitedDataSource ds) {
    return ds.enforcer().answers().entries();
  }

  /**
   * Spends the permit there, and is refused once: a refusal turns recording on. Then the next
   * permit arrives.
   */
  private void startLimiting(RateLimitedDataSource ds) throws SQLException {
    flag.trip();
    byId(ds, 3);
    assertThatThrownBy(() -> byId(ds, 3)).isInstanceOf(RateLimitExceededException.class);
    ticker.advance(REFILL);
  }

  @Test
  void aRefusedRead_isAnsweredFromTheIdenticalReadKept_andCountedAsAnswered() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    assertThat(byId(ds, 1)).isEqualTo(new Read(List.of("1:one"), null)); // admitted, kept
    assertThat(entries(ds)).isEqualTo(1);
    rename(1, "uno");
    ticker.advance(Duration.ofSeconds(2));

    Read answered = byId(ds, 1);

    assertThat(answered.names()).as("the kept result, not the database's").containsExactly("1:one");
    assertThat((Object) answered.warning()).isInstanceOf(StaleResultWarning.class);
    assertThat(answered.stale().ageMillis()).isEqualTo(2000);
    assertThat(answered.stale().joined()).isFalse();
    assertThat(answered.warning().getMessage()).contains("2000 ms ago", "instead of refusing");
    assertThatThrownBy(() -> byId(ds, 2)).as("another parameter is another read")
        .isInstanceOf(RateLimitExceededException.class);
    Stats stats = ds.stats();
    assertThat(stats.answered()).isEqualTo(1);
    assertThat(stats.joined()).isZero();
    assertThat(stats.rejected()).as("every refusal, the answered one included").isEqualTo(3);
  }

  /** As jOOQ and MyBatis read: {@code execute()}, then {@code getResultSet()}. */
  private static Read byIdThroughExecute(javax.sql.DataSource ds, int id, List<Integer> counts)
      throws SQLException {
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(BY_ID)) {
      ps.setInt(1, id);
      assertThat(ps.execute()).as("a result").isTrue();
      Read read = read(ps.getResultSet());
      counts.add(ps.getUpdateCount());
      assertThat(ps.getMoreResults()).as("no other result").isFalse();
      counts.add(ps.getUpdateCount());
      return read;
    }
  }

  @Test
  void aPreparedExecute_isRecordedWhenItsResultIsRead_andAnsweredWhenRefused() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    List<Integer> counts = new ArrayList<>();
    assertThat(byIdThroughExecute(ds, 1, counts).names()).containsExactly("1:one"); // admitted
    assertThat(entries(ds)).as("kept through getResultSet()").isEqualTo(1);
    rename(1, "uno");
    ticker.advance(Duration.ofSeconds(1));

    Read answered = byIdThroughExecute(ds, 1, counts);

    assertThat(answered.names()).as("the kept result, not the database's").containsExactly("1:one");
    assertThat(answered.stale().ageMillis()).isEqualTo(1000);
    assertThat(counts).as("getUpdateCount: -1 for a result, live and answered alike")
        .containsExactly(-1, -1, -1, -1);
    assertThat(ds.stats().answered()).isEqualTo(1);
    assertThatThrownBy(() -> byIdThroughExecute(ds, 2, new ArrayList<>()))
        .as("another parameter is another read").isInstanceOf(RateLimitExceededException.class);
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(BY_ID)) {
      ps.setInt(1, 1);
      assertThat(ps.execute()).isTrue(); // answered again
      ResultSet answer = ps.getResultSet();
      assertThat(ps.getLargeUpdateCount()).isEqualTo(-1);
      assertThat(ps.getMoreResults(Statement.KEEP_CURRENT_RESULT)).isFalse();
      assertThat(answer.isClosed()).as("kept open, as asked").isFalse();
      assertThat(ps.getResultSet()).as("no more results").isNull();
    }
  }

  @Test
  void theRejectionSummary_saysHowManyReadsWereAnsweredInstead() throws Exception {
    RateLimitedDataSource ds = answering(pool, "sluice.summary-interval", "1s");
    startLimiting(ds);
    byId(ds, 1); // kept
    byId(ds, 1); // answered (and summed up: the first summary was due)
    byId(ds, 1); // answered
    try (LogTap log = LogTap.open()) {
      ticker.advance(Duration.ofSeconds(2)); // the next summary is due at the next refusal
      assertThat((Object) byId(ds, 1).warning()).isNotNull();
      assertThat(log.lines("rejected 2 calls in the last 2000 ms")).singleElement().asString()
          .contains("answered instead so far: 2, 0 of them joining a read in flight");
    }
  }

  @Test
  void aReadTheConcurrencyCapRefuses_isAnsweredToo() throws Exception {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.concurrency", "1");
    p.setProperty("sluice.jmx", "false");
    RateLimitedDataSource ds = RateLimitedDataSource.builder(unclosable(pool))
        .name("answers-cap").budget(1e6).breakerFlag(flag).properties(p).ticker(ticker).build();
    built.add(ds);
    flag.trip();
    ExecutorService threads = Executors.newSingleThreadExecutor();
    // beside Sluice and unpooled: holds the holder's lock, and closing it lets go in any case
    try (Connection gate = postgres.getPostgresDatabase().getConnection()) {
      Future<?> holder = holdThePlace(ds, threads, gate);
      assertThatThrownBy(() -> byId(ds, 1)).as("the cap's one place is taken")
          .isInstanceOf(RateLimitExceededException.class);
      letGo(gate);
      holder.get(30, TimeUnit.SECONDS);
      // the holder's statement fenced every table as it ended (pg_advisory_xact_lock is no
      // read): a read that starts later is kept and may answer
      ticker.advance(Duration.ofMillis(1));
      assertThat((Object) byId(ds, 1).warning()).as("admitted, kept").isNull();
      holder = holdThePlace(ds, threads, gate);
      Read answered = byId(ds, 1);
      letGo(gate);
      holder.get(30, TimeUnit.SECONDS);
      assertThat(answered.names()).containsExactly("1:one");
      assertThat((Object) answered.warning()).isInstanceOf(StaleResultWarning.class);
    } finally {
      threads.shutdownNow();
    }
    assertThat(ds.stats().answered()).isEqualTo(1);
  }

  /**
   * A statement in flight on another thread, waiting for the advisory lock {@code gate} takes
   * first; returns once it holds the place. It ends when the gate lets go ({@link #letGo}).
   */
  private static Future<?> holdThePlace(RateLimitedDataSource ds, ExecutorService threads,
      Connection gate) throws Exception {
    try (Statement s = gate.createStatement()) {
      s.execute("SELECT pg_advisory_lock(" + HOLDER_LOCK + ")");
    }
    Future<?> holder = threads.submit(() -> {
      try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(" + HOLDER_LOCK + ")"); // until the gate lets go
      }
      return null;
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (ds.stats().inFlight() == 0 && !holder.isDone() && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertThat(ds.stats().inFlight()).as("the holder is in flight").isEqualTo(1);
    return holder;
  }

  @Test
  void aPlainStatementsText_isAnsweredToo_andItsAnswerKnowsItsStatement() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    String sql = "SELECT id, name FROM items ORDER BY id";
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      assertThat(read(s.executeQuery(sql)).names()).hasSize(3);
      try (ResultSet answer = s.executeQuery(sql)) {
        assertThat(answer.getStatement()).isSameAs(s);
        assertThat((Object) answer.getWarnings()).isInstanceOf(StaleResultWarning.class);
        assertThat(read(answer).names()).containsExactly("1:one", "2:two", "3:three");
      }
    }
    assertThat(ds.stats().answered()).isEqualTo(1);
  }

  @Test
  void aSchemaOrUserSetThroughSluice_isPartOfTheReadsIdentity() throws Exception {
    RateLimitedDataSource ds = answering(postgres.getPostgresDatabase()); // takes a user
    startLimiting(ds);
    try (Connection first = ds.getConnection()) {
      byId(first, 1); // kept, on the defaults; its session read once
      try (Connection c = ds.getConnection()) {
        c.setSchema("public");
        assertThatThrownBy(() -> byId(c, 1)).as("another schema, as Sluice knows it")
            .isInstanceOf(RateLimitExceededException.class);
      }
      try (Connection c = ds.getConnection("postgres", "")) {
        assertThatThrownBy(() -> byId(c, 1)).as("another user, as Sluice knows it")
            .isInstanceOf(RateLimitExceededException.class);
      }
      // unpooled: only a session Sluice has read (here the first) is answered
      assertThat((Object) byId(first, 1).warning()).isInstanceOf(StaleResultWarning.class);
    }
  }

  @Test
  void aReadTheLimitAdmits_alwaysGoesToTheDatabase() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    byId(ds, 1); // kept
    rename(1, "uno");
    ticker.advance(REFILL);

    assertThat(byId(ds, 1)).isEqualTo(new Read(List.of("1:uno"), null));
    assertThat(ds.stats().answered()).isZero();
  }

  @Test
  void anIdenticalReadInFlight_isJoined_andItsResultAnswered() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    String sql = "SELECT id, name FROM items ORDER BY id";
    ExecutorService threads = Executors.newFixedThreadPool(1);
    Connection leaderConnection = ds.getConnection();
    // the joiner's own connection (another: the leader holds its own) is read once, admitted:
    // a session Sluice never read is neither answered nor joined
    threads.submit(() -> byId(ds, 2)).get(30, TimeUnit.SECONDS);
    ticker.advance(REFILL);
    try (Connection leader = leaderConnection; Statement s = leader.createStatement();
        ResultSet live = s.executeQuery(sql)) { // admitted: the last permit; in flight
      assertThat(live.next()).isTrue();
      CompletableFuture<Thread> joiner = new CompletableFuture<>();
      Future<Read> joined = threads.submit(() -> {
        try (Connection c = ds.getConnection(); Statement own = c.createStatement()) {
          joiner.complete(Thread.currentThread()); // from here on, only the join parks it
          return read(own.executeQuery(sql));
        }
      });
      Thread waiting = joiner.get(30, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (waiting.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(waiting.getState()).as("the refused read waits for the one in flight")
          .isEqualTo(Thread.State.TIMED_WAITING);
      assertThat(joined).isNotDone();
      while (live.next()) {
        // the leader reads to the end: its result is kept, and the joiner answered from it
      }
      Read answer = joined.get(30, TimeUnit.SECONDS);
      assertThat(answer.names()).containsExactly("1:one", "2:two", "3:three");
      assertThat(answer.stale().joined()).isTrue();
    } finally {
      threads.shutdownNow();
    }
    assertThat(ds.stats().answered()).isEqualTo(1);
    assertThat(ds.stats().joined()).isEqualTo(1);
  }

  @Test
  void aLockingRead_isNeverKeptNorAnswered() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    String locking = "SELECT id, name FROM items WHERE id = 1 FOR UPDATE";
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      assertThat(read(s.executeQuery(locking)).names()).containsExactly("1:one");
      assertThat(entries(ds)).isZero();
      assertThatThrownBy(() -> s.executeQuery(locking))
          .isInstanceOf(RateLimitExceededException.class);
      assertThatThrownBy(() -> s.executeQuery("SELECT id, name FROM items WHERE id = 1 FOR SHARE"))
          .isInstanceOf(RateLimitExceededException.class);
    }
    assertThat(ds.stats().answered()).isZero();
  }

  @Test
  void insideATransaction_aReadIsNeitherKeptNorAnswered() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false); // the transaction's door: the permit
      assertThat(byId(c, 1)).isEqualTo(new Read(List.of("1:one"), null));
      assertThat(entries(ds)).as("nothing kept inside a transaction").isZero();
      c.commit();
    }
    // a transaction's door refused while a result is kept: refused, never answered
    RateLimitedDataSource manual = answering(manualPool);
    ticker.advance(REFILL);
    try (Connection autoCommit = manual.getConnection()) {
      autoCommit.setAutoCommit(true);
      byId(autoCommit, 1); // the permit; not kept: nothing refused here yet
      assertThatThrownBy(() -> byId(autoCommit, 2)).isInstanceOf(RateLimitExceededException.class);
      ticker.advance(REFILL);
      byId(autoCommit, 1); // kept
      assertThat(entries(manual)).isEqualTo(1);
      assertThat((Object) byId(autoCommit, 1).warning()).as("answered under auto-commit")
          .isInstanceOf(StaleResultWarning.class);
    }
    try (Connection inTransaction = manual.getConnection()) {
      assertThat(inTransaction.getAutoCommit()).isFalse();
      assertThatThrownBy(() -> byId(inTransaction, 1))
          .as("the first statement of a transaction is its door: refused, not answered")
          .isInstanceOf(RateLimitExceededException.class);
    }
    assertThat(manual.stats().answered()).isEqualTo(1);
  }

  @Test
  void whenLimitingEnds_readingTheStatsDropsNothing_theNextCallDrops() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    byId(ds, 1);
    assertThat(entries(ds)).isEqualTo(1);
    flag.reset(); // sluice.recovery.settle=0: limiting ends with the flag

    for (int i = 0; i < 10; i++) { // a look at the figures observes; it acts on nothing
      assertThat(ds.stats().limiting()).isFalse();
      assertThat(ds.stats().answersKept()).isEqualTo(1);
    }
    assertThat(byId(ds, 2)).isEqualTo(new Read(List.of("2:two"), null));
    assertThat(entries(ds)).isZero();
    assertThat(ds.enforcer().answers().bytes()).isZero();
  }

  @Test
  void whenLimitingEnds_theKeptResultsGo_seenByTheNextRead_andNothingMoreIsKept()
      throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    byId(ds, 1);
    assertThat(entries(ds)).isEqualTo(1);
    flag.reset();

    assertThat(byId(ds, 2)).isEqualTo(new Read(List.of("2:two"), null));
    assertThat(entries(ds)).isZero();
    byId(ds, 1);
    assertThat(entries(ds)).as("nothing kept while the flag is closed").isZero();
    assertThat(ds.enforcer().answers().active()).isFalse();
  }

  /**
   * The attack: a read admitted while limiting, read to its end by its caller only after limiting
   * stopped. The stop dropped every kept result; this one must not land after it, or it would
   * outlive the stop, fenced against none of the writes made while not limiting, and could answer
   * the next outage within {@code max-age}.
   */
  @Test
  void aReadFinishedOnlyAfterLimitingStopped_isKeptByNobody() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(BY_ID)) {
      ps.setInt(1, 1);
      ResultSet rs = ps.executeQuery(); // admitted (the refilled permit), recorded as it is read
      flag.reset(); // sluice.recovery.settle=0: the next call ends limiting
      assertThat(byId(ds, 2)).isEqualTo(new Read(List.of("2:two"), null));
      assertThat(ds.stats().limiting()).isFalse();
      assertThat(read(rs).names()).containsExactly("1:one"); // the recording ends now
    }
    assertThat(entries(ds)).as("a result whose read began before the stop").isZero();
    assertThat(ds.enforcer().answers().bytes()).isZero();
  }

  @Test
  void close_dropsTheKeptResults() throws Exception {
    RateLimitedDataSource ds = answering(pool);
    startLimiting(ds);
    byId(ds, 1);
    assertThat(entries(ds)).isEqualTo(1);
    ds.close();
    assertThat(entries(ds)).isZero();
  }

  @Test
  void answersOff_aRefusalIsTheSameAsBefore() throws Exception {
    Properties p = new Properties();
    p.setProperty("sluice.jmx", "false");
    RateLimitedDataSource ds = RateLimitedDataSource.builder(unclosable(pool)).name("answers-off")
        .budget(0.01).burst(1).breakerFlag(flag).properties(p).ticker(ticker).build();
    built.add(ds);
    flag.trip();
    byId(ds, 1);
    assertThat(ds.enforcer().answers()).isNull();
    assertThatThrownBy(() -> byId(ds, 1)).isInstanceOf(RateLimitExceededException.class);
    assertThat(ds.stats().answered()).isZero();
  }
}
