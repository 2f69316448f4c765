package dev.sluice.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;

/**
 * A Redis server for the tests: an embedded one on a free port, or the one that
 * {@code IT_SLUICE_REDIS_URI} names. Only an embedded server can be stopped and restarted.
 *
 * <p>This class is threadsafe.
 */
public final class Redis implements AutoCloseable {
  /** Names an existing server, as {@code redis://host:port}. */
  public static final String URI_VARIABLE = "IT_SLUICE_REDIS_URI";

  private final String host;
  private final int port;
  private final boolean embedded;
  private RedisServer server;

  private Redis(String host, int port, boolean embedded) {
    this.host = host;
    this.port = port;
    this.embedded = embedded;
  }

  /** Returns the server {@code IT_SLUICE_REDIS_URI} names, or else starts an embedded one. */
  static Redis fromEnvironmentOrEmbedded() {
    String uri = System.getenv(URI_VARIABLE);
    if (uri != null && !uri.isBlank()) {
      URI parsed = URI.create(uri.trim());
      return new Redis(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort(), false);
    }
    return startEmbedded();
  }

  /** Starts an embedded server of its own on a free port. */
  public static Redis startEmbedded() {
    Redis redis = new Redis("127.0.0.1", Ports.free(), true);
    redis.start();
    return redis;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  /** The URI for {@code sluice.redis}. */
  public String uri() {
    return "redis://" + host + ":" + port;
  }

  /** A fresh client; the caller closes it. */
  public Jedis client() {
    return new Jedis(host, port, 2_000);
  }

  /** Sets the breaker flag of budget {@code name} as an operator or a circuit breaker would. */
  public void setFlag(String name, boolean open) {
    String key = "sluice:" + name + ":breaker";
    try (Jedis jedis = client()) {
      if (open) {
        jedis.set(key, "open");
      } else {
        jedis.del(key);
      }
      jedis.publish(key, open ? "open" : "closed");
    }
  }

  public boolean isEmbedded() {
    return embedded;
  }

  /** Starts an embedded server (again) on the same port. */
  public synchronized void start() {
    requireEmbedded();
    if (server != null) {
      return;
    }
    try {
      server = RedisServer.newRedisServer()
          .port(port)
          .setting("bind 127.0.0.1")
          .setting("save \"\"")
          .setting("appendonly no")
          .build();
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded Redis on port " + port, e);
    }
  }

  /** Stops an embedded server; its data is lost. */
  public synchronized void stop() {
    requireEmbedded();
    if (server == null) {
      return;
    }
    try {
      server.stop();
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop embedded Redis", e);
    } finally {
      server = null;
    }
  }

  private void requireEmbedded() {
    if (!embedded) {
      throw new IllegalStateException("only an embedded Redis can be stopped or started");
    }
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      stop();
    }
  }

  @Override
  public String toString() {
    return embedded ? "embedded Redis on port " + port : "Redis from " + URI_VARIABLE;
  }
}
