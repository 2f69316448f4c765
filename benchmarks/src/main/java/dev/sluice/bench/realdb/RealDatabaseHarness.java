package dev.sluice.bench.realdb;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.PoolSizeDefault;
import dev.sluice.internal.limit.Concurrency;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * The adaptive concurrency cap against its peers on a real database: an embedded PostgreSQL on
 * this machine, a HikariCP pool of 32 ({@code --pool N}: N), a CPU-bound statement, open-loop
 * Poisson arrivals and a {@value #DEADLINE_MILLIS}&nbsp;ms deadline. Every variant drives the same
 * {@code ConcurrencyGate} in front of the pool: no cap, a sweep of fixed caps, Sluice's
 * {@code auto}, and Netflix concurrency-limits' Vegas and Gradient2 bounded to the pool.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.sluice.bench.realdb.RealDatabaseHarness [--seed 1] [--quick] [--pool 10] [--rounds 4]
 * </pre>
 *
 * <p>The scenario, after a calibration that finds the statement's size (about
 * {@value #TARGET_MILLIS}&nbsp;ms alone) and the database's capacity C (statements a second,
 * closed loop at eight in flight): light (C/2, {@code 3 s}), 2&times; ({@code 3 s}), 3&times;
 * ({@code 3 s}), capacity halved (every statement twice as costly, 3&times;C asked: six times what
 * it can do, {@code 6 s}), light again ({@code 3 s}). Each statement's cost is drawn from
 * 0.6&ndash;1.4&times; the calibrated one (3&ndash;7&nbsp;ms). A statement that has not answered
 * {@value #DEADLINE_MILLIS}&nbsp;ms after its arrival is lost to its caller (the session's
 * {@code statement_timeout} cancels it in the database; the pool's timeout ends a wait for a
 * connection), and counts as an overload error for the controllers.
 *
 * <p>Two variants of the host: <b>quiet</b> (whatever else runs on the machine) and <b>noisy</b>
 * (a neighbour of {@value #NEIGHBOURS} threads in this JVM that spin and sleep at random, 2&ndash;30
 * ms each, competing with the database for the CPU). The runs are interleaved: every gate runs the
 * quiet scenario then the noisy one before the next gate starts, so a busy spell of the machine
 * lands on neighbouring runs rather than on one gate's. Every run of a round faces the same arrivals
 * and costs (one {@link SplittableRandom} seeded by {@code --seed} plus the round). With
 * {@code --rounds N} the sequence runs N times, the gates' order rotated by three places each
 * round, and the report ends with each gate's mean over the rounds: one round's cells differ by
 * &plusmn;30&nbsp;% on this machine, too much to judge a target on.
 *
 * <p>Output: a markdown report on stdout and in {@code benchmarks/target/realdb/report.md}, the
 * per-bin traces in {@code traces.csv}, and the caps as a chart in {@code caps.svg}.
 *
 * <p>This class is not threadsafe; it is a main.
 */
public final class RealDatabaseHarness {

  static final String SQL = "SELECT sum(hashint4(g)) FROM generate_series(1, ?) AS g";
  /** The pool's size: 32, or {@code --pool N}. Set once by {@link #main}, before anything runs. */
  static int pool = 32;
  /** {@code --auto-max N}: auto's maximum instead of the pool's size; 0: the pool's size. */
  static int autoMaxOption;
  static final long DEADLINE_MILLIS = 300;
  static final double TARGET_MILLIS = 5;
  static final int NEIGHBOURS = 3;
  static final int[] FIXED_CAPS = {4, 6, 8, 16, 24};
  static final long SECOND = 1_000_000_000L;

  /** One phase: its length, the arrivals as a multiple of the capacity, the statements' cost. */
  record Phase(String name, double seconds, double load, double cost) {
    long nanos() {
      return (long) (seconds * SECOND);
    }
  }

  static final List<Phase> PHASES = List.of(
      new Phase("light", 3, 0.5, 1),
      new Phase("2x", 3, 2, 1),
      new Phase("3x", 3, 3, 1),
      new Phase("halved", 6, 3, 2),
      new Phase("light again", 3, 0.5, 1));
  static final int LIGHT = 0;
  static final int THREE_X = 2;
  static final int HALVED = 3;
  static final int LIGHT_AGAIN = 4;
  static final int[] OVERLOAD = {1, 2, 3};

  /** The statements of one scenario: when each arrives (from the start), and its size. */
  record Schedule(long[] offsets, int[] sizes, int[] phases, int[] perPhase) {}

  private final HikariDataSource dataSource;
  private final ThreadPoolExecutor callers;

  private RealDatabaseHarness(HikariDataSource dataSource) {
    this.dataSource = dataSource;
    this.callers = new ThreadPoolExecutor(64, 1024, 30, TimeUnit.SECONDS, new SynchronousQueue<>());
    callers.prestartAllCoreThreads();
  }

  /**
   * Runs the comparison and prints the report.
   *
   * @param args {@code --seed N} (default 1); {@code --quick}: phases a third as long (a smoke
   *     test, not a measurement); {@code --size N}: the statement's series length instead of the
   *     calibrated one (to compare runs); {@code --pool N}: the pool's size (default 32);
   *     {@code --rounds N}: the whole sequence N times (default 1); {@code --auto-max N}: auto's
   *     maximum instead of the pool's size (issue 35: a maximum above what the pool can run)
   */
  public static void main(String[] args) throws Exception {
    long seed = 1;
    double scale = 1;
    int fixedSize = 0;
    int rounds = 1;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--seed")) {
        seed = Long.parseLong(args[++i]);
      } else if (args[i].equals("--quick")) {
        scale = 1 / 3.0;
      } else if (args[i].equals("--pool")) {
        pool = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--size")) {
        fixedSize = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--auto-max")) {
        autoMaxOption = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--rounds")) {
        rounds = Integer.parseInt(args[++i]);
        if (rounds < 1) {
          throw new IllegalArgumentException("--rounds must be at least 1, but was " + rounds);
        }
      } else {
        throw new IllegalArgumentException("unknown option " + args[i] + "; the options are"
            + " --seed N, --quick, --pool N, --size N, --rounds N and --auto-max N");
      }
    }
    List<Phase> phases = scaled(PHASES, scale);
    Path out = Path.of((pool == 32 ? "benchmarks/target/realdb"
        : "benchmarks/target/realdb-pool" + pool)
        + (autoMaxOption > 0 ? "-automax" + autoMaxOption : ""));
    Files.createDirectories(out);
    Path dataDir = Files.createTempDirectory("sluice-realdb");
    try (EmbeddedPostgres pg = start(dataDir)) {
      try (HikariDataSource dataSource = dataSource(pg)) {
        new RealDatabaseHarness(dataSource).runAll(seed, phases, fixedSize, rounds, out);
      }
    }
  }

  private static List<Phase> scaled(List<Phase> phases, double scale) {
    List<Phase> scaled = new ArrayList<>();
    for (Phase p : phases) {
      scaled.add(new Phase(p.name(), p.seconds() * scale, p.load(), p.cost()));
    }
    return scaled;
  }

  private void runAll(long seed, List<Phase> phases, int fixedSize, int rounds, Path out)
      throws Exception {
    Report report = new Report(phases);
    double loadBefore = Report.loadAverage();
    fillPool();
    int size = fixedSize > 0 ? fixedSize : calibrateSize();
    double capacity = capacity(size);
    report.calibrated(size, TARGET_MILLIS, capacity, loadBefore);
    List<Phase> warmUp = scaled(phases.subList(0, 2), 0.5);
    run(schedule(seed, warmUp, size, capacity), warmUp, "warm-up", Gate.fixed(8)); // the JIT
    List<IntFunction<Gate>> gates = new ArrayList<>();
    gates.add(max -> Gate.none());
    for (int cap : FIXED_CAPS) {
      if (cap < pool) {
        gates.add(max -> Gate.fixed(cap));
      }
    }
    if (pool < FIXED_CAPS[FIXED_CAPS.length - 1]) {
      gates.add(max -> Gate.fixed(pool));
    }
    // auto's maximum is sluice.concurrency.max's default: the pool's size, as Sluice reads it
    int autoMax = autoMaxOption > 0 ? autoMaxOption : PoolSizeDefault.of(dataSource);
    report.autoMax(autoMax);
    gates.add(max -> Gate.sluice(autoMax > 0 ? autoMax : 100));
    gates.add(Gate::gradient2);
    gates.add(Gate::vegas);
    List<List<Tally>> all = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      // each round its own arrivals, and its own order: a gate that ran last in one round runs
      // earlier in the next, so neither a busy spell nor the round's position favours one gate;
      // the tallies keep the gates' order, for the tables
      Schedule schedule = schedule(seed + round, phases, size, capacity);
      Tally[] tallies = new Tally[2 * gates.size()];
      for (int g = 0; g < gates.size(); g++) {
        int next = (g + round * 3) % gates.size();
        IntFunction<Gate> gate = gates.get(next);
        tallies[2 * next] = run(schedule, phases, "quiet", gate.apply(pool));
        tallies[2 * next + 1] =
            withNeighbour(() -> run(schedule, phases, "noisy", gate.apply(pool)));
      }
      all.add(List.of(tallies));
    }
    report.finish(all, Report.loadAverage(), out);
    callers.shutdown();
  }

  // --- the database ---

  private static EmbeddedPostgres start(Path dataDir) throws IOException {
    return EmbeddedPostgres.builder()
        .setPort(freePort())
        .setDataDirectory(dataDir)
        .setCleanDataDirectory(true)
        .setServerConfig("max_connections", "100")
        .setServerConfig("fsync", "off")
        .setServerConfig("synchronous_commit", "off")
        .start();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static HikariDataSource dataSource(EmbeddedPostgres pg) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
    config.setMaximumPoolSize(pool);
    config.setMinimumIdle(pool);
    config.setConnectionTimeout(250); // HikariCP's least: a wait for a connection ends by then
    config.setInitializationFailTimeout(-1);
    config.setConnectionInitSql("SET statement_timeout = " + DEADLINE_MILLIS);
    config.setPoolName("realdb");
    return new HikariDataSource(config);
  }

  /**
   * The series length whose statement takes about TARGET_MILLIS alone: the fastest of 30 runs, not
   * their median, which on a loaded host measures the scheduler's delays more than the statement
   * (a median-calibrated statement came out ten times too light under a load average of 30).
   */
  private int calibrateSize() throws SQLException {
    int size = 20_000;
    for (int round = 0; round < 3; round++) {
      double fastest = Double.MAX_VALUE;
      for (int i = 0; i < 30; i++) {
        long start = System.nanoTime();
        execute(size);
        fastest = Math.min(fastest, (System.nanoTime() - start) / 1e6);
      }
      size = (int) (size * TARGET_MILLIS / fastest);
    }
    return size;
  }

  /** Holds every connection of the pool at once, so that none is still being opened later. */
  private void fillPool() throws SQLException {
    List<Connection> held = new ArrayList<>();
    try {
      for (int tries = 0; held.size() < pool; tries++) {
        try {
          held.add(dataSource.getConnection());
        } catch (java.sql.SQLTransientConnectionException e) {
          if (tries > 200) {
            throw e; // 50 s without a connection: the database is not there
          }
        }
      }
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
  }

  /** Statements a second the database completes in a closed loop at eight in flight, over 3 s. */
  private double capacity(int size) throws InterruptedException {
    long end = System.nanoTime() + 3 * SECOND;
    int[] done = new int[8];
    Thread[] threads = new Thread[done.length];
    for (int t = 0; t < threads.length; t++) {
      int me = t;
      threads[t] = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(me);
        while (System.nanoTime() < end) {
          try {
            execute((int) (size * (0.6 + 0.8 * random.nextDouble())));
            done[me]++;
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        }
      });
      threads[t].start();
    }
    int total = 0;
    for (int t = 0; t < threads.length; t++) {
      threads[t].join();
      total += done[t];
    }
    return total / 3.0;
  }

  private void execute(int size) throws SQLException {
    try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(SQL)) {
      ps.setInt(1, size);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
      }
    }
  }

  // --- the scenario ---

  static long durationNanos(List<Phase> phases) {
    long total = 0;
    for (Phase p : phases) {
      total += p.nanos();
    }
    return total;
  }

  static Schedule schedule(long seed, List<Phase> phases, int size, double capacity) {
    SplittableRandom random = new SplittableRandom(seed);
    List<long[]> arrivals = new ArrayList<>();
    int[] perPhase = new int[phases.size()];
    long start = 0;
    for (int p = 0; p < phases.size(); p++) {
      Phase phase = phases.get(p);
      double perNano = phase.load() * capacity / SECOND;
      long end = start + phase.nanos();
      for (long t = start + exponential(random, perNano); t < end;
          t += exponential(random, perNano)) {
        long bytes = (long) (size * phase.cost() * (0.6 + 0.8 * random.nextDouble()));
        arrivals.add(new long[] {t, bytes, p});
        perPhase[p]++;
      }
      start = end;
    }
    long[] offsets = new long[arrivals.size()];
    int[] sizes = new int[arrivals.size()];
    int[] phaseOf = new int[arrivals.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = arrivals.get(i)[0];
      sizes[i] = (int) arrivals.get(i)[1];
      phaseOf[i] = (int) arrivals.get(i)[2];
    }
    return new Schedule(offsets, sizes, phaseOf, perPhase);
  }

  private static long exponential(SplittableRandom random, double perNano) {
    return (long) (-Math.log(1 - random.nextDouble()) / perNano);
  }

  /**
   * One gate through the scenario: a dispatcher hands each arrival, at its time, to a caller
   * thread (open loop: a late dispatch still counts from the scheduled arrival); a sampler records
   * the cap every bin. Returns once every admitted statement has ended.
   */
  private Tally run(Schedule schedule, List<Phase> phases, String variant, Gate gate)
      throws InterruptedException {
    Tally tally = new Tally(variant, gate.name(), phases, schedule.perPhase());
    long origin = System.nanoTime() + 50_000_000L;
    AtomicBoolean running = new AtomicBoolean(true);
    Thread sampler = new Thread(() -> sampleCaps(gate, tally, origin, running), "cap-sampler");
    sampler.setDaemon(true);
    sampler.start();
    for (int i = 0; i < schedule.offsets().length; i++) {
      long offset = schedule.offsets()[i];
      long wait = origin + offset - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      int size = schedule.sizes()[i];
      int phase = schedule.phases()[i];
      try {
        callers.execute(() -> serve(gate, tally, origin, offset, phase, size));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        tally.admitted(offset, phase, DEADLINE_MILLIS * 1_000_000L, false, true);
      }
    }
    while (callers.getActiveCount() > 0 || gate.inFlight() > 0) {
      LockSupport.parkNanos(10_000_000L);
    }
    running.set(false);
    sampler.join();
    System.err.printf(Locale.ROOT, "%-6s %-18s done%n", variant, gate.name());
    return tally;
  }

  private static void sampleCaps(Gate gate, Tally tally, long origin, AtomicBoolean running) {
    while (running.get()) {
      long now = System.nanoTime() - origin;
      int bin = Tally.binOf(Math.max(0, now));
      if (bin < tally.caps.length) {
        tally.caps[bin] = gate.limit();
      }
      LockSupport.parkNanos(Tally.BIN_NANOS / 5);
    }
  }

  private void serve(Gate gate, Tally tally, long origin, long offset, int phase, int size) {
    if (!gate.tryAcquire()) {
      tally.refused(offset);
      return;
    }
    int inFlight = gate.inFlight();
    long admitted = System.nanoTime();
    boolean overload = false;
    boolean error = false;
    try {
      execute(size);
    } catch (SQLException e) {
      error = true;
      overload = Concurrency.isOverload(e);
    }
    long end = System.nanoTime();
    gate.onEnd(admitted, end, inFlight, overload);
    long elapsed = end - (origin + offset);
    tally.admitted(offset, phase, elapsed, !error && elapsed <= DEADLINE_MILLIS * 1_000_000L,
        error);
  }

  // --- the noisy neighbour ---

  interface Run {
    Tally run() throws InterruptedException;
  }

  /** Runs {@code run} with NEIGHBOURS threads that burn the CPU in bursts beside it. */
  private static Tally withNeighbour(Run run) throws InterruptedException {
    AtomicBoolean busy = new AtomicBoolean(true);
    Thread[] threads = new Thread[NEIGHBOURS];
    for (int t = 0; t < threads.length; t++) {
      long seed = t;
      threads[t] = new Thread(() -> burn(busy, new SplittableRandom(seed)), "neighbour-" + t);
      threads[t].setDaemon(true);
      threads[t].start();
    }
    try {
      return run.run();
    } finally {
      busy.set(false);
      for (Thread thread : threads) {
        thread.join();
      }
    }
  }

  static volatile long sink;

  private static void burn(AtomicBoolean busy, SplittableRandom random) {
    long x = 1;
    while (busy.get()) {
      long until = System.nanoTime() + (2 + random.nextInt(29)) * 1_000_000L;
      while (System.nanoTime() < until) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      sink = x;
      LockSupport.parkNanos((2 + random.nextInt(29)) * 1_000_000L);
    }
  }
}
