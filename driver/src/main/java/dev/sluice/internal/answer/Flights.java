package dev.sluice.internal.answer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The eligible reads in flight on this instance, each joinable by identical reads about to be
 * refused (Vitess' query consolidator, for the refused only).
 *
 * <p>A joiner waits on a {@link CompletableFuture}, which parks it with {@code LockSupport}: it
 * holds no lock, no monitor and no permit, and a virtual thread unmounts while it waits. At most
 * {@link #WAITERS_PER_READ} join one read; the rest are refused at once, as without answers. The
 * cap bounds how many of the application's threads one slow read can hold: a read with that many
 * waiters is slow because the database is, and parking more request threads on it (a servlet
 * pool has about 200) would turn a refusal into an outage of the pool.
 *
 * <p>A read whose caller never finishes nor closes its result would stay here; it is ignored and
 * dropped once it has been in flight longer than {@code max-age}, since no answer from it could
 * be served after that anyway.
 *
 * <p>Memory ordering: the leader builds its {@code Kept} on its own thread and publishes it with
 * {@code CompletableFuture.complete}; a joiner's {@code get} that returns it happens-after that
 * completion, so it sees the result fully built. The store publishes the same object through
 * its concurrent map, with the same guarantee.
 *
 * <p>This class is threadsafe and takes no lock.
 */
final class Flights {
  /** The most callers that wait for one read in flight. */
  static final int WAITERS_PER_READ = 128;

  private final ConcurrentHashMap<ReadKey, Flight> byKey = new ConcurrentHashMap<>();
  private final long maxAgeNanos;
  private final int waitersPerRead;

  Flights(long maxAgeNanos, int waitersPerRead) {
    this.maxAgeNanos = maxAgeNanos;
    this.waitersPerRead = waitersPerRead;
  }

  /**
   * Registers an admitted read as in flight; {@code null} if an identical one already is (this
   * one still runs and may still be kept, but is not joined).
   */
  Flight depart(ReadKey key, long nowNanos) {
    Flight flight = new Flight(nowNanos);
    Flight earlier = byKey.putIfAbsent(key, flight);
    if (earlier == null) {
      return flight;
    }
    if (nowNanos - earlier.departedNanos > maxAgeNanos && byKey.replace(key, earlier, flight)) {
      earlier.land(null);
      return flight;
    }
    return null;
  }

  /** The read in flight has ended, kept ({@code kept}) or not ({@code null}). */
  void land(ReadKey key, Flight flight, Kept kept) {
    byKey.remove(key, flight);
    flight.land(kept);
  }

  /**
   * Waits at most {@code waitNanos} for the identical read in flight; its kept result, or
   * {@code null} when none is in flight, it has too many waiters, it ends unkept, or the wait
   * runs out or is interrupted (the interrupt stays set).
   */
  Kept join(ReadKey key, long waitNanos, long nowNanos) {
    Flight flight = byKey.get(key);
    if (flight == null || nowNanos - flight.departedNanos > maxAgeNanos
        || !flight.board(waitersPerRead)) {
      return null;
    }
    try {
      return flight.result.get(waitNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (TimeoutException | ExecutionException e) {
      return null;
    } finally {
      flight.waiters.decrementAndGet();
    }
  }

  /** Whether a caller waits for the read of {@code key} in flight. */
  boolean hasWaiters(ReadKey key) {
    Flight flight = byKey.get(key);
    return flight != null && flight.waiters.get() > 0;
  }

  /** How many reads are in flight (for tests and gauges). */
  int size() {
    return byKey.size();
  }

  /** One read in flight. */
  static final class Flight {
    final long departedNanos;
    final CompletableFuture<Kept> result = new CompletableFuture<>();
    final AtomicInteger waiters = new AtomicInteger();

    Flight(long departedNanos) {
      this.departedNanos = departedNanos;
    }

    /** Takes a waiter's place, unless {@code cap} are already waiting. */
    boolean board(int cap) {
      for (int n = waiters.get(); n < cap; n = waiters.get()) {
        if (waiters.compareAndSet(n, n + 1)) {
          return true;
        }
      }
      return false;
    }

    void land(Kept kept) {
      result.complete(kept);
    }
  }
}
