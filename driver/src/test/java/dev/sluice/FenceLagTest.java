package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Await;
import dev.sluice.testing.TestRedis;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The write fence's lag between two JVMs (issue 38, item 6; target p99 within 20 ms): instance A
 * here, instance B in a child JVM ({@link FenceLagWorker}), one budget sharing over a real
 * Redis. Each round A runs a write (H2, admitted while limiting) and B says when it applied the
 * fence; the lag is B's {@code System.nanoTime()} then less A's just before the write (one
 * monotonic clock for every process of a Linux host). The rounds start at random moments of
 * the 10 ms sending tick. Prints p50, p99 and the worst; asserts only that every fence arrived
 * within 250 ms (a bound for a loaded 2-core machine, not the target).
 */
@SuppressWarnings("try")
class FenceLagTest {
  static final String KEY = "fence-lag-key-0123456789abcdef0123";
  private static final int ROUNDS = Integer.getInteger("fenceLag.rounds", 300);
  private static final Duration ARRIVAL = Duration.ofSeconds(10);

  static Properties sharing(String redisUri, String key) {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.redis", redisUri);
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.share-key", key);
    return p;
  }

  @Test
  void aWriteOnA_isFencedOnB_p99Reported() throws Exception {
    String name = "fence-lag-" + ProcessHandle.current().pid();
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (TestRedis redis = TestRedis.start();
        Connection keepAlive = DriverManager.getConnection(url);
        RateLimitedDataSource a = RateLimitedDataSource.builder(AnswersSeenTest.plain(url))
            .name(name).budget(10_000).breakerFlag(flag)
            .properties(sharing(redis.uri(), KEY)).build()) {
      try (Statement s = keepAlive.createStatement()) {
        s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
        s.execute("INSERT INTO items VALUES (1, 'one')");
      }
      Process b = child(name, redis.uri());
      BlockingQueue<String> said = lines(b);
      try {
        assertThat(said.poll(60, TimeUnit.SECONDS)).as("B is ready").isEqualTo("ready");
        Await.until("A hears the channel", ARRIVAL, () -> a.enforcer().hearsShared());
        flag.trip(); // A limits: its writes are fenced, and the fences travel
        long[] lags = new long[ROUNDS];
        try (Connection c = a.getConnection(); Statement s = c.createStatement()) {
          for (int i = 0; i < ROUNDS; i++) {
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000, 15_000_000));
            long before = System.nanoTime();
            s.executeUpdate("UPDATE items SET name = 'v" + i + "' WHERE id = 1");
            String applied = said.poll(ARRIVAL.toSeconds(), TimeUnit.SECONDS);
            assertThat(applied).as("B applied fence %s", i + 1).startsWith("applied ");
            String[] words = applied.split(" ");
            assertThat(Long.parseLong(words[1])).as("one fence a round").isEqualTo(i + 1);
            lags[i] = Long.parseLong(words[2]) - before;
          }
        }
        Arrays.sort(lags);
        String figures = String.format("fence lag over %d writes: p50 %.2f ms, p99 %.2f ms,"
            + " worst %.2f ms", ROUNDS, ms(lags, 0.50), ms(lags, 0.99), lags[ROUNDS - 1] / 1e6);
        System.out.println("[figures] " + figures);
        assertThat(lags[ROUNDS - 1]).as(figures).isLessThan(TimeUnit.MILLISECONDS.toNanos(250));
        assertThat(lags[0]).as(figures).isPositive();
      } finally {
        b.getOutputStream().close();
        if (!b.waitFor(20, TimeUnit.SECONDS)) {
          b.destroyForcibly();
        }
      }
    }
  }

  private static double ms(long[] sorted, double quantile) {
    return sorted[(int) Math.ceil(quantile * sorted.length) - 1] / 1e6;
  }

  private static Process child(String name, String redisUri) throws IOException {
    String surefire = System.getProperty("surefire.test.class.path");
    String classPath = surefire != null && !surefire.isBlank() ? surefire
        : System.getProperty("java.class.path");
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
        "-cp", classPath.trim(), FenceLagWorker.class.getName(), name, redisUri, KEY);
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  private static BlockingQueue<String> lines(Process process) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the child ended
      }
    }, "fence-lag-stdout");
    reader.setDaemon(true);
    reader.start();
    return lines;
  }
}
