package dev.sluice.internal.config;

/** The value of {@code sluice.flag}: where the breaker flag comes from. */
public enum FlagSource {
  /** The limiter is always on. */
  ALWAYS,
  /** The {@code sluice:<name>:breaker} key in {@code sluice.redis}. */
  REDIS,
  /** A {@code BreakerFlag.manual()}, closed at first, tripped and reset over JMX. */
  MANUAL
}
