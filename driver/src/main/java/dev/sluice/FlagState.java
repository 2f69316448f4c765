package dev.sluice;

/**
 * Where a breaker flag's answer comes from, as {@link Stats#flagState()} reports it.
 *
 * <p>For a flag held in local memory it is simply {@link #OPEN} or {@link #CLOSED}. For a
 * {@link RedisBreakerFlag} it is what the Redis key said at the last read, or
 * {@link #UNREACHABLE} when it could not be read in time; during the settle time after an
 * outage the key may say {@code CLOSED} while the flag still answers open.
 */
public enum FlagState {
  /** The source says open. */
  OPEN,
  /** The source says closed. */
  CLOSED,
  /** The source could not be read in time; the flag follows {@code sluice.redis.unreachable}. */
  UNREACHABLE
}
