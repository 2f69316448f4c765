package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import redis.clients.jedis.Jedis;
import java.util.function.UnaryOperator;
import redis.embedded.RedisInstance;
import redis.embedded.RedisSentinel;
import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * A real Redis for tests: {@code redis-server} from the embedded-redis artifact on a free port,
 * or the server named by the environment variable {@value #ENV} (then it cannot be stopped, and
 * tests that stop Redis are skipped).
 */
public final class TestRedis implements AutoCloseable {
  /** Names an existing Redis to test against, e.g. {@code redis://localhost:6379/15}. */
  public static final String ENV = "IT_SLUICE_REDIS_URI";

  private final RedisInstance server;
  private final String host;
  private final int port;
  private final String uri;
  private long pid;

  private TestRedis(RedisInstance server, String host, int port, String uri) {
    this.server = server;
    this.host = host;
    this.port = port;
    this.uri = uri;
  }

  /** Starts a Redis (or connects to the one in {@value #ENV}). */
  public static TestRedis start() {
    String given = System.getenv(ENV);
    if (given != null && !given.isBlank()) {
      URI parsed = URI.create(given);
      return new TestRedis(null, parsed.getHost(), parsed.getPort(), given);
    }
    return embedded(UnaryOperator.identity());
  }

  /** Starts an embedded Redis that replicates {@code master}. */
  public static TestRedis replicaOf(TestRedis master) {
    return embedded(builder -> builder.slaveOf("127.0.0.1", master.port()));
  }

  /**
   * Starts an embedded Sentinel watching {@code master} under {@code masterName}, quick to fail
   * over (down after 500 ms).
   */
  public static TestRedis sentinelFor(TestRedis master, String masterName) {
    try {
      int port = freePort();
      RedisSentinel sentinel = RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(port)
          .masterPort(master.port()).masterName(masterName).quorumSize(1)
          .downAfterMilliseconds(500).failOverTimeout(2000).parallelSyncs(1).build();
      sentinel.start();
      return new TestRedis(sentinel, "127.0.0.1", port, "redis://127.0.0.1:" + port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TestRedis embedded(UnaryOperator<RedisServerBuilder> extra) {
    try {
      int port = freePort();
      RedisServer server = extra.apply(RedisServer.newRedisServer().port(port).bind("127.0.0.1")
          .setting("save \"\"").setting("appendonly no")).build();
      server.start();
      return new TestRedis(server, "127.0.0.1", port, "redis://127.0.0.1:" + port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether this Redis can be stopped and started (it is embedded). */
  public boolean canStop() {
    return server != null;
  }

  /** The URI to give {@code sluice.redis}. */
  public String uri() {
    return uri;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  /** A plain client, as an operator's {@code redis-cli} would be. */
  public Jedis client() {
    Jedis jedis = new Jedis(URI.create(uri));
    return jedis;
  }

  /** Stops the server process; clients then get connection refused. */
  public void stop() {
    try {
      server.stop();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts the server again on the same port (empty: no persistence). */
  public void restart() {
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Freezes the server process with {@code SIGSTOP}, as a stalled host or a debugger would: the
   * kernel still accepts connections and buffers what clients send, and the server runs it all
   * on {@link #thaw()}.
   */
  public void freeze() {
    pid(); // while it still answers
    signal("-STOP");
  }

  /** Resumes a server frozen by {@link #freeze()} ({@code SIGCONT}). */
  public void thaw() {
    signal("-CONT");
  }

  private void signal(String which) {
    try {
      long pid = pid();
      int exit = new ProcessBuilder("kill", which, Long.toString(pid)).start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException("kill " + which + " " + pid + " exited with " + exit);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The server's process id, as it reports it (asked once, while it answers). */
  private long pid() {
    if (pid == 0) {
      try (Jedis jedis = client()) {
        String info = jedis.info("server");
        pid = info.lines().filter(line -> line.startsWith("process_id:"))
            .mapToLong(line -> Long.parseLong(line.substring("process_id:".length()).trim()))
            .findFirst().orElseThrow();
      }
    }
    return pid;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    if (server != null && server.isActive()) {
      stop();
    }
  }
}
