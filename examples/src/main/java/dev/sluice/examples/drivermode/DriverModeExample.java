package dev.sluice.examples.drivermode;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.examples.cacheaside.CachedUsers;
import dev.sluice.examples.cacheaside.ExampleDatabase;
import dev.sluice.examples.cacheaside.ServiceUnavailableException;
import dev.sluice.examples.cacheaside.User;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Driver mode: no code wraps anything. The pool's JDBC URL starts with {@code jdbc:sluice:} and
 * the budget travels as pool properties (HikariCP's {@code dataSourceProperties}, Spring Boot's
 * {@code spring.datasource.hikari.data-source-properties.sluice.budget=...}); every connection the
 * pool makes shares one limiter per {@code sluice.name}.
 *
 * <p>Without {@code sluice.redis} the driver's flag is {@code always}: Sluice caps the database at
 * all times, so the budget must cover the cache's normal misses too. With {@code sluice.redis}, it
 * follows the shared {@code sluice:<name>:breaker} key that the application's breaker publishes.
 *
 * <pre>  mvn -q -pl examples -am compile exec:exec -Dexample=dev.sluice.examples.drivermode.DriverModeExample</pre>
 */
public final class DriverModeExample {
  private DriverModeExample() {}

  /**
   * Runs the example.
   *
   * @param args ignored
   * @throws Exception if the database fails
   */
  public static void main(String[] args) throws Exception {
    run("users-db", "1", System.out);
  }

  /**
   * A pool whose connections come from the Sluice driver, over the H2 database at {@code h2Url}.
   * The bucket holds two permits: without Redis the limiter is always on, so the cache miss
   * before the outage is charged too.
   *
   * @param h2Url the database's own URL, {@code jdbc:h2:...}
   * @param name the budget's name
   * @param budget the budget, queries per second
   * @return the pool
   */
  static HikariDataSource pool(String h2Url, String name, String budget) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:sluice:" + h2Url.substring("jdbc:".length()));
    config.setUsername("sa");
    config.setPassword("");
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    config.addDataSourceProperty("sluice.name", name);
    config.addDataSourceProperty("sluice.budget", budget);
    config.addDataSourceProperty("sluice.burst", "2");
    return new HikariDataSource(config);
  }

  /**
   * Reads through the cache, then the database while the cache is down.
   *
   * @param name the budget's name (the driver keeps one budget per name in a JVM)
   * @param budget the budget, queries per second
   * @param out where the story goes
   * @throws Exception if the database fails
   */
  static void run(String name, String budget, PrintStream out) throws Exception {
    BreakerFlag.Manual breaker = BreakerFlag.manual(); // the application's breaker on Redis
    Map<Integer, User> redis = new ConcurrentHashMap<>(); // stands in for Redis
    Map<Integer, User> local = new ConcurrentHashMap<>();
    try (ExampleDatabase db = ExampleDatabase.create();
        HikariDataSource pool = pool(db.url(), name, budget)) {
      CachedUsers users = new CachedUsers(redis, local, breaker, new JdbcUsers(pool));
      out.println("cache up:   user 1 -> " + users.find(1) + " (a miss: read and cached,"
          + " 1 permit: without Redis the limiter is always on)");
      out.println("cache up:   user 1 -> " + users.find(1) + " (from the cache)");
      breaker.trip();
      out.println("cache down: user 1 -> " + users.find(1) + " (from the local copy)");
      try {
        out.println("cache down: user 2 -> " + users.find(2) + " (from the database, 1 permit)");
        out.println("cache down: user 3 -> " + users.find(3) + " (from the database: the budget"
            + " was not enforced!)");
      } catch (ServiceUnavailableException e) {
        out.println("cache down: user 3 -> 503, Retry-After " + e.retryAfterMillis()
            + " ms (the bucket's two permits are spent)");
      }
    }
  }
}
