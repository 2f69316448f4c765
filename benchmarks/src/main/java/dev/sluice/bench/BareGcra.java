package dev.sluice.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor: the least a lock-free GCRA bucket can do per call — one clock read, one volatile read,
 * arithmetic, and one CAS on admission. No rate changes, no argument checks, no epoch. Written here,
 * not in the library, so the benchmarks can show how close {@code TokenBucket} comes to it.
 *
 * <p>This class is threadsafe.
 */
final class BareGcra {
  private final AtomicLong tat;
  private final long intervalNanos;
  private final long toleranceNanos;

  BareGcra(double permitsPerSecond, int burst) {
    this.intervalNanos = Math.max(1, (long) Math.ceil(1e9 / permitsPerSecond));
    this.toleranceNanos = burst * intervalNanos;
    this.tat = new AtomicLong(System.nanoTime());
  }

  boolean tryAcquire() {
    for (;;) {
      long now = System.nanoTime();
      long current = tat.get();
      long next = (current - now > 0 ? current : now) + intervalNanos;
      if (next - now > toleranceNanos) {
        return false;
      }
      if (tat.compareAndSet(current, next)) {
        return true;
      }
    }
  }
}
