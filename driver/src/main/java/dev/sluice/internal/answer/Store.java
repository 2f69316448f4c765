package dev.sluice.internal.answer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The kept results of one budget, bounded by an estimate of their memory
 * ({@code sluice.stale.memory}; {@link Sizes} says how a value is counted). The oldest result is
 * evicted first; a result older than {@code sluice.stale.max-age} is never served and is dropped
 * when found.
 *
 * <p>Accounting: each result's bytes are added once when it is put, and subtracted once by
 * whichever of replacement, eviction, expiry or {@link #clear()} removes its mapping — each of
 * them goes through the map's atomic {@code put}/{@code remove(key, value)}, so two can never
 * both subtract. The queue holds results in the order they were put; a replaced result stays in
 * it until it reaches the head, which happens within {@code max-age} (the head is dropped once
 * expired), so the queue holds at most the results put within the last {@code max-age}.
 *
 * <p>This class is threadsafe and takes no lock.
 */
final class Store {
  private final ConcurrentHashMap<ReadKey, Kept> byKey = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Kept> oldestFirst = new ConcurrentLinkedQueue<>();
  private final AtomicLong bytes = new AtomicLong();
  private final long maxBytes;
  private final long maxAgeNanos;

  Store(long maxBytes, long maxAgeNanos) {
    this.maxBytes = maxBytes;
    this.maxAgeNanos = maxAgeNanos;
  }

  /** Keeps {@code kept}, replacing an older result of the same read; evicts the oldest. */
  void put(Kept kept, long nowNanos) {
    if (kept.bytes() > maxBytes) {
      return;
    }
    Kept old = byKey.put(kept.key(), kept);
    if (old != null) {
      bytes.addAndGet(-old.bytes());
    }
    oldestFirst.add(kept);
    bytes.addAndGet(kept.bytes());
    trim(nowNanos);
  }

  /** Keeps a result another instance sent, unless this one keeps a younger of the same read. */
  void putUnlessYounger(Kept kept, long nowNanos) {
    Kept old = byKey.get(kept.key());
    if (old == null || old.keptAtNanos() < kept.keptAtNanos()) {
      put(kept, nowNanos);
    }
  }

  /** The result of {@code key} kept at most {@code max-age} ago, or {@code null}. */
  Kept get(ReadKey key, long nowNanos) {
    Kept kept = byKey.get(key);
    if (kept == null) {
      return null;
    }
    if (isExpired(kept, nowNanos)) {
      drop(kept);
      return null;
    }
    return kept;
  }

  /** Drops every result: when limiting ends, and on close. */
  void clear() {
    for (Kept k = oldestFirst.poll(); k != null; k = oldestFirst.poll()) {
      drop(k);
    }
  }

  /** The kept results' estimated bytes. */
  long bytes() {
    return bytes.get();
  }

  /** How many results are kept. */
  int entries() {
    return byKey.size();
  }

  /** Evicts from the head while over the bound, or while the head is expired or replaced. */
  private void trim(long nowNanos) {
    for (Kept head = oldestFirst.peek(); head != null; head = oldestFirst.peek()) {
      boolean replaced = byKey.get(head.key()) != head;
      if (!replaced && bytes.get() <= maxBytes && !isExpired(head, nowNanos)) {
        return;
      }
      if (oldestFirst.remove(head)) {
        drop(head);
      }
    }
  }

  private void drop(Kept kept) {
    if (byKey.remove(kept.key(), kept)) {
      bytes.addAndGet(-kept.bytes());
    }
  }

  private boolean isExpired(Kept kept, long nowNanos) {
    return nowNanos - kept.keptAtNanos() > maxAgeNanos;
  }
}
