package dev.sluice;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Gate;
import dev.sluice.internal.limit.Ticker;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limiter of one budget: its bucket, its flag, its share and its counters, and the door rules
 * (which call takes a permit, which is charged, which is rejected). Every gated JDBC call of the
 * budget goes through here; nothing else in the library decides admission.
 *
 * <p>This class is threadsafe. The request path reads the flag (a plain memory read), then at most
 * tries the bucket and bumps a {@link LongAdder}; it never blocks and allocates only the exception
 * of a rejection. Limiting starting and stopping are noticed on the request path (one volatile
 * read per call) and logged once each; rejections are summed up at most once per
 * {@code sluice.summary-interval}, never logged one by one.
 */
final class Limiter implements Gate {
  private static final Logger LOG = LoggerFactory.getLogger(RateLimitedDataSource.class);

  private final String name;
  private final TokenBucket bucket;
  private final BreakerFlag flag;
  private final Scope scope;
  private final boolean switchIsDoor;
  private final boolean stackTraces;
  private final Ticker ticker;
  private final long summaryIntervalNanos;
  private final double budget;
  private final String rejectionReason;

  private final LongAdder admitted = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder forced = new LongAdder();

  /** What the request path last saw of the flag; written only by {@link #noticeFlag}. */
  private volatile boolean limitingSeen;
  private final AtomicBoolean limitingLogged = new AtomicBoolean();
  private final AtomicLong nextSummaryNanos = new AtomicLong();
  private final AtomicLong rejectedAtLastSummary = new AtomicLong();
  private volatile double instances;

  Limiter(String name, Settings settings, TokenBucket bucket, BreakerFlag flag, double instances,
      boolean driverMode, Ticker ticker) {
    this.name = name;
    this.bucket = bucket;
    this.flag = flag;
    this.scope = settings.get(Keys.SCOPE);
    this.switchIsDoor = !driverMode || settings.get(Keys.POOL_AUTO_COMMIT);
    this.stackTraces = settings.get(Keys.STACK_TRACES);
    this.summaryIntervalNanos = settings.get(Keys.SUMMARY_INTERVAL).toNanos();
    this.budget = settings.get(Keys.BUDGET);
    this.instances = instances;
    this.ticker = ticker;
    this.rejectionReason = flag == BreakerFlag.alwaysOpen()
        ? "this instance's share of the budget is spent"
        : "the cache breaker is open and this instance's share of the budget is spent";
  }

  // --- the door rules ---

  @Override
  public void beforeCheckout() throws SQLException {
    if (scope == Scope.CONNECTION) {
      admit();
    }
  }

  @Override
  public int beforeStatement(int state) throws SQLException {
    if (scope != Scope.STATEMENT) {
      return state;
    }
    if ((state & AUTO_COMMIT) != 0) {
      admit();
      return state;
    }
    if ((state & IN_TRANSACTION) == 0) {
      admit(); // the transaction's first statement is its door
      return state | IN_TRANSACTION;
    }
    if ((state & PREPAID) != 0) {
      return state & ~PREPAID;
    }
    charge();
    return state;
  }

  /**
   * The switch to manual commit is a transaction's door, except in driver mode under a pool that
   * keeps its connections in manual commit ({@code sluice.pool-auto-commit=false}): there the
   * pool makes the switch itself, when it sets a connection up and when it resets one, and those
   * calls must never be refused; the transaction's first statement is then the door.
   */
  @Override
  public int beforeAutoCommit(int state, boolean autoCommit) throws SQLException {
    if (autoCommit) {
      return (state | AUTO_COMMIT) & ~(IN_TRANSACTION | PREPAID); // the switch commits
    }
    if ((state & AUTO_COMMIT) == 0) {
      return state;
    }
    int manual = state & ~AUTO_COMMIT;
    if (scope != Scope.STATEMENT || !switchIsDoor) {
      return manual;
    }
    admit();
    return manual | IN_TRANSACTION | PREPAID;
  }

  @Override
  public int afterEnd(int state) {
    return state & ~(IN_TRANSACTION | PREPAID);
  }

  // --- permits ---

  /** Takes a permit while limiting, or throws. */
  void admit() throws RateLimitExceededException {
    if (!isLimiting()) {
      return;
    }
    if (bucket.tryAcquire()) {
      admitted.increment();
      return;
    }
    rejected.increment();
    throw rejection();
  }

  /** Charges a permit while limiting, into debt if need be: for admitted transactions. */
  void charge() {
    if (isLimiting()) {
      bucket.forceAcquire(1);
      forced.increment();
    }
  }

  /** Reads the flag, noticing when limiting starts or stops. */
  boolean isLimiting() {
    boolean open = flag.isOpen();
    if (open != limitingSeen) {
      noticeFlag(open);
    }
    return open;
  }

  private RateLimitExceededException rejection() {
    long waitNanos = bucket.nanosUntilAvailable(1);
    maybeSummarise();
    return new RateLimitExceededException(name, bucket.permitsPerSecond(), rejectionReason,
        waitNanos, stackTraces);
  }

  // --- share ---

  /** Sets how many instances share the budget now; the bucket follows without a fresh burst. */
  void setInstances(double count) {
    if (count != instances) {
      instances = count;
      bucket.setRate(budget / count);
      LOG.info("{} - {} instances share the budget of {} permits/s: this instance admits {}/s",
          name, RateLimitExceededException.formatRate(count),
          RateLimitExceededException.formatRate(budget),
          RateLimitExceededException.formatRate(bucket.permitsPerSecond()));
    }
  }

  double instances() {
    return instances;
  }

  String name() {
    return name;
  }

  TokenBucket bucket() {
    return bucket;
  }

  BreakerFlag flag() {
    return flag;
  }

  Scope scope() {
    return scope;
  }

  long admitted() {
    return admitted.sum();
  }

  long rejected() {
    return rejected.sum();
  }

  long forced() {
    return forced.sum();
  }

  // --- logging: once per transition, a summary per interval ---

  private void noticeFlag(boolean open) {
    limitingSeen = open;
    if (limitingLogged.compareAndSet(!open, open)) {
      if (open) {
        nextSummaryNanos.set(ticker.read() + summaryIntervalNanos);
        rejectedAtLastSummary.set(rejected.sum());
        LOG.warn("{} - the cache breaker flag is open: limiting the database to {} permits/s"
            + " (this instance's share of {}/s), burst {}", name,
            RateLimitExceededException.formatRate(bucket.permitsPerSecond()),
            RateLimitExceededException.formatRate(budget), bucket.burst());
      } else {
        LOG.warn("{} - the cache breaker flag is closed: stopped limiting; {} calls rejected since"
            + " the last summary", name, rejected.sum() - rejectedAtLastSummary.get());
      }
    }
  }

  private void maybeSummarise() {
    long now = ticker.read();
    long due = nextSummaryNanos.get();
    if (now - due >= 0 && nextSummaryNanos.compareAndSet(due, now + summaryIntervalNanos)) {
      long total = rejected.sum();
      long since = total - rejectedAtLastSummary.getAndSet(total);
      LOG.warn("{} - rejected {} calls in the last {} ms: the database is held to {} permits/s"
          + " here ({} admitted, {} charged in transactions so far)", name, since,
          (summaryIntervalNanos + (now - due)) / 1_000_000,
          RateLimitExceededException.formatRate(bucket.permitsPerSecond()), admitted.sum(),
          forced.sum());
    }
  }
}
