package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.FlagState;
import dev.sluice.RateLimitExceededException;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Stats;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;
import redis.embedded.RedisServer;

/**
 * Issue 36's "Done means", on real parts: a fleet of two Spring Boot applications with the
 * starter, each reading through a Resilience4j breaker around a real Redis cache and falling back
 * to a real PostgreSQL, sharing one budget and one flag through a second Redis
 * ({@code sluice.instances=redis}, {@code sluice.circuit-breaker.publish=true}), taken through a
 * cache outage (the cache killed, then restarted empty). It shows, in one run:
 *
 * <ol>
 *   <li>no flag flaps while two busy threads hold the CPU and the coordinating Redis pauses for
 *       1.0 s among them (item 2: a flag read of 0.5 to 1.1 s on a busy CPU was taken for an
 *       outage, 8 to 38 times per instance per run);
 *   <li>the fleet's flag stays open while either instance's breaker is open (item 3: the first
 *       breaker to close closed the fleet's flag);
 *   <li>the recovery hold ends within the settle of demand returning to its pre-outage level,
 *       with that level at 84 % of the share (item 1: at or above 80 % the hold never ended);
 *   <li>where the first second's reads come from (item 5): printed, and the part Sluice answers
 *       for bounded.
 * </ol>
 *
 * <p>The two applications run in one JVM. Each reaches the coordinating Redis by another name
 * (127.0.0.1 and localhost): the flag readers of one JVM on the same Redis and key open each other
 * at a trip (issue 36, item 5), and two machines would not; so here each instance sees the
 * other's breaker only through Redis, as in a real fleet, and its own at once.
 *
 * <p>The load is paced by the test: each instance reads 84 keys a second, every second one a key
 * never read before (a miss: 42 reads/s reach the database every day, 84 % of a share of 50/s),
 * the others ten hot keys. While the cache is down every read falls back to the database (84/s
 * against the share's 50/s).
 */
@ExtendWith(OutputCaptureExtension.class)
class FleetThroughAnOutageTest {
  private static final double BUDGET = 100;
  private static final double SHARE = BUDGET / 2;
  private static final int READS_PER_SECOND = 84;
  private static final Duration SETTLE = Duration.ofSeconds(3);
  /**
   * One instance's breaker tries the cache again after 1 s, the other's after 6 s: they close
   * apart, as two breakers whose trial calls come at different moments do.
   */
  private static final Duration WAIT_ONE = Duration.ofSeconds(1);
  private static final Duration WAIT_TWO = Duration.ofSeconds(6);
  private static final long ORIGIN = System.nanoTime();
  /**
   * The first instance's breaker window (and its minimum calls), 20; the second's is twice that,
   * so that it opens later and its flag opens with the first one's published trip, the path of
   * item 5. Resilience4j's default is 100: to see the first second with it,
   * {@code -Dfleet.breaker-window=100}.
   */
  private static final int BREAKER_WINDOW = Integer.getInteger("fleet.breaker-window", 20);

  /** The application: a pool, Resilience4j's breakers and Sluice, as Boot configures them. */
  @SpringBootConfiguration
  @ImportAutoConfiguration({DataSourceAutoConfiguration.class,
      CircuitBreakerAutoConfiguration.class, SluiceAutoConfiguration.class})
  static class App {}

  @Test
  void fleetOfTwo_throughACacheOutage_holdsItsFlagAndItsBudget(CapturedOutput output)
      throws Exception {
    String name = "fleet-" + UUID.randomUUID().toString().substring(0, 6);
    int cachePort = freePort();
    RedisServer cache = cacheServer(cachePort);
    cache.start();
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        EmbeddedRedis coordination = EmbeddedRedis.start();
        Instances both = Instances.start(
            () -> Instance.start("one", postgres, coordination.uri(), name, cachePort,
                WAIT_ONE, BREAKER_WINDOW),
            () -> Instance.start("two", postgres,
                coordination.uri().replace("127.0.0.1", "localhost"), name, cachePort,
                WAIT_TWO, 2 * BREAKER_WINDOW));
        Watcher watcher = new Watcher(both.one, both.two)) {
      Instance one = both.one;
      Instance two = both.two;
      one.load.start();
      two.load.start();
      watcher.start();

      // --- everyday: two instances, the flag closed, 42 misses/s each ---
      waitUntil("both instances count two live instances and limit nothing",
          Duration.ofSeconds(15), () -> one.everydayReady() && two.everydayReady());
      one.load.awaitRequests(3 * READS_PER_SECOND, Duration.ofSeconds(10));
      two.load.awaitRequests(3 * READS_PER_SECOND, Duration.ofSeconds(10));
      // the case where the hold never ended: everyday misses per instance at 80 % of the share
      // or more, over the last two seconds (a machine busy with other builds may take a while
      // to reach the pace: once 26.5/s of 42 in the first two seconds)
      waitUntil("the everyday misses per instance reach 80 % of the share",
          Duration.ofSeconds(20), () -> {
            long now = System.nanoTime();
            long from = now - TimeUnit.SECONDS.toNanos(2);
            return Math.min(one.dbReadsPerSecond(from, now), two.dbReadsPerSecond(from, now))
                >= 0.8 * SHARE;
          });
      long now = System.nanoTime();
      double everydayOne = one.dbReadsPerSecond(now - TimeUnit.SECONDS.toNanos(2), now);
      double everydayTwo = two.dbReadsPerSecond(now - TimeUnit.SECONDS.toNanos(2), now);

      // --- (c) two busy threads on a 2-core machine: no flag flaps ---
      int changesBefore = watcher.changes();
      int unreachableBefore = count(output, "is unreachable for the breaker flag's reads");
      long burnStart = System.nanoTime();
      watcher.measuring = true;
      try (Burners burners = Burners.start(2); Jedis operator = coordination.client()) {
        one.load.awaitRequests(one.load.requests() + 2 * READS_PER_SECOND,
            Duration.ofSeconds(20));
        // and the slowest flag read the issue saw (1.1 s) on top: the coordinating Redis pauses
        operator.sendCommand(() -> "DEBUG".getBytes(StandardCharsets.US_ASCII),
            "SLEEP", "1.0");
        one.load.awaitRequests(one.load.requests() + 2 * READS_PER_SECOND,
            Duration.ofSeconds(20));
      }
      watcher.measuring = false;
      long burn = System.nanoTime() - burnStart;
      assertThat(watcher.changesSince(changesBefore)).as("flag or limiting changes while two"
          + " threads held the CPU busy").isEmpty();
      assertThat(count(output, "is unreachable for the breaker flag's reads"))
          .as("unreachable WARNs while the CPU was busy").isEqualTo(unreachableBefore);

      // --- the outage: the cache dies ---
      long killed = System.nanoTime();
      cache.stop();
      waitUntil("both breakers open and both instances limiting", Duration.ofSeconds(10),
          () -> one.breakerOpen() && two.breakerOpen() && one.flagOpen() && two.flagOpen()
              && two.breakerOpenedAt() != Long.MIN_VALUE);
      // the outage runs two seconds' reads, or until the second breaker has been open 2 s: its
      // 6 s in the open state must leave the first one time to close while it waits (beside two
      // burners the reads once took 4.5 s, and the first closed 0.3 s before the second)
      long cacheBackBy = two.breakerOpenedAt() + TimeUnit.SECONDS.toNanos(2);
      long outageReads = one.load.requests() + 2 * READS_PER_SECOND;
      waitUntil("two seconds' reads in the outage, or the second breaker open 2 s",
          Duration.ofSeconds(10),
          () -> one.load.requests() >= outageReads || System.nanoTime() >= cacheBackBy);

      // --- the cache comes back, empty; the first breaker closes, the second waits 6 s ---
      cache = cacheServer(cachePort);
      cache.start();
      waitUntil("the first instance's breaker closes", Duration.ofSeconds(10),
          () -> one.breaker.getState() == State.CLOSED);
      long firstClosed = System.nanoTime();
      // (a) while the second breaker is open, both flags stay open (limiting, not recovering)
      while (two.breaker.getState() != State.CLOSED) {
        assertThat(one.flagOpen() && two.flagOpen()).as("the fleet's flag while the second"
            + " instance's breaker is " + two.breaker.getState()).isTrue();
        assertThat(System.nanoTime() - firstClosed).as("the second breaker closes")
            .isLessThan(TimeUnit.SECONDS.toNanos(15));
        LockSupport.parkNanos(1_000_000);
      }
      long secondClosed = System.nanoTime();
      assertThat(secondClosed - firstClosed).as("a window in which only one breaker was open")
          .isGreaterThan(TimeUnit.SECONDS.toNanos(1));

      // (b) the hold ends within the settle (and the windows it counts in) of demand returning
      waitUntil("both recovery holds end", SETTLE.plusSeconds(10),
          () -> !one.limiting() && !two.limiting());
      one.load.awaitRequests(one.load.requests() + READS_PER_SECOND / 2, Duration.ofSeconds(5));
      watcher.close();
      one.load.close();
      two.load.close();

      Report report = new Report(watcher, killed, burn, everydayOne, everydayTwo, one, two);
      System.out.println(report);
      for (Instance i : List.of(one, two)) {
        // demand is back once this instance's breaker has closed (its reads go to the cache
        // again) and the hold has begun (the fleet's flag closed: the second breaker closed)
        long returned = Math.max(i.breakerClosedAt(), report.flagClosedAt(i));
        long ended = report.holdEndedAt(i);
        assertThat(ended).as(i.id + ": a hold began and ended").isNotEqualTo(Long.MAX_VALUE);
        // the settle, plus the hold's one-second windows (the first finishes a second in, and
        // the empty cache's first misses may make the second one a fall), plus room for the
        // call that sees the end on a busy machine (5.007 s against 5 s beside two burners);
        // the rule before this never ended them at all
        assertThat(Duration.ofNanos(ended - returned)).as(i.id + ": hold end after demand"
            + " returned to its everyday level")
            .isLessThanOrEqualTo(SETTLE.plusSeconds(2).plusMillis(500));
      }
      assertThat(count(output, "demand here stopped falling at about")).as("every hold ended"
          + " by the steady-demand rule: the quiet rule alone never ended them")
          .isPositive().isEqualTo(count(output, "recovery ended after"));

      // item 5: what Sluice answers for in the first second after the first breaker opened
      for (Instance i : List.of(one, two)) {
        assertThat(report.beforeOwnFlag(i)).as(i.id + ": database reads between the first"
            + " breaker opening and this instance's flag opening: at most one refresh's worth")
            .isLessThanOrEqualTo((int) Math.ceil(READS_PER_SECOND * 0.25) + 1);
        assertThat(report.limitedFirstSecond(i)).as(i.id + ": reads admitted in the first"
            + " second after its flag opened: its share plus its burst")
            .isLessThanOrEqualTo((int) SHARE + (int) Math.ceil(SHARE / 10) + 1);
      }
      assertThat(report.fleetFirstSecondAfterFirstOpen()).as("the fleet's first second after"
          + " the first breaker opened: the budget, the bursts, and the reads before each flag")
          .isLessThanOrEqualTo((int) BUDGET + 2 * ((int) Math.ceil(SHARE / 10) + 1)
              + report.beforeOwnFlag(one) + report.beforeOwnFlag(two));
    } finally {
      if (cache.isActive()) {
        cache.stop();
      }
    }
  }

  // --- the application: a cache behind a breaker, the database behind Sluice ---

  /** One application: its context, its cache reads, its database reads and its load. */
  static final class Instance implements AutoCloseable {
    final String id;
    final ConfigurableApplicationContext context;
    final RateLimitedDataSource sluice;
    final DataSource dataSource;
    final CircuitBreaker breaker;
    final JedisPool cache;
    final Load load;
    /** When each database read was sent, nanoTime; written by the load's one thread. */
    private final long[] dbReads = new long[20_000];
    /** Volatile: written after the array, so a reader sees the reads it counts. */
    private volatile int dbReadCount;
    private final AtomicLong refused = new AtomicLong();
    final List<long[]> breakerMoves = new CopyOnWriteArrayList<>(); // {time, state ordinal}
    private long sequence;

    private Instance(String id, ConfigurableApplicationContext context, int cachePort) {
      this.id = id;
      this.context = context;
      this.dataSource = context.getBean(DataSource.class);
      try {
        this.sluice = dataSource.unwrap(RateLimitedDataSource.class);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      this.breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("cache");
      breaker.getEventPublisher().onStateTransition(event -> breakerMoves.add(new long[] {
          System.nanoTime(), event.getStateTransition().getToState().ordinal()}));
      JedisPoolConfig pool = new JedisPoolConfig();
      pool.setMaxTotal(4);
      this.cache = new JedisPool(pool, "127.0.0.1", cachePort, 200);
      this.load = new Load(id, this::read);
    }

    /**
     * Held while an application starts: Spring Boot's logging system is the JVM's, and each
     * application initializes it as it starts; two at once raced ("Unable to find Spring
     * Environment in logger context", once in a fresh clone's CI).
     */
    private static final Object STARTING = new Object();

    static Instance start(String id, EmbeddedPostgres postgres, String redis, String name,
        int cachePort, Duration breakerWait, int breakerWindow) {
      synchronized (STARTING) {
        return new Instance(id, application(id, postgres, redis, name, breakerWait,
            breakerWindow), cachePort);
      }
    }

    private static ConfigurableApplicationContext application(String id,
        EmbeddedPostgres postgres, String redis, String name, Duration breakerWait,
        int breakerWindow) {
      return new SpringApplicationBuilder(App.class)
          .web(WebApplicationType.NONE)
          .properties(
              "spring.application.name=" + id,
              "spring.datasource.url=jdbc:postgresql://127.0.0.1:" + postgres.getPort()
                  + "/postgres",
              "spring.datasource.username=postgres",
              "spring.datasource.hikari.maximum-pool-size=4",
              "spring.jmx.enabled=false",
              "sluice.name=" + name,
              "sluice.budget=" + (int) BUDGET,
              "sluice.jmx=false",
              "sluice.redis=" + redis,
              "sluice.instances=redis",
              "sluice.instances.assumed=2",
              "sluice.circuit-breaker=cache",
              "sluice.circuit-breaker.publish=true",
              "sluice.recovery.settle=" + SETTLE.toSeconds() + "s",
              "resilience4j.circuitbreaker.instances.cache.sliding-window-type=COUNT_BASED",
              "resilience4j.circuitbreaker.instances.cache.sliding-window-size=" + breakerWindow,
              "resilience4j.circuitbreaker.instances.cache.minimum-number-of-calls="
                  + breakerWindow,
              "resilience4j.circuitbreaker.instances.cache.failure-rate-threshold=50",
              "resilience4j.circuitbreaker.instances.cache.permitted-number-of-calls-in-half-open"
                  + "-state=3",
              "resilience4j.circuitbreaker.instances.cache.wait-duration-in-open-state="
                  + breakerWait.toMillis() + "ms")
          .run();
    }

    /** One read of the application: the cache through the breaker, else the database. */
    private void read() {
      long n = sequence++;
      String key = n % 2 == 0 ? "new-" + id + "-" + n : "hot-" + (n / 2 % 10);
      String cached;
      boolean cacheAnswered;
      try {
        cached = breaker.executeCallable(() -> {
          try (Jedis jedis = cache.getResource()) {
            return jedis.get(key);
          }
        });
        cacheAnswered = true;
      } catch (Exception e) { // the cache failed, or the breaker refused to try it
        cached = null;
        cacheAnswered = false;
      }
      if (cached != null) {
        return;
      }
      long sent = System.nanoTime();
      String value;
      try (Connection c = dataSource.getConnection();
          PreparedStatement s = c.prepareStatement("select 'value of ' || ?")) {
        s.setString(1, key);
        try (ResultSet rs = s.executeQuery()) {
          rs.next();
          value = rs.getString(1);
        }
      } catch (RateLimitExceededException e) {
        refused.incrementAndGet();
        return;
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      dbReads[dbReadCount] = sent;
      dbReadCount = dbReadCount + 1; // one writer: the load's thread
      if (cacheAnswered) {
        try {
          breaker.executeRunnable(() -> {
            try (Jedis jedis = cache.getResource()) {
              jedis.setex(key, 60, value);
            }
          });
        } catch (Exception e) {
          // the cache failed between the read and the write: the next read misses again
        }
      }
    }

    boolean everydayReady() {
      Stats s = sluice.stats();
      return s.liveInstances() == 2 && s.instances() == 2 && !s.limiting()
          && s.flagState() == FlagState.CLOSED;
    }

    boolean breakerOpen() {
      return breaker.getState() == State.OPEN;
    }

    /** The flag itself: limiting and not recovering. */
    boolean flagOpen() {
      Stats s = sluice.stats();
      return s.limiting() && !s.recovering();
    }

    boolean limiting() {
      return sluice.stats().limiting();
    }

    /** Read only once the load has stopped. */
    double dbReadsPerSecond(long from, long to) {
      return dbReadsBetween(from, to) * 1e9 / (to - from);
    }

    int dbReadsBetween(long from, long to) {
      int n = 0;
      for (int i = 0; i < dbReadCount; i++) {
        if (dbReads[i] >= from && dbReads[i] < to) {
          n++;
        }
      }
      return n;
    }

    long breakerMovedAt(State to, long after) {
      for (long[] move : breakerMoves) {
        if (move[1] == to.ordinal() && move[0] >= after) {
          return move[0];
        }
      }
      return Long.MAX_VALUE;
    }

    /** When the breaker last opened; {@code Long.MIN_VALUE}: never. */
    long breakerOpenedAt() {
      return lastMoveTo(State.OPEN);
    }

    /** When the breaker last closed; {@code Long.MIN_VALUE}: never. */
    long breakerClosedAt() {
      return lastMoveTo(State.CLOSED);
    }

    private long lastMoveTo(State state) {
      long at = Long.MIN_VALUE;
      for (long[] move : breakerMoves) {
        if (move[1] == state.ordinal()) {
          at = move[0];
        }
      }
      return at;
    }

    @Override
    public void close() {
      load.close();
      context.close();
      cache.close();
    }
  }

  /**
   * Two instances started side by side (each start takes seconds; their applications' own
   * starts one at a time, {@link Instance#start}), closed together.
   */
  record Instances(Instance one, Instance two) implements AutoCloseable {
    static Instances start(Supplier<Instance> one, Supplier<Instance> two) throws Exception {
      CompletableFuture<Instance> second = CompletableFuture.supplyAsync(two);
      Instance first;
      try {
        first = one.get();
      } catch (RuntimeException e) {
        second.thenAccept(Instance::close);
        throw e;
      }
      try {
        return new Instances(first, second.get());
      } catch (ExecutionException e) {
        first.close();
        throw e;
      }
    }

    @Override
    public void close() {
      try (Instance a = one; Instance b = two) {
        a.load.close();
        b.load.close();
      }
    }
  }

  /** Runs one read after another at {@link #READS_PER_SECOND}, on a thread of its own. */
  static final class Load implements AutoCloseable {
    private final Thread thread;
    private volatile boolean stop;
    private final AtomicLong requests = new AtomicLong();

    Load(String id, Runnable read) {
      this.thread = new Thread(() -> run(read), "load-" + id);
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    private void run(Runnable read) {
      long period = TimeUnit.SECONDS.toNanos(1) / READS_PER_SECOND;
      long next = System.nanoTime();
      while (!stop) {
        next += period;
        long late = System.nanoTime() - next;
        if (late < 0) {
          LockSupport.parkNanos(-late); // the load's own pacing
        } else if (late > TimeUnit.MILLISECONDS.toNanos(250)) {
          next = System.nanoTime(); // a stall: drop the backlog rather than burst it
        }
        read.run();
        requests.incrementAndGet();
      }
    }

    long requests() {
      return requests.get();
    }

    void awaitRequests(long count, Duration limit) {
      waitUntil("the load reaches " + count + " requests", limit,
          () -> requests.get() >= count);
    }

    @Override
    public void close() {
      stop = true;
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Samples both instances every millisecond and keeps each change, with its time. */
  static final class Watcher implements AutoCloseable {
    /** {time, instance (0/1), limiting, recovering, flag state ordinal}. */
    private final List<long[]> changes = new CopyOnWriteArrayList<>();
    private final Instance[] instances;
    private final Thread thread;
    private volatile boolean stop;
    private volatile long longestSinceRead;
    private volatile boolean measuring;

    Watcher(Instance... instances) {
      this.instances = instances;
      this.thread = new Thread(this::run, "watcher");
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    private void run() {
      long[][] last = new long[instances.length][];
      while (!stop) {
        for (int i = 0; i < instances.length; i++) {
          Stats s = instances[i].sluice.stats();
          long[] now = {System.nanoTime(), i, s.limiting() ? 1 : 0, s.recovering() ? 1 : 0,
              s.flagState().ordinal()};
          if (last[i] == null || last[i][2] != now[2] || last[i][3] != now[3]
              || last[i][4] != now[4]) {
            if (last[i] != null) {
              changes.add(now);
            }
            last[i] = now;
          }
          if (measuring) {
            longestSinceRead = Math.max(longestSinceRead, s.sinceFlagRead().toNanos());
          }
        }
        LockSupport.parkNanos(1_000_000);
      }
    }

    int changes() {
      return changes.size();
    }

    List<String> changesSince(int index) {
      List<String> shown = new ArrayList<>();
      for (long[] c : changes.subList(index, changes.size())) {
        shown.add(show(c));
      }
      return shown;
    }

    String show(long[] c) {
      return String.format(Locale.ROOT, "%.3f s %s limiting=%d recovering=%d flag=%s",
          (c[0] - ORIGIN) / 1e9, instances[(int) c[1]].id, c[2], c[3],
          FlagState.values()[(int) c[4]]);
    }

    /** The first change of {@code instance} after {@code after} that {@code matches}. */
    long first(int instance, long after, java.util.function.Predicate<long[]> matches) {
      for (long[] c : changes) {
        if (c[1] == instance && c[0] >= after && matches.test(c)) {
          return c[0];
        }
      }
      return Long.MAX_VALUE;
    }

    @Override
    public void close() {
      stop = true;
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The run's figures, from the records of the load, the breakers and the watcher. */
  static final class Report {
    private final Watcher watcher;
    private final long killed;
    private final long burn;
    private final double[] everyday;
    private final Instance[] instances;
    private final long firstBreakerOpen;

    Report(Watcher watcher, long killed, long burn, double everydayOne, double everydayTwo,
        Instance... instances) {
      this.watcher = watcher;
      this.everyday = new double[] {everydayOne, everydayTwo};
      this.killed = killed;
      this.burn = burn;
      this.instances = instances;
      long first = Long.MAX_VALUE;
      for (Instance i : instances) {
        first = Math.min(first, i.breakerMovedAt(State.OPEN, killed));
      }
      this.firstBreakerOpen = first;
    }

    private int index(Instance i) {
      return i == instances[0] ? 0 : 1;
    }

    long flagOpenedAt(Instance i) {
      return watcher.first(index(i), killed, c -> c[2] == 1 && c[3] == 0);
    }

    long flagClosedAt(Instance i) {
      return watcher.first(index(i), killed, c -> c[3] == 1);
    }

    long holdEndedAt(Instance i) {
      return watcher.first(index(i), flagClosedAt(i), c -> c[2] == 0);
    }

    int beforeOwnFlag(Instance i) {
      return i.dbReadsBetween(firstBreakerOpen, flagOpenedAt(i));
    }

    /** The fleet's database reads in the first second after the first breaker opened. */
    int fleetFirstSecondAfterFirstOpen() {
      int n = 0;
      for (Instance i : instances) {
        n += i.dbReadsBetween(firstBreakerOpen, firstBreakerOpen + TimeUnit.SECONDS.toNanos(1));
      }
      return n;
    }

    int limitedFirstSecond(Instance i) {
      long from = flagOpenedAt(i);
      return i.dbReadsBetween(from, from + TimeUnit.SECONDS.toNanos(1));
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("FleetThroughAnOutageTest figures (times from the"
          + " cache's death; budget " + (int) BUDGET + "/s, share " + (int) SHARE + "/s, "
          + READS_PER_SECOND + " reads/s per instance, every second one a miss; breaker windows "
          + BREAKER_WINDOW + " and " + 2 * BREAKER_WINDOW + ", opening at 50 % failures)\n");
      b.append(String.format(Locale.ROOT, "  CPU burn: %.1f s with 2 busy threads, the"
          + " coordinating Redis paused 1.0 s in it; longest flag-read age seen %d ms%n", burn / 1e9,
          TimeUnit.NANOSECONDS.toMillis(watcher.longestSinceRead)));
      long second = TimeUnit.SECONDS.toNanos(1);
      int fleetFirstSecond = 0;
      int fleetAfterFirstOpen = 0;
      for (Instance i : instances) {
        long open = i.breakerMovedAt(State.OPEN, killed);
        long flag = flagOpenedAt(i);
        int detection = i.dbReadsBetween(killed, Math.min(open, firstBreakerOpen));
        int gap = i.dbReadsBetween(firstBreakerOpen, flag);
        int limited = i.dbReadsBetween(flag, killed + second);
        int burst = i.dbReadsBetween(flag, flag + second / 10);
        fleetFirstSecond += i.dbReadsBetween(killed, killed + second);
        fleetAfterFirstOpen += i.dbReadsBetween(firstBreakerOpen, firstBreakerOpen + second);
        b.append(String.format(Locale.ROOT, "  %s: breaker open at %s, flag open at %s;"
            + " first second's database reads: %d before any breaker opened (the breaker"
            + " counting failures), %d between the first breaker opening and this flag"
            + " opening, %d limited (%d in the first 100 ms of limiting); everyday %.1f/s"
            + " (before the burn);"
            + " refused in all %d%n", i.id, ms(open), ms(flag), detection, gap, limited, burst,
            everyday[index(i)], i.refused.get()));
        b.append(String.format(Locale.ROOT, "  %s: breaker closed at %s, flag closed at %s,"
            + " hold ended at %s%n", i.id, ms(i.breakerClosedAt()), ms(flagClosedAt(i)),
            ms(holdEndedAt(i))));
      }
      b.append(String.format(Locale.ROOT, "  fleet: %d database reads in the first second of"
          + " the outage, %d in the first second after the first breaker opened (budget %d)%n",
          fleetFirstSecond, fleetAfterFirstOpen, (int) BUDGET));
      b.append("  changes seen:\n");
      for (String c : watcher.changesSince(0)) {
        b.append("    ").append(c).append('\n');
      }
      return b.toString();
    }

    private String ms(long at) {
      return at == Long.MAX_VALUE || at == Long.MIN_VALUE ? "never"
          : String.format(Locale.ROOT, "%+d ms", TimeUnit.NANOSECONDS.toMillis(at - killed));
    }
  }

  /** Threads that keep a core busy each, until closed. */
  static final class Burners implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;
    static volatile long sink;

    static Burners start(int count) {
      Burners burners = new Burners();
      for (int i = 0; i < count; i++) {
        Thread t = new Thread(() -> {
          long x = 0;
          while (!burners.stop) {
            x = x * 6364136223846793005L + 1442695040888963407L;
          }
          sink = x;
        }, "burner-" + i);
        t.setDaemon(true);
        burners.threads.add(t);
        t.start();
      }
      return burners;
    }

    @Override
    public void close() throws InterruptedException {
      stop = true;
      for (Thread t : threads) {
        t.join();
      }
    }
  }

  private static RedisServer cacheServer(int port) throws IOException {
    return RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
        .setting("appendonly no").build();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static int count(CapturedOutput output, String text) {
    String all = output.getAll();
    int n = 0;
    for (int at = all.indexOf(text); at >= 0; at = all.indexOf(text, at + 1)) {
      n++;
    }
    return n;
  }

  static void waitUntil(String what, Duration limit, BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + limit.toMillis() + " ms: " + what);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }
}
