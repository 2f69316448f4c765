package dev.sluice;

/**
 * Which limit refused a call: see {@link RateLimitExceededException#limit()}.
 */
public enum Limit {
  /** This instance's share of the budget, in permits per second, was spent. */
  RATE,
  /**
   * This instance's share of {@code sluice.concurrency} was in flight: as many statements (in
   * {@code connection} scope, connections checked out) as the cap allows were running.
   */
  CONCURRENCY
}
