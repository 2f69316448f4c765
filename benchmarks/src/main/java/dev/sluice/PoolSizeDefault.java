package dev.sluice;

import javax.sql.DataSource;

/**
 * What {@code sluice.concurrency.max} defaults to over a pool, for the benchmarks' real-database
 * harness: the same read a {@link RateLimitedDataSource} makes when it is built over that pool.
 *
 * <p>This class is threadsafe; it has only static methods.
 */
public final class PoolSizeDefault {
  private PoolSizeDefault() {}

  /**
   * The pool's maximum size as Sluice reads it, or 0 when it cannot.
   *
   * @param pool the data source under Sluice
   * @return the default of {@code sluice.concurrency.max} over it (0: unknown, 100 and a WARN)
   */
  public static int of(DataSource pool) {
    return PoolSize.of(pool);
  }
}
