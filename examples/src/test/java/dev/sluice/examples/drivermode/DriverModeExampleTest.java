package dev.sluice.examples.drivermode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.examples.cacheaside.CachedUsers;
import dev.sluice.examples.cacheaside.ExampleDatabase;
import dev.sluice.examples.cacheaside.ServiceUnavailableException;
import dev.sluice.examples.cacheaside.User;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The service configured only through {@code jdbc:sluice:} URLs and pool properties. */
class DriverModeExampleTest {

  @Test
  void run_walksTheBranchesAndEndsIn503() throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

    DriverModeExample.run("driver-mode-run", "0.001", new java.io.PrintStream(out, true, "UTF-8"));

    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("(from the cache)",
        "(from the local copy)", "user 2 -> Optional[User[id=2, name=Grace]] (from the database",
        "user 3 -> 503, Retry-After");
  }

  @Test
  void find_throughTheSluiceUrl_capsTheDatabaseAndAnswers503() throws Exception {
    BreakerFlag.Manual breaker = BreakerFlag.manual();
    Map<Integer, User> redis = new ConcurrentHashMap<>();
    try (ExampleDatabase db = ExampleDatabase.create();
        HikariDataSource pool = DriverModeExample.pool(db.url(), "driver-mode-find", "0.001")) {
      CachedUsers users = new CachedUsers(redis, new ConcurrentHashMap<>(), breaker,
          new JdbcUsers(pool));
      breaker.trip();

      // sluice.flag is `always` without Redis: the burst of two admits two reads, no more
      assertThat(users.find(2)).contains(new User(2, "Grace"));
      assertThat(users.find(1)).contains(new User(1, "Ada"));
      ServiceUnavailableException e = assertThrows(ServiceUnavailableException.class,
          () -> users.find(3));

      assertThat(e.retryAfterMillis()).isPositive();
      assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isPositive();
    }
  }
}
