package dev.sluice.internal.answer;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The kept results of one budget, bounded by an estimate of the memory they keep reachable
 * ({@code sluice.stale.memory}; {@link Sizes} says how a value is counted). The oldest result is
 * evicted first; a result older than {@code sluice.stale.max-age} is never served and is dropped
 * when found.
 *
 * <p><b>What is bounded is what the store keeps reachable.</b> Each result sits in a
 * {@link Slot}, which the map and the queue of the oldest first both hold. A result that is
 * replaced, evicted, expired or cleared is let go of at once (its slot's reference is cleared),
 * so that only a small slot stays behind in the queue until it reaches the head. Until 0.4 the
 * queue held the replaced result itself: a hot read kept a thousand times a second kept a
 * thousand results a second reachable for {@code max-age}, none of them counted, and a JVM of
 * 96 MB ran out of memory under a bound of 1 MB. Now the bound counts both, the results held
 * and the slots queued ({@value #SLOT_BYTES} bytes each), and the queue is swept of the slots
 * let go when they outnumber the results held ({@link #sweep}).
 *
 * <p>Accounting: a result's bytes are added once when it is put, and subtracted once by
 * whichever of replacement, eviction, expiry or {@link #clear()} removes its mapping — each goes
 * through the map's atomic {@code put}/{@code remove(key, value)}, so two can never both
 * subtract. A slot's bytes are subtracted once, by whichever of the trim and the sweep claims it
 * ({@link Slot#unqueue()}).
 *
 * <p>This class is threadsafe and takes no lock (a sweep runs on one thread at a time; others
 * skip it).
 */
final class Store {
  /** A slot (40 bytes) and the queue's node for it (24). */
  static final long SLOT_BYTES = 64;
  /** {@link #put(Kept, long, long)} whatever the clears since the read began. */
  static final long ANY = -1;

  private static final AtomicIntegerFieldUpdater<Slot> UNQUEUED =
      AtomicIntegerFieldUpdater.newUpdater(Slot.class, "unqueued");

  private final ConcurrentHashMap<ReadKey, Slot> byKey = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Slot> oldestFirst = new ConcurrentLinkedQueue<>();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicBoolean sweeping = new AtomicBoolean();
  /**
   * How many times the store was cleared: a result whose read began before a clear is kept by
   * nobody ({@link #put(Kept, long, long)}), however late its caller finishes reading it.
   */
  private final AtomicLong clears = new AtomicLong();
  private final long maxBytes;
  private final long maxAgeNanos;

  Store(long maxBytes, long maxAgeNanos) {
    this.maxBytes = maxBytes;
    this.maxAgeNanos = maxAgeNanos;
  }

  /** One kept result's place; its result is let go when it is no longer served. */
  static final class Slot {
    private volatile Kept kept;
    private final long bytes;
    private final long keptAtNanos;
    /** 1 once the slot has been counted out of the queue. */
    private volatile int unqueued;

    /** A slot for a result in no store (for tests and benchmarks of what reads slots). */
    static Slot holding(Kept kept) {
      return new Slot(kept);
    }

    private Slot(Kept kept) {
      this.kept = kept;
      this.bytes = kept.bytes();
      this.keptAtNanos = kept.keptAtNanos();
    }

    /** The result, {@code null} once replaced, evicted, expired or cleared. */
    Kept kept() {
      return kept;
    }

    /** Claims the slot's leaving the queue: true for the one caller that counts it. */
    private boolean unqueue() {
      return UNQUEUED.compareAndSet(this, 0, 1);
    }
  }

  /**
   * Keeps {@code kept}, replacing an older result of the same read; evicts the oldest.
   *
   * @return its slot, whose result is let go when the store no longer serves it; {@code null}
   *     when it is larger than the bound and not kept
   */
  Slot put(Kept kept, long nowNanos) {
    return put(kept, nowNanos, ANY);
  }

  /**
   * As {@link #put(Kept, long)}, for a result whose read began when the store had been cleared
   * {@code clearsAtRead} times ({@link #clears()}): kept only if no clear came since. Lock-free:
   * the slot goes in first and the count is read after, so a clear either finds the slot in the
   * queue or has counted before the read here, which then drops it.
   *
   * @param clearsAtRead {@link #clears()} when the read began, or {@link #ANY}
   * @return as {@link #put(Kept, long)}; {@code null} also when a clear came since the read began
   */
  Slot put(Kept kept, long nowNanos, long clearsAtRead) {
    if (kept.bytes() + SLOT_BYTES > maxBytes) {
      return null;
    }
    Slot slot = new Slot(kept);
    bytes.addAndGet(kept.bytes() + SLOT_BYTES);
    queued.incrementAndGet();
    oldestFirst.add(slot);
    Slot old = byKey.put(kept.key(), slot);
    if (old != null) {
      letGo(old);
    }
    if (clearsAtRead != ANY && clears.get() != clearsAtRead) {
      drop(slot);
      if (oldestFirst.remove(slot)) { // rare (a read that ran across a stop): one pass
        unqueued(slot);
      }
      return null;
    }
    trim(nowNanos);
    return slot;
  }

  /** How many times the store was cleared; read when a read that may be kept begins. */
  long clears() {
    return clears.get();
  }

  /** Keeps a result another instance sent, unless this one keeps a younger of the same read. */
  void putUnlessYounger(Kept kept, long nowNanos, long clearsAtHearing) {
    Slot old = byKey.get(kept.key());
    if (old == null || old.keptAtNanos < kept.keptAtNanos()) {
      put(kept, nowNanos, clearsAtHearing);
    }
  }

  /** The result of {@code key} kept at most {@code max-age} ago, or {@code null}. */
  Kept get(ReadKey key, long nowNanos) {
    Slot slot = byKey.get(key);
    Kept kept = slot == null ? null : slot.kept;
    if (kept == null) {
      return null;
    }
    if (isExpired(slot, nowNanos)) {
      drop(slot);
      return null;
    }
    return kept;
  }

  /** Drops every result: when limiting ends, and on close. */
  void clear() {
    clears.incrementAndGet(); // first: a put that reads the count after this drops its own slot
    for (Slot s = oldestFirst.poll(); s != null; s = oldestFirst.poll()) {
      unqueued(s);
      drop(s);
    }
  }

  /** The estimated bytes the store keeps reachable: its results and its queue's slots. */
  long bytes() {
    return bytes.get();
  }

  /** How many results are kept. */
  int entries() {
    return byKey.size();
  }

  /** Evicts from the head while over the bound, or while the head is expired or let go. */
  private void trim(long nowNanos) {
    for (Slot head = oldestFirst.peek(); head != null; head = oldestFirst.peek()) {
      if (head.kept != null && bytes.get() <= maxBytes && !isExpired(head, nowNanos)) {
        break;
      }
      if (oldestFirst.remove(head)) {
        unqueued(head);
        drop(head);
      }
    }
    if (queued.get() > 2 * byKey.size() + 64) {
      sweep();
    }
  }

  /**
   * Removes from the queue the slots whose result was let go: a hot read replaced behind an
   * older result that is still served leaves its slots there. Run when the queue holds more
   * than twice as many slots as results, so its cost, one pass over the queue, is paid once
   * per as many puts as results held.
   */
  private void sweep() {
    if (!sweeping.compareAndSet(false, true)) {
      return;
    }
    try {
      for (Iterator<Slot> i = oldestFirst.iterator(); i.hasNext(); ) {
        Slot slot = i.next();
        if (slot.kept == null && slot.unqueued == 0) {
          i.remove();
          unqueued(slot);
        }
      }
    } finally {
      sweeping.set(false);
    }
  }

  /** Counts a slot out of the queue, once whoever removed it. */
  private void unqueued(Slot slot) {
    if (slot.unqueue()) {
      queued.decrementAndGet();
      bytes.addAndGet(-SLOT_BYTES);
    }
  }

  private void drop(Slot slot) {
    Kept kept = slot.kept;
    if (kept != null && byKey.remove(kept.key(), slot)) {
      letGo(slot);
    }
  }

  /** A slot whose mapping is gone: its result stops being counted and being reachable. */
  private void letGo(Slot slot) {
    slot.kept = null;
    bytes.addAndGet(-slot.bytes);
  }

  private boolean isExpired(Slot slot, long nowNanos) {
    return nowNanos - slot.keptAtNanos > maxAgeNanos;
  }
}
