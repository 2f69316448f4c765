package dev.sluice.examples.drill;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what happens in each second of one run: reads offered, served from the cache, missed by
 * it, queries that reached the database, reads the database answered, reads Sluice answered
 * instead of refusing them (and how old those answers were), reads rejected fast by Sluice, reads
 * that timed out waiting for a thread, the database's latency, whether Sluice was limiting, and
 * how far the load generator fell behind its schedule. Each event is counted in the second it
 * happens.
 *
 * <p>This class is threadsafe: every counter is a {@link LongAdder} or {@link LongAccumulator}.
 */
final class Recorder {
  /**
   * Set once by {@link #begin}, before the generator offers anything; every event reaches a
   * worker thread through an executor's queue after that, which orders the write before its reads.
   */
  private volatile long startNanos;
  private final int seconds;
  private final LongAdder[] offered;
  private final LongAdder[] cache;
  private final LongAdder[] missed;
  private final LongAdder[] database;
  private final LongAdder[] rejected;
  private final LongAdder[] served;
  private final LongAdder[] answered;
  private final LongAdder[] joined;
  /** Per second offered and {@link Fate}: what became of the reads offered in it. */
  private final LongAdder[][] fates;
  /** Answers by age: slot {@code i} counts the answers {@code i} ms old (the last: older). */
  private final AtomicLongArray answerAges = new AtomicLongArray(AGE_SLOTS);
  private final LongAdder[] timedOut;
  private final LongAdder[] dbNanos;
  private final LongAdder[] dbDone;
  private final LongAccumulator[] dbMaxNanos;
  private final LongAccumulator[] behindNanos;
  private final LongAdder[] limitingTicks;
  private final LongAdder[] recoveringTicks;
  private final LongAdder[] writes;
  private final LongAdder[] writesServed;
  private final LongAdder[] writesRefused;
  private final LongAdder failed = new LongAdder();
  private final AtomicReference<Exception> firstFailure = new AtomicReference<>();
  private static final int AGE_SLOTS = 60_001;

  /** A recorder whose second 0 starts at {@code startNanos}. */
  Recorder(long startNanos, int seconds) {
    this(seconds);
    begin(startNanos);
  }

  /** A recorder whose clock is set by {@link #begin} once the run is ready to start. */
  Recorder(int seconds) {
    this.seconds = seconds;
    offered = adders(seconds);
    cache = adders(seconds);
    missed = adders(seconds);
    database = adders(seconds);
    rejected = adders(seconds);
    served = adders(seconds);
    answered = adders(seconds);
    joined = adders(seconds);
    fates = new LongAdder[Fate.values().length][];
    for (Fate f : Fate.values()) {
      fates[f.ordinal()] = adders(seconds);
    }
    timedOut = adders(seconds);
    dbNanos = adders(seconds);
    dbDone = adders(seconds);
    limitingTicks = adders(seconds);
    recoveringTicks = adders(seconds);
    writes = adders(seconds);
    writesServed = adders(seconds);
    writesRefused = adders(seconds);
    dbMaxNanos = maxima(seconds);
    behindNanos = maxima(seconds);
  }

  /** Sets the moment second 0 starts ({@code System.nanoTime()}). */
  void begin(long startNanos) {
    this.startNanos = startNanos;
  }

  long startNanos() {
    return startNanos;
  }

  void offered(long now) {
    offered[slot(now)].increment();
  }

  void cache(long now) {
    cache[slot(now)].increment();
  }

  /** A read found the cache up but not the key: it goes to the database. */
  void missed(long now) {
    missed[slot(now)].increment();
  }

  /** Sluice's state as the generator saw it at {@code now} (it looks once per tick). */
  void sluice(long now, boolean limiting, boolean recovering) {
    int slot = slot(now);
    if (limiting) {
      limitingTicks[slot].increment();
    }
    if (recovering) {
      recoveringTicks[slot].increment();
    }
  }

  /**
   * The generator offered, at {@code now}, a read or write that was due {@code lateNanos} earlier
   * (it runs on ticks, so a few milliseconds are usual; a stalled generator catches up in bursts).
   */
  void behind(long now, long lateNanos) {
    behindNanos[slot(now)].accumulate(lateNanos);
  }

  void reachedDatabase(long now) {
    database[slot(now)].increment();
  }

  void databaseDone(long now, long tookNanos) {
    int slot = slot(now);
    dbNanos[slot].add(tookNanos);
    dbDone[slot].increment();
    dbMaxNanos[slot].accumulate(tookNanos);
  }

  /** The database answered a read (it reached the user, unlike a query whose read failed). */
  void served(long now) {
    served[slot(now)].increment();
  }

  /**
   * Sluice answered a read it would have refused, from a result {@code ageMillis} old; by
   * joining an identical read in flight if {@code join}.
   */
  void answered(long now, long ageMillis, boolean join) {
    int slot = slot(now);
    answered[slot].increment();
    if (join) {
      joined[slot].increment();
    }
    answerAges.incrementAndGet((int) Math.max(0, Math.min(AGE_SLOTS - 1, ageMillis)));
  }

  /**
   * The age under which {@code quantile} of Sluice's answers were, in milliseconds (the
   * quantile's nearest rank), or -1 without answers.
   */
  long answerAgeMillis(double quantile) {
    long total = 0;
    for (int i = 0; i < AGE_SLOTS; i++) {
      total += answerAges.get(i);
    }
    if (total == 0) {
      return -1;
    }
    long rank = Math.max(1, (long) Math.ceil(quantile * total));
    long seen = 0;
    for (int i = 0; i < AGE_SLOTS; i++) {
      seen += answerAges.get(i);
      if (seen >= rank) {
        return i;
      }
    }
    return AGE_SLOTS - 1;
  }

  /** What became of a read: who answered it, or how it failed its user. */
  enum Fate {
    /** The cache answered it. */
    CACHE,
    /** The database answered it. */
    DATABASE,
    /** Sluice answered it instead of refusing it. */
    SLUICE,
    /** Sluice refused it (a 503 to its user). */
    REFUSED,
    /** It waited too long for a thread or a connection. */
    TIMED_OUT
  }

  /**
   * The read offered at {@code offeredAt} met its {@code fate}, whenever that was: counted in the
   * second it was offered, so that a second's fates add up to its reads (less any that failed).
   */
  void fate(long offeredAt, Fate fate) {
    fates[fate.ordinal()][slot(offeredAt)].increment();
  }

  void rejected(long now) {
    rejected[slot(now)].increment();
  }

  /** A CRITICAL write was offered ({@code --critical-writes}). */
  void write(long now) {
    writes[slot(now)].increment();
  }

  void writeServed(long now) {
    writesServed[slot(now)].increment();
  }

  /** A CRITICAL write was refused by Sluice or timed out. */
  void writeRefused(long now) {
    writesRefused[slot(now)].increment();
  }

  void timedOut(long now) {
    timedOut[slot(now)].increment();
  }

  /** A read failed for a reason the drill does not expect: counted, and the first one kept. */
  void failed(Exception e) {
    failed.increment();
    firstFailure.compareAndSet(null, e);
  }

  long failed() {
    return failed.sum();
  }

  Exception firstFailure() {
    return firstFailure.get();
  }

  /** The figures of second {@code t}. */
  Second second(int t) {
    long done = dbDone[t].sum();
    double meanMillis = done == 0 ? 0 : dbNanos[t].sum() / (double) done / 1e6;
    return new Second(t, offered[t].sum(), cache[t].sum(), missed[t].sum(), database[t].sum(),
        served[t].sum(), answered[t].sum(), joined[t].sum(),
        new Fates(fate(Fate.CACHE, t), fate(Fate.DATABASE, t), fate(Fate.SLUICE, t),
            fate(Fate.REFUSED, t), fate(Fate.TIMED_OUT, t)),
        rejected[t].sum(), timedOut[t].sum(),
        meanMillis, dbMaxNanos[t].get() / 1e6,
        limitingTicks[t].sum() > 0, recoveringTicks[t].sum() > 0, writes[t].sum(),
        writesServed[t].sum(), writesRefused[t].sum(), behindNanos[t].get() / 1e6);
  }

  private long fate(Fate fate, int t) {
    return fates[fate.ordinal()][t].sum();
  }

  /** The figures of every second of the run. */
  List<Second> seconds() {
    List<Second> rows = new ArrayList<>(seconds);
    for (int t = 0; t < seconds; t++) {
      rows.add(second(t));
    }
    return rows;
  }

  /** Events after the end (late completions) are counted in the last second. */
  private int slot(long now) {
    long t = (now - startNanos) / 1_000_000_000L;
    return (int) Math.max(0, Math.min(seconds - 1, t));
  }

  private static LongAccumulator[] maxima(int n) {
    LongAccumulator[] maxima = new LongAccumulator[n];
    for (int i = 0; i < n; i++) {
      maxima[i] = new LongAccumulator(Math::max, 0);
    }
    return maxima;
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] adders = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }

  /**
   * One second of a run.
   *
   * @param t the second, from 0
   * @param offered reads offered to the service
   * @param cache reads served from the cache
   * @param missed reads that found the cache up but not their key
   * @param database queries that reached the database
   * @param served reads the database answered
   * @param answered reads Sluice answered instead of refusing them ({@code sluice.stale.*})
   * @param joined the part of {@code answered} that joined an identical read in flight
   * @param fates what became of the reads offered in this second, then or later (the other
   *     counts of a second are of what happened in it)
   * @param rejected reads Sluice rejected at once (a 503 to the caller)
   * @param timedOut reads that waited too long for a worker thread
   * @param dbMeanMillis the mean time a query spent in the database
   * @param dbMaxMillis the longest time a query spent in the database
   * @param limiting whether Sluice was limiting at some moment of the second
   * @param recovering whether Sluice was still limiting after the flag closed (recovery)
   * @param writes CRITICAL writes offered ({@code --critical-writes}; they are not in
   *     {@code offered})
   * @param writesServed CRITICAL writes the database answered
   * @param writesRefused CRITICAL writes refused by Sluice or timed out
   * @param behindMillis the furthest the generator was behind its schedule in the second: how
   *     late the latest read or write it offered was
   */
  record Second(int t, long offered, long cache, long missed, long database, long served,
      long answered, long joined, Fates fates, long rejected, long timedOut, double dbMeanMillis, double dbMaxMillis, boolean limiting,
      boolean recovering, long writes, long writesServed, long writesRefused,
      double behindMillis) {

    /** The share of lookups the cache answered, or NaN when nothing looked (the cache was down). */
    double hitRatio() {
      long lookups = cache + missed;
      return lookups == 0 ? Double.NaN : (double) cache / lookups;
    }

    /** The reads offered in this second that were answered to their users, then or later. */
    long reachedUser() {
      return fates.reachedUser();
    }
  }

  /**
   * What became of the reads offered in one second.
   *
   * @param cache answered by the cache
   * @param database answered by the database
   * @param sluice answered by Sluice instead of refused
   * @param refused refused by Sluice
   * @param timedOut timed out waiting for a thread or a connection
   */
  record Fates(long cache, long database, long sluice, long refused, long timedOut) {
    /** Those answered to their users: by the cache, the database or Sluice. */
    long reachedUser() {
      return cache + database + sluice;
    }
  }
}
