package dev.sluice.internal.limit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demand of one limiter while it recovers, and the verdict that ends the recovery: after the
 * breaker flag closes the cache behind it is usually cold, so the limiter goes on charging at its
 * share until this says demand has settled.
 *
 * <p>Demand (calls that reached a door, admitted plus rejected) is counted in tumbling windows from
 * the start of the recovery: one second, or at a small share the shortest power of two seconds that
 * holds one call at {@code threshold} &times; share. A window is <em>loud</em> once its count goes
 * above {@code threshold} &times; the share of that moment &times; its length. The recovery has
 * settled once it has been quiet for {@code settle} since the last loud call; or once, for
 * {@code settle}, no finished window has been {@link #FALL} below the level demand last fell to and
 * none went above the share (demand is back to its everyday level). A level that stopped falling
 * above the share is {@link #steadyAbove}: the hold goes on.
 *
 * <p>This class is threadsafe, lock-free and allocation-free: the current window is one packed
 * {@code long} (index in the high half, count in the low half) moved on with a CAS, and the last
 * loud moment only moves forward, written at most once a millisecond so that a flood of threads
 * does not contend on it. {@link #begin} runs on the one thread that starts a recovery, before the
 * limiter publishes the recovering state with a volatile write, so every caller of {@link #count}
 * or {@link #settled} sees the fresh origin; a late call of an earlier recovery reads a time before
 * the origin and lands in window 0 (one call too many: the hold can only last longer).
 *
 * <p>The long form (why hold, why these rules, what they were measured against):
 * docs/how-it-works.md#recovery-the-cap-holds-while-the-cache-refills.
 */
public final class Recovery {
  /** The length of a window of demand. */
  static final long WINDOW_NANOS = 1_000_000_000L;
  /** Allows for rounding in {@code threshold * share}: a count at the threshold is quiet. */
  private static final double ROUNDING = 1e-9;
  private static final long COUNT_MASK = 0xFFFF_FFFFL;
  /** The precision of the last loud moment: the settle may end up to this much early. */
  static final long GRAIN_NANOS = 1_000_000L;
  /** The longest window, 2^30 s (34 years): shares far below any that a bucket holds. */
  static final int MAX_LEVEL = 30;
  /** How far below the last level a finished window must be to count as demand still falling. */
  static final double FALL = 0.1;

  private final long settleNanos;
  private final double threshold;

  private volatile long originNanos;
  /** The current window: its index since the origin (high 32 bits) and its count (low 32). */
  private final AtomicLong window = new AtomicLong();
  /** The last call counted in a loud window, or the origin: the load is quiet since then. */
  private final AtomicLong quietSinceNanos = new AtomicLong();
  /** The last call counted in a window above the share, or the origin. */
  private final AtomicLong withinShareSinceNanos = new AtomicLong();
  /**
   * When demand last fell: a finished window {@link #FALL} below {@link #levelPerSecond}, or the
   * first one. Written by the thread that rolls the window over (once a second).
   */
  private final AtomicLong fellAtNanos = new AtomicLong();
  /** The demand, per second, of the window that last fell; {@code NaN} before one finished. */
  private volatile double levelPerSecond = Double.NaN;

  /**
   * Makes the recovery rules of one limiter.
   *
   * @param settle how long demand must stay low; zero for no recovery
   * @param threshold the part of the share at or below which demand is low, {@code 0 < r <= 1}
   */
  public Recovery(Duration settle, double threshold) {
    this.settleNanos = settle.toNanos();
    this.threshold = threshold;
  }

  /**
   * Returns whether a closed flag starts a recovery at all.
   *
   * @return {@code false} when the settle is zero: limiting stops as the flag closes
   */
  public boolean enabled() {
    return settleNanos > 0;
  }

  /**
   * Starts a recovery at {@code nowNanos}, forgetting any earlier one. Called by one thread at a
   * time, before the recovering state is published.
   *
   * @param nowNanos the ticker's reading
   */
  public void begin(long nowNanos) {
    originNanos = nowNanos;
    quietSinceNanos.set(nowNanos);
    withinShareSinceNanos.set(nowNanos);
    fellAtNanos.set(nowNanos);
    levelPerSecond = Double.NaN;
    window.set(0);
  }

  /**
   * Counts one call that reached a door.
   *
   * @param nowNanos the ticker's reading
   * @param permitsPerSecond the share at this moment
   */
  public void count(long nowNanos, double permitsPerSecond) {
    double quietPerSecond = threshold * permitsPerSecond;
    long second = Math.max(0, (nowNanos - originNanos) / WINDOW_NANOS);
    int level = quietPerSecond >= 1 ? 0 : levelOf(quietPerSecond); // 0: one-second windows
    long packed = add(second >>> level << level, nowNanos, level);
    long count = packed & COUNT_MASK;
    if (count > Math.scalb(quietPerSecond, level) * (1 + ROUNDING)) {
      loudAt(quietSinceNanos, nowNanos);
      if (count > Math.scalb(permitsPerSecond, level) * (1 + ROUNDING)) {
        loudAt(withinShareSinceNanos, nowNanos);
      }
    }
  }

  /** A window finished with {@code count} calls: demand fell, or held at its level. */
  private void finished(long count, int level, long nowNanos) {
    double perSecond = Math.scalb((double) count, -level);
    double last = levelPerSecond;
    if (Double.isNaN(last) || perSecond < last * (1 - FALL)) {
      levelPerSecond = perSecond;
      fellAtNanos.set(nowNanos);
    }
  }

  /**
   * The windows' length at a small share, as a power of two seconds: the shortest that holds at
   * least one call at the threshold, so that one call in a window is quiet.
   */
  static int levelOf(double quietPerSecond) {
    if (!(quietPerSecond > 0)) {
      return MAX_LEVEL; // a share that admits nothing: every call is loud
    }
    return Math.min(MAX_LEVEL, -Math.getExponent(quietPerSecond));
  }

  /** Moves a last loud moment forward to {@code nowNanos}, if that is more than a grain. */
  private static void loudAt(AtomicLong since, long nowNanos) {
    long last = since.get();
    while (nowNanos - last > GRAIN_NANOS && !since.compareAndSet(last, nowNanos)) {
      last = since.get();
    }
  }

  /**
   * Adds one to window {@code index} (or a later one already begun); returns the new state. The
   * call that begins a window reports the one it ends (a gap of empty windows as an empty one).
   */
  private long add(long index, long nowNanos, int level) {
    while (true) {
      long packed = window.get();
      long begun = packed >>> 32;
      long next = begun >= index ? packed + 1 : (index << 32) | 1;
      if (window.compareAndSet(packed, next)) {
        if (begun < index) {
          boolean gap = index - begun > (1L << level);
          finished(gap ? 0 : packed & COUNT_MASK, level, nowNanos);
        }
        return next;
      }
    }
  }

  /**
   * Returns whether demand has stayed low for the settle, so that the recovery may end.
   *
   * @param nowNanos the ticker's reading
   * @return {@code true} once the load has been quiet for {@code settle}
   */
  public boolean settled(long nowNanos) {
    return quiet(nowNanos) || steady(nowNanos);
  }

  /**
   * Returns whether demand has stayed at or below the threshold for the settle.
   *
   * @param nowNanos the ticker's reading
   * @return {@code true} once the load has been quiet for {@code settle}
   */
  public boolean quiet(long nowNanos) {
    return nowNanos - quietSinceNanos.get() >= settleNanos;
  }

  /**
   * Returns whether demand has stopped falling for the settle at a level within the share: back to
   * its everyday level, which the database takes within its budget.
   *
   * @param nowNanos the ticker's reading
   * @return {@code true} once steady within the share for {@code settle}
   */
  public boolean steady(long nowNanos) {
    return stoppedFalling(nowNanos) && nowNanos - withinShareSinceNanos.get() >= settleNanos;
  }

  /**
   * Returns whether demand has stopped falling for the settle above the share: a budget below the
   * everyday load, which the hold cannot tell from a flood.
   *
   * @param nowNanos the ticker's reading
   * @return {@code true} while steady above the share
   */
  public boolean steadyAbove(long nowNanos) {
    return stoppedFalling(nowNanos) && nowNanos - withinShareSinceNanos.get() < settleNanos;
  }

  private boolean stoppedFalling(long nowNanos) {
    return !Double.isNaN(levelPerSecond) && nowNanos - fellAtNanos.get() >= settleNanos;
  }

  /**
   * Returns the demand, per second, of the window in which demand last fell.
   *
   * @return calls at a door per second; {@code NaN} before a window finished
   */
  public double level() {
    return levelPerSecond;
  }

  /**
   * Returns how long the recovery has lasted.
   *
   * @param nowNanos the ticker's reading
   * @return nanoseconds since {@link #begin}
   */
  public long elapsedNanos(long nowNanos) {
    return nowNanos - originNanos;
  }

  /**
   * Returns the settle.
   *
   * @return how long demand must stay low
   */
  public Duration settle() {
    return Duration.ofNanos(settleNanos);
  }

  /**
   * Returns the threshold.
   *
   * @return the part of the share at or below which demand is low
   */
  public double threshold() {
    return threshold;
  }
}
