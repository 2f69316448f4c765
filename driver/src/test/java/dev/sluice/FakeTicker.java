package dev.sluice;

import dev.sluice.internal.limit.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that moves only when told: for bucket arithmetic without real time. */
public final class FakeTicker implements Ticker {
  private final AtomicLong nanos;

  public FakeTicker() {
    this(1_000_000_000L);
  }

  public FakeTicker(long startNanos) {
    this.nanos = new AtomicLong(startNanos);
  }

  @Override
  public long read() {
    return nanos.get();
  }

  public FakeTicker advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
    return this;
  }

  public FakeTicker advanceNanos(long delta) {
    nanos.addAndGet(delta);
    return this;
  }

  public void set(long value) {
    nanos.set(value);
  }
}
