package dev.sluice.it.support;

import dev.sluice.Stats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Samples a limiter during its recovery: whether it is still recovering, and the demand it
 * counted (calls that reached a door, admitted plus refused: what its stats count while it
 * limits). From the demand it judges, as the limiter would, when the recovery may legitimately
 * have ended, so that a test holds the limiter to the load the machine actually offered, not to
 * the load it meant to offer: on a busy machine the request threads may stall for seconds.
 *
 * <p>The limiter counts demand in one-second windows from the start of the recovery and ends it
 * once no call has come in a loud window (more than {@code threshold} &times; share calls) for
 * the settle. The windows' edges are unknown here, but any span of at most a second overlaps at
 * most two of them: more than twice the loud count in such a span puts more than the loud count
 * of one window inside it, so its last call in that window is loud. Such a span is a <em>proven
 * loud moment</em>; a recovery that ended less than a settle after one ended too early.
 *
 * <p>This class is not threadsafe: one thread samples, then judges.
 */
public final class DemandWatch {
  private static final long SPAN_NANOS = 1_000_000_000L;
  /** The limiter notes a loud moment to the millisecond. */
  private static final long GRAIN_NANOS = 1_000_000L;

  private final Supplier<Stats> stats;
  private final double loudPerSecond;
  private final long settleNanos;
  private final List<Sample> samples = new ArrayList<>();

  /** A stats read: taken between {@code before} and {@code after} (nanoTime). */
  private record Sample(long before, long after, long demand, boolean recovering) {}

  /**
   * Watches a limiter with the default threshold ({@code sluice.recovery.threshold=0.8}).
   *
   * @param stats reads the limiter's stats
   * @param share the limiter's share, permits per second
   * @param settle its {@code sluice.recovery.settle}
   */
  public DemandWatch(Supplier<Stats> stats, double share, Duration settle) {
    this.stats = stats;
    this.loudPerSecond = 0.8 * share;
    this.settleNanos = settle.toNanos();
  }

  /** Takes one sample. */
  public void sample() {
    long before = System.nanoTime();
    Stats s = stats.get(); // the counters are read before the recovering state
    samples.add(new Sample(before, System.nanoTime(), s.admitted() + s.rejected(),
        s.recovering()));
  }

  /** The samples taken. */
  public int size() {
    return samples.size();
  }

  /** The samples that read recovering. */
  public long recovering() {
    return samples.stream().filter(Sample::recovering).count();
  }

  /**
   * The samples that must read recovering: a proven loud moment lies less than a settle before
   * them. A busy machine that stalled the load for a settle makes this fewer, never wrong.
   */
  public long mustRecover() {
    long count = 0;
    for (int i = 0; i < samples.size(); i++) {
      if (mustRecover(i)) {
        count++;
      }
    }
    return count;
  }

  /**
   * The first sample that read not recovering although a proven loud moment lay less than a
   * settle before it, described; {@code null} when there is none.
   */
  public String endedTooEarly() {
    for (int i = 0; i < samples.size(); i++) {
      if (!samples.get(i).recovering() && mustRecover(i)) {
        return describe(i);
      }
    }
    return null;
  }

  /**
   * The last proven loud moment, as a {@link System#nanoTime()} reading: the recovery cannot
   * end less than a settle after it.
   *
   * @return the start of the last loud span, or {@link Long#MIN_VALUE} if none was proven
   */
  public long lastLoudNanos() {
    long last = Long.MIN_VALUE;
    for (int k = 0; k < samples.size(); k++) {
      last = Math.max(last, loudSpanEndingAt(k, Long.MIN_VALUE));
    }
    return last;
  }

  /** The demand the limiter counted from the first sample to the last. */
  public long demand() {
    return samples.isEmpty() ? 0
        : samples.get(samples.size() - 1).demand() - samples.get(0).demand();
  }

  /** The demand the limiter counted per second over the samples, for the figures. */
  public double demandPerSecond() {
    if (samples.size() < 2) {
      return 0;
    }
    Sample first = samples.get(0);
    Sample last = samples.get(samples.size() - 1);
    return (last.demand() - first.demand()) * 1e9 / (last.after() - first.before());
  }

  private boolean mustRecover(int i) {
    long after = samples.get(i).after() - settleNanos + GRAIN_NANOS;
    for (int k = 0; k <= i; k++) {
      if (loudSpanEndingAt(k, after) != Long.MIN_VALUE) {
        return true;
      }
    }
    return false;
  }

  /**
   * The latest start of a loud span from an earlier sample to sample {@code k} that begins after
   * {@code notBefore} ({@link Long#MIN_VALUE}: any); {@link Long#MIN_VALUE} if there is none.
   */
  private long loudSpanEndingAt(int k, long notBefore) {
    Sample end = samples.get(k);
    for (int j = k - 1; j >= 0; j--) {
      Sample start = samples.get(j);
      if (end.after() - start.before() > SPAN_NANOS
          || notBefore != Long.MIN_VALUE && start.before() - notBefore <= 0) {
        return Long.MIN_VALUE;
      }
      if (end.demand() - start.demand() > 2 * loudPerSecond) {
        return start.before();
      }
    }
    return Long.MIN_VALUE;
  }

  private String describe(int i) {
    Sample s = samples.get(i);
    long loud = Long.MIN_VALUE;
    for (int k = 0; k <= i; k++) {
      loud = Math.max(loud, loudSpanEndingAt(k, s.after() - settleNanos + GRAIN_NANOS));
    }
    return String.format("sample %d of %d read not recovering %d ms after a span of at most 1 s"
        + " in which the limiter counted more than %.0f calls (settle %d ms)", i, samples.size(),
        (s.before() - loud) / 1_000_000, 2 * loudPerSecond, settleNanos / 1_000_000);
  }
}
