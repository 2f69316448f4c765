package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.SluiceDriver;
import dev.sluice.testing.Await;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 item 9: a budget built against a silent Redis held the JVM-wide lock for its first read,
 * so connects for every other name, and every stats scrape, waited behind it.
 */
class DriverBudgetBuildsOutsideTheLockTest {
  private static final long REDIS_TIMEOUT_MS = 3000;

  private static TestRedis redis;
  private static TcpProxy silent;

  @BeforeAll
  static void startSilentRedis() throws Exception {
    redis = TestRedis.start();
    silent = TcpProxy.to(redis.host(), redis.port());
    silent.mode(TcpProxy.Mode.SILENT);
  }

  @AfterAll
  static void stop() throws Exception {
    silent.close();
    redis.close();
  }

  @Test
  void connect_whileAnotherNameWaitsOnASilentRedis_neitherItNorStatsWait() throws Exception {
    SluiceDriver driver = new SluiceDriver();
    driver.connect("jdbc:sluice:h2:mem:warmup;sluice.name=warm-up;sluice.budget=100;"
        + "sluice.jmx=false", null).close(); // class loading and H2's start are not measured
    CompletableFuture<Connection> slow = CompletableFuture.supplyAsync(() -> {
      try {
        return driver.connect("jdbc:sluice:h2:mem:slowredis;sluice.name=slow-redis;"
            + "sluice.budget=100;sluice.jmx=false;sluice.redis=redis://127.0.0.1:" + silent.port()
            + ";sluice.redis.timeout=" + REDIS_TIMEOUT_MS + "ms", null);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Await.until("the slow build connected to the silent Redis", Duration.ofSeconds(5),
        () -> silent.connections() > 0); // and now waits on it, up to the timeout

    long start = System.nanoTime();
    try (Connection other = driver.connect("jdbc:sluice:h2:mem:fastname;sluice.name=fast-name;"
        + "sluice.budget=100;sluice.jmx=false", null)) {
      boolean statsAnswered = SluiceDriver.stats("slow-redis").isEmpty();
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(other.isValid(1)).isTrue();
      assertThat(statsAnswered).as("no figures while the budget is being built").isTrue();
      assertThat(slow).as("the slow build still waits on Redis").isNotDone();
      assertThat(tookMs).as("the other name's connect and a stats call").isLessThan(1000);
      System.out.printf("[figures] connect for another name + stats while a build waits on a"
          + " silent Redis (timeout %d ms): %d ms%n", REDIS_TIMEOUT_MS, tookMs);
    }
    slow.get(30, TimeUnit.SECONDS).close(); // fails safe: built once Redis times out
  }
}
