package dev.sluice.spring.boot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;

/** A real {@code redis-server} on a free port, from the embedded-redis artifact. */
final class EmbeddedRedis implements AutoCloseable {
  private final RedisServer server;
  private final int port;

  private EmbeddedRedis(RedisServer server, int port) {
    this.server = server;
    this.port = port;
  }

  static EmbeddedRedis start() {
    try {
      int port;
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        port = socket.getLocalPort();
      }
      RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
          .setting("save \"\"").setting("appendonly no").build();
      server.start();
      return new EmbeddedRedis(server, port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  Jedis client() {
    return new Jedis("127.0.0.1", port);
  }

  @Override
  public void close() throws IOException {
    server.stop();
  }
}
