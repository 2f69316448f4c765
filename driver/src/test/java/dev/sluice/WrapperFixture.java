package dev.sluice;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Bucket;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Ticker;

/**
 * A limiter on a fake ticker for the wrapper tests in other packages: the {@link Limiter}
 * constructor and {@code Bucket.of(rate, burst, ticker)} are package-private here. The
 * ticker moves only when told, so an emptied bucket stays empty.
 */
public final class WrapperFixture {
  private long nowNanos = 1_000_000_000L;
  private final Ticker ticker = () -> nowNanos;
  private final Bucket bucket;
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private final Limiter limiter;

  /**
   * A limiter of one permit a second, burst 1, with its flag closed.
   *
   * @param scope what costs a permit
   * @param driverMode whether connections come from the driver (under a pool)
   */
  public WrapperFixture(Scope scope, boolean driverMode) {
    Settings settings = Settings.empty().with(Keys.NAME, "fixture").with(Keys.BUDGET, 1.0)
        .with(Keys.SCOPE, scope);
    bucket = Bucket.of(1.0, 1, ticker);
    limiter = new Limiter("fixture",
        Enforcer.limitSettings(settings), bucket, flag, 1, driverMode, ticker, Priority.OF_CODE);
  }

  /** A statement-scope, data-source-mode limiter. */
  public WrapperFixture() {
    this(Scope.STATEMENT, false);
  }

  public Limiter gate() {
    return limiter;
  }

  /** Opens the flag: permits are charged. */
  public WrapperFixture trip() {
    flag.trip();
    return this;
  }

  /** Closes the flag: calls pass uncounted. */
  public WrapperFixture reset() {
    flag.reset();
    return this;
  }

  /** Takes every permit left, so that the next admission is refused until time moves. */
  public WrapperFixture drain() {
    while (bucket.tryAcquire()) {
      // take them all
    }
    return this;
  }

  /** Moves the fake clock on by {@code seconds}. */
  public WrapperFixture advanceSeconds(long seconds) {
    nowNanos += seconds * 1_000_000_000L;
    return this;
  }

  public Stats stats() {
    return new Stats(limiter);
  }
}
