package dev.sluice.examples.cacheaside;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitExceededException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads users the way the article does: four branches, cheapest first.
 *
 * <ol>
 *   <li>While the breaker on the cache is closed, the cache (a {@code Map} standing in for Redis)
 *       answers; a miss reads the database and fills the cache (cache-aside). The database is not
 *       limited then: Sluice's flag is the same breaker, and it is closed.</li>
 *   <li>While the breaker is open, a local copy answers if there is one: stale, but free.</li>
 *   <li>Otherwise the read goes to the database through Sluice; when the budget is spent, Sluice
 *       refuses it at once and the caller gets a {@link ServiceUnavailableException} (a 503).</li>
 *   <li>Within the budget, the database answers.</li>
 * </ol>
 *
 * <p>Branches 3 and 4 are one call: the repository does not ask a limiter first, it simply reads
 * through a {@code RateLimitedDataSource} and turns the rejection into a 503.
 *
 * <p>This class is threadsafe when its maps are (for example {@code ConcurrentHashMap}).
 */
public final class CachedUsers {
  private final Map<Integer, User> remoteCache;
  private final Map<Integer, User> localCopy;
  private final BreakerFlag breaker;
  private final UserDao database;

  /**
   * Creates the reader.
   *
   * @param remoteCache the shared cache (Redis in production)
   * @param localCopy this instance's own copy of hot users
   * @param breaker open while the shared cache is down; the same flag Sluice reads
   * @param database reads through the rate-limited data source
   */
  public CachedUsers(Map<Integer, User> remoteCache, Map<Integer, User> localCopy,
      BreakerFlag breaker, UserDao database) {
    this.remoteCache = remoteCache;
    this.localCopy = localCopy;
    this.breaker = breaker;
    this.database = database;
  }

  /**
   * Reads a user, cheapest branch first.
   *
   * @param id the primary key
   * @return the user, or empty if there is none
   * @throws ServiceUnavailableException when the cache is down and the database's budget is spent
   * @throws IllegalStateException when the database fails for another reason
   */
  public Optional<User> find(int id) {
    if (!breaker.isOpen()) {
      User cached = remoteCache.get(id);
      if (cached != null) {
        return Optional.of(cached); // 1. the cache
      }
      User loaded = read(id);
      if (loaded != null) {
        remoteCache.put(id, loaded);
        localCopy.put(id, loaded);
      }
      return Optional.ofNullable(loaded);
    }
    User local = localCopy.get(id);
    if (local != null) {
      return Optional.of(local); // 2. the local copy
    }
    return Optional.ofNullable(read(id)); // 4. the database, or 3. a 503 when over budget
  }

  private User read(int id) {
    try {
      return database.find(id);
    } catch (Exception e) {
      Optional<RateLimitExceededException> rejection = rejection(e);
      if (rejection.isPresent()) {
        RateLimitExceededException r = rejection.get();
        throw new ServiceUnavailableException("the cache is down and the database's budget is"
            + " spent; retry in " + r.retryAfterMillis() + " ms", r.retryAfterMillis(), e);
      }
      throw new IllegalStateException("reading user " + id + " failed", e);
    }
  }

  /**
   * Finds Sluice's rejection in a framework's exception: Hibernate, jOOQ and Spring wrap it.
   *
   * @param e what the framework threw
   * @return the rejection, or empty if the failure was something else
   */
  public static Optional<RateLimitExceededException> rejection(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RateLimitExceededException) {
        return Optional.of((RateLimitExceededException) t);
      }
    }
    return Optional.empty();
  }
}
