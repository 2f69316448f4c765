package dev.sluice.examples.hibernate;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import dev.sluice.examples.cacheaside.CachedUsers;
import dev.sluice.examples.cacheaside.ExampleDatabase;
import dev.sluice.examples.cacheaside.ServiceUnavailableException;
import dev.sluice.examples.cacheaside.User;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hibernate reading through a cache, falling back to the database through Sluice: walks the four
 * branches and prints where each read was answered.
 *
 * <pre>  mvn -q -pl examples -am compile exec:exec -Dexample=dev.sluice.examples.hibernate.HibernateExample</pre>
 */
public final class HibernateExample {
  private HibernateExample() {}

  /**
   * Runs the example.
   *
   * @param args {@code connection} to charge checkouts instead of statements
   * @throws Exception if the database fails
   */
  public static void main(String[] args) throws Exception {
    run(args.length > 0 && args[0].equals("connection") ? Scope.CONNECTION : Scope.STATEMENT,
        System.out);
  }

  /**
   * Walks the four branches.
   *
   * @param scope what costs a permit
   * @param out where the story goes
   * @throws Exception if the database fails
   */
  static void run(Scope scope, PrintStream out) throws Exception {
    BreakerFlag.Manual breaker = BreakerFlag.manual(); // the application's breaker on Redis
    Map<Integer, User> redis = new ConcurrentHashMap<>(); // stands in for Redis
    Map<Integer, User> local = new ConcurrentHashMap<>();
    try (ExampleDatabase db = ExampleDatabase.create();
        RateLimitedDataSource ds = RateLimitedDataSource.builder(db.pool())
            .name("users-db").budget(1).burst(1).scope(scope).breakerFlag(breaker).build();
        HibernateUsers hibernate = new HibernateUsers(ds)) {
      CachedUsers users = new CachedUsers(redis, local, breaker, hibernate);
      out.println("cache up:   user 1 -> " + users.find(1) + " (a miss: read and cached)");
      out.println("cache up:   user 1 -> " + users.find(1) + " (from the cache)");
      breaker.trip();
      out.println("cache down: user 1 -> " + users.find(1) + " (from the local copy)");
      out.println("cache down: user 2 -> " + users.find(2) + " (from the database, 1 permit)");
      try {
        out.println("cache down: user 3 -> " + users.find(3) + " (from the database: the budget"
            + " was not enforced!)");
      } catch (ServiceUnavailableException e) {
        out.println("cache down: user 3 -> 503, Retry-After " + e.retryAfterMillis()
            + " ms (the budget of 1 query/s is spent)");
      }
      out.println(ds.stats());
    }
  }
}
