package dev.sluice.internal.limit;

import dev.sluice.Priority;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a budget's limiter counted, by priority, and the one line per
 * {@code sluice.summary-interval} that sums its refusals up: the metrics' view of the limiter,
 * kept apart from its decisions. Stats, meters and JMX read it; the limiter only adds.
 *
 * <p>Adding is a {@link LongAdder} increment (no lock, no allocation). Enforced and shadow
 * refusals are summed up apart: after a switch of mode, the first summary names the calls of each
 * mode in that mode's words, never one sum of both.
 *
 * <p>This class is threadsafe.
 */
public final class Counts {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");

  private final String name;
  private final Bucket bucket;
  private final Ticker ticker;
  private final long summaryIntervalNanos;
  private final Tally admitted = Tally.byPriority();
  private final Tally rejected = Tally.byPriority();
  private final Tally shadowRejected = Tally.byPriority();
  private final LongAdder forced = new LongAdder();
  private final AtomicLong nextSummaryNanos = new AtomicLong();
  private final AtomicLong rejectedAtLastSummary = new AtomicLong();
  private final AtomicLong shadowRejectedAtLastSummary = new AtomicLong();
  /**
   * {@code sluice.mode=shadow}: a call the limits refuse passes, uncharged, and is counted as
   * shadow-rejected instead. Read only on the way to a refusal; changed over JMX.
   */
  private volatile boolean shadow;
  /** Adds to the rejection summary what was answered instead ({@code null}: answers are off). */
  private Supplier<String> note;

  Counts(String name, Bucket bucket, Ticker ticker, long summaryIntervalNanos, boolean shadow) {
    this.name = name;
    this.shadow = shadow;
    this.bucket = bucket;
    this.ticker = ticker;
    this.summaryIntervalNanos = summaryIntervalNanos;
  }

  void admit(Priority priority) {
    admitted.add(priority.ordinal());
  }

  /** A refusal at {@code priority}, counted, and the summary logged if one is due. */
  void reject(Priority priority) {
    rejected.add(priority.ordinal());
    maybeSummarise();
  }

  /** A call shadow mode let pass that a limit refused, counted as {@link #reject} counts. */
  void shadowReject(Priority priority) {
    shadowRejected.add(priority.ordinal());
    maybeSummarise();
  }

  /** A statement of an admitted transaction, charged and never refused. */
  void force() {
    forced.increment();
  }

  public long admitted() {
    return admitted.sum();
  }

  public long rejected() {
    return rejected.sum();
  }

  public long shadowRejected() {
    return shadowRejected.sum();
  }

  public long admitted(Priority priority) {
    return admitted.of(priority.ordinal());
  }

  public long rejected(Priority priority) {
    return rejected.of(priority.ordinal());
  }

  public long shadowRejected(Priority priority) {
    return shadowRejected.of(priority.ordinal());
  }

  /** @return the statements of admitted transactions, charged and never refused */
  public long forced() {
    return forced.sum();
  }

  /**
   * Switches between enforce and shadow mode at once (an operator's JMX call); logged at WARN.
   *
   * @param shadowMode {@code true} for shadow, {@code false} for enforce
   * @param by who asked, for the log line
   */
  public void setShadow(boolean shadowMode, String by) {
    boolean before = shadow;
    shadow = shadowMode;
    LOG.warn("{} - mode changed by {} from {} to {}: {}", name, by, modeName(before),
        modeName(shadowMode), shadowMode
            ? "calls the limit would refuse now pass, uncharged, and are counted as"
                + " shadow-rejected"
            : "calls over the limit are refused from now on");
  }

  /** @return whether a call the limits refuse passes, uncharged and counted (shadow mode) */
  public boolean shadow() {
    return shadow;
  }

  /** {@code shadow} or {@code enforce}, as {@code sluice.mode} writes it. */
  public static String modeName(boolean shadowMode) {
    return shadowMode ? "shadow" : "enforce";
  }

  /** Sets what the rejection summary adds, once, before the limiter is handed out. */
  void noteWith(Supplier<String> note) {
    this.note = note;
  }

  /** Limiting starts: the first summary is due one interval from now, counting from here. */
  void startSummaries() {
    nextSummaryNanos.set(ticker.read() + summaryIntervalNanos);
    rejectedAtLastSummary.set(rejected());
    shadowRejectedAtLastSummary.set(shadowRejected());
  }

  /**
   * Logs the summary if one is due: on the refusal paths only, at most one line per interval
   * (one CAS decides which caller writes it).
   */
  private void maybeSummarise() {
    long now = ticker.read();
    long due = nextSummaryNanos.get();
    if (now - due >= 0 && nextSummaryNanos.compareAndSet(due, now + summaryIntervalNanos)) {
      long refused = rejected() - rejectedAtLastSummary.getAndSet(rejected());
      long shadowed = shadowRejected() - shadowRejectedAtLastSummary.getAndSet(shadowRejected());
      long millis = (summaryIntervalNanos + (now - due)) / 1_000_000;
      String rate = Share.rate(bucket.permitsPerSecond());
      if (shadow) {
        LOG.warn("{} - shadow mode: would have rejected {} in the last {} ms{} ({}): nothing was"
            + " refused; the limit tried is {} permits/s here ({} within it, {} charged in"
            + " transactions so far)", name, calls(shadowed), millis,
            refused == 0 ? "" : ", and rejected " + calls(refused) + " before the switch to shadow",
            byPriority(), rate, admitted(), forced.sum());
      } else {
        LOG.warn("{} - rejected {} in the last {} ms{} ({}): the database is held to {} permits/s"
            + " here ({} admitted, {} charged in transactions so far)", name, calls(refused),
            millis, shadowed == 0 ? "" : ", and would have rejected " + calls(shadowed)
                + " in shadow mode before the switch to enforce",
            note == null ? byPriority() : byPriority() + note.get(), rate, admitted(),
            forced.sum());
      }
    }
  }

  /** Refusals since the last summary, in the words of the mode each was made in. */
  String sinceLastSummary() {
    long refused = rejected() - rejectedAtLastSummary.get();
    long shadowed = shadowRejected() - shadowRejectedAtLastSummary.get();
    String text = calls(refused) + " rejected";
    return shadowed == 0 ? text : text + ", " + calls(shadowed) + " shadow-rejected";
  }

  /** Refusals so far, enforced and shadow, by priority: {@code critical 0/0, normal 3/0, ...}. */
  private String byPriority() {
    StringBuilder text = new StringBuilder("rejected/shadow-rejected so far by priority:");
    for (Priority p : Priority.values()) {
      text.append(p.ordinal() == 0 ? " " : ", ").append(tag(p)).append(' ')
          .append(rejected(p)).append('/').append(shadowRejected(p));
    }
    return text.toString();
  }

  /**
   * A priority as meters and log lines name it: {@code critical}, {@code normal}...
   *
   * @param priority the priority
   * @return its tag
   */
  public static String tag(Priority priority) {
    return priority.name().toLowerCase(Locale.ROOT);
  }

  /** {@code 1 call}, {@code 2 calls}. */
  static String calls(long count) {
    return count == 1 ? "1 call" : count + " calls";
  }

  /**
   * Counts by ordinal, one {@link LongAdder} each, so that counting by priority (or by any enum)
   * allocates nothing and takes no lock: the limiter's counts here and the answers' alike.
   *
   * <p>This class is threadsafe.
   */
  public static final class Tally {
    private final LongAdder[] adders;

    /** @param size how many ordinals it counts */
    public Tally(int size) {
      adders = new LongAdder[size];
      for (int i = 0; i < size; i++) {
        adders[i] = new LongAdder();
      }
    }

    /** @return a tally by {@link Priority#ordinal()} */
    public static Tally byPriority() {
      return new Tally(Priority.values().length);
    }

    /** @param ordinal the ordinal counted once more */
    public void add(int ordinal) {
      adders[ordinal].increment();
    }

    /**
     * @param ordinal an ordinal
     * @return its count
     */
    public long of(int ordinal) {
      return adders[ordinal].sum();
    }

    /** @return the sum over every ordinal */
    public long sum() {
      long total = 0;
      for (LongAdder adder : adders) {
        total += adder.sum();
      }
      return total;
    }
  }
}
