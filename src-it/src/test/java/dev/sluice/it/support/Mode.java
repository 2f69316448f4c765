package dev.sluice.it.support;

/** How Sluice sits under the framework: decorating the pool, or as the pool's JDBC driver. */
public enum Mode {
  /** {@code RateLimitedDataSource} wraps the HikariCP pool. */
  DECORATOR,
  /** The pool's {@code jdbcUrl} is {@code jdbc:sluice:postgresql://...}. */
  DRIVER
}
