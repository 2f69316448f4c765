package dev.sluice;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

/**
 * Instance B of {@link FenceLagTest}, in a JVM of its own: one instance of the budget over an
 * H2 database of its own, sharing over the given Redis. Says {@code ready} once it hears the
 * channel, then {@code applied <count> <System.nanoTime()>} each time it has applied another
 * instance's write fence (polling its count every 20 µs); ends when its stdin closes.
 *
 * <p>Arguments: the budget's name, the Redis URI, the share key.
 */
public final class FenceLagWorker {
  private FenceLagWorker() {}

  public static void main(String[] args) throws Exception {
    String url = "jdbc:h2:mem:fence-lag-b;DB_CLOSE_DELAY=-1";
    try (var keepAlive = DriverManager.getConnection(url);
        RateLimitedDataSource b = RateLimitedDataSource.builder(AnswersSeenTest.plain(url))
            .name(args[0]).budget(10_000).breakerFlag(BreakerFlag.manual())
            .properties(FenceLagTest.sharing(args[1], args[2])).build()) {
      while (!b.enforcer().hearsShared()) {
        LockSupport.parkNanos(1_000_000);
      }
      System.out.println("ready");
      Thread watcher = new Thread(() -> watch(b), "fence-lag-watcher");
      watcher.setDaemon(true);
      watcher.start();
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        while (in.readLine() != null) {
          // until the parent closes stdin
        }
      }
    }
  }

  private static void watch(RateLimitedDataSource b) {
    long seen = 0;
    while (true) {
      long heard = b.enforcer().answers().sharedFencesHeard();
      if (heard != seen) {
        long now = System.nanoTime();
        seen = heard;
        System.out.println("applied " + heard + " " + now);
      }
      LockSupport.parkNanos(20_000);
    }
  }
}
