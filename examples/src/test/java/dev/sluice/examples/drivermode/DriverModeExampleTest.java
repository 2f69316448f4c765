package dev.sluice.examples.drivermode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.SluiceDriver;
import dev.sluice.examples.cacheaside.CachedUsers;
import dev.sluice.examples.cacheaside.ExampleDatabase;
import dev.sluice.examples.cacheaside.ServiceUnavailableException;
import dev.sluice.examples.cacheaside.User;
import java.sql.Connection;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The service configured only through {@code jdbc:sluice:}; runs once the driver has landed. */
class DriverModeExampleTest {

  @BeforeEach
  void driverHasLanded() throws Exception {
    Properties info = new Properties();
    info.setProperty("sluice.budget", "1");
    try (Connection c = new SluiceDriver().connect("jdbc:sluice:h2:mem:probe", info)) {
      assumeTrue(c != null, "the jdbc:sluice: driver has not landed yet");
    }
  }

  @Test
  void find_throughTheSluiceUrl_capsTheDatabaseAndAnswers503() throws Exception {
    BreakerFlag.Manual breaker = BreakerFlag.manual();
    Map<Integer, User> redis = new ConcurrentHashMap<>();
    try (ExampleDatabase db = ExampleDatabase.create();
        HikariDataSource pool = DriverModeExample.pool(db.url(), "0.001")) {
      CachedUsers users = new CachedUsers(redis, new ConcurrentHashMap<>(), breaker,
          new JdbcUsers(pool));
      breaker.trip();

      // sluice.flag is `always` without Redis: the burst of one admits the first read only
      assertThat(users.find(2)).contains(new User(2, "Grace"));
      ServiceUnavailableException e = assertThrows(ServiceUnavailableException.class,
          () -> users.find(3));

      assertThat(e.retryAfterMillis()).isPositive();
      assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isPositive();
    }
  }
}
