package dev.sluice.examples.drill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import redis.embedded.RedisServer;

/**
 * The Redis the answering run's instances share their kept results through
 * ({@code sluice.stale.share}) when the drill is given no {@code --redis}: a real
 * {@code redis-server} from Maven (embedded-redis), started once, on a free local port, when an
 * instance first asks, and stopped when the JVM exits. Nothing else uses it: the breaker flag
 * stays in-process.
 */
final class SharedRedis {
  private static String uri;

  private SharedRedis() {}

  /** The URI of the embedded Redis, started on first call. */
  static synchronized String uri() {
    if (uri == null) {
      try {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
          port = socket.getLocalPort();
        }
        RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
            .setting("save \"\"").setting("appendonly no").build();
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          try {
            server.stop();
          } catch (IOException e) {
            // the JVM is ending; its child process ends with it
          }
        }, "drill-redis-stop"));
        uri = "redis://127.0.0.1:" + port;
      } catch (IOException e) {
        throw new UncheckedIOException("could not start the embedded Redis the answering run"
            + " shares its kept results through; try --stale-share off", e);
      }
    }
    return uri;
  }
}
