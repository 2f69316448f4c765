package dev.sluice.internal.config;

/**
 * {@code sluice.redis.unreachable}: what a Redis flag says while Redis cannot be read. The
 * settings' own copy of the public {@code RedisBreakerFlag.WhenUnreachable}, so that the internal
 * packages need no class of the API package; the builder converts by name.
 */
public enum Unreachable {
  /** Answer open: limit the database. The default. */
  OPEN,
  /** Answer closed: let every call through. */
  CLOSED,
  /** Keep answering what was last read; open if nothing was ever read. */
  LAST;

  /**
   * What the flag does meanwhile, for the WARN that says Redis cannot be read.
   *
   * @return the words
   */
  public String meanwhile() {
    switch (this) {
      case CLOSED:
        return "the breaker flag answers closed meanwhile (sluice.redis.unreachable=closed)";
      case LAST:
        return "the breaker flag keeps its last value meanwhile (sluice.redis.unreachable=last)";
      default:
        return "the breaker flag answers open meanwhile, so the database is limited";
    }
  }
}
