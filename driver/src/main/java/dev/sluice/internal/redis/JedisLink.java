package dev.sluice.internal.redis;

import dev.sluice.internal.config.RedisEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@link RedisLink} over one Redis server, or over the master that Sentinel names, with Jedis.
 * {@link ClusterLink} does the same over a Redis Cluster. The commands both send, and the settings
 * of their connections, are written once in {@link CommandLink}; this class says where a command
 * runs. These three and {@link JedisSubscriber} are the only classes in Sluice that import Jedis.
 *
 * <p>The pool is made on first use, so an unreachable Redis never fails a build. After a
 * connection error, or a {@code READONLY} refusal, the pool is dropped: the next call makes a new
 * one, asking the Sentinels again where the master is. Sentinel is asked by Sluice itself, not by
 * Jedis' {@code JedisSentinelPool}, whose constructor fails when no Sentinel answers and whose
 * listener threads would outlive our naming and closing rules. Each Sentinel gets the same
 * timeouts. This class is threadsafe.
 */
final class JedisLink extends CommandLink<Jedis> {

  /** The pool to the current master; {@code null} when it must be located again. */
  private volatile Pooled pooled;
  private volatile boolean closed;
  /** Serialises making and dropping the pool; a lock, so a virtual thread is never pinned. */
  private final ReentrantLock lock = new ReentrantLock();

  /** A pool and the address it connects to. */
  private record Pooled(HostAndPort address, JedisPool pool) {}

  private JedisLink(RedisEndpoint endpoint, Duration timeout, String clientName) {
    super(endpoint, timeout, clientName);
  }

  /**
   * Makes a link; connects lazily, so an unreachable Redis does not fail here.
   *
   * @param endpoint the server
   * @param timeout connect, read and borrow timeout
   * @param clientName shown by {@code CLIENT LIST}
   * @return the link
   */
  static RedisLink open(RedisEndpoint endpoint, Duration timeout, String clientName) {
    return new JedisLink(endpoint, timeout, clientName);
  }

  @Override
  public void subscribe(String channel, Duration silence, Listener listener) {
    HostAndPort address;
    try {
      address = pooled().address();
    } catch (JedisException e) {
      throw failed("SUBSCRIBE " + channel, e.getMessage(), e);
    }
    new JedisSubscriber(address, clientConfig(silence), channel, endpoint.address(), listener)
        .run();
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      if (pooled != null) {
        pooled.pool().close();
        pooled = null;
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  <T> T call(String what, Function<Jedis, T> command) {
    Pooled current = null;
    try {
      current = pooled();
      try (Jedis jedis = current.pool().getResource()) {
        return command.apply(jedis);
      }
    } catch (JedisException | IllegalStateException e) {
      if (current != null && pointsElsewhere(e)) {
        forget(current);
      }
      JedisDataException reply = errorReply(e);
      if (reply != null) {
        throw refused(what, reply, e);
      }
      throw failed(what, e.getMessage(), e);
    }
  }

  @Override
  void setWithExpiry(Jedis jedis, String key, String value, String px) {
    jedis.sendCommand(Command.SET, key, value, "PX", px);
  }

  @Override
  long publishOn(Jedis jedis, String channel, String message) {
    return jedis.publish(channel, message);
  }

  /**
   * A broken connection, or a write refused by a replica (a Sentinel failover demoted the server):
   * the idle connections most likely point at the same dead socket or old master.
   */
  private static boolean pointsElsewhere(RuntimeException e) {
    return e instanceof JedisConnectionException
        || String.valueOf(e.getMessage()).startsWith("READONLY");
  }

  /** The pool to the current master, locating it first if need be. */
  private Pooled pooled() {
    Pooled current = pooled;
    if (current != null) {
      return current;
    }
    lock.lock();
    try {
      if (closed) {
        throw new JedisException("the link is closed");
      }
      if (pooled == null) {
        HostAndPort address = locate();
        pooled = new Pooled(address, new JedisPool(poolConfig(), address, clientConfig(timeout)));
      }
      return pooled;
    } finally {
      lock.unlock();
    }
  }

  private void forget(Pooled stale) {
    lock.lock();
    try {
      if (pooled == stale) {
        pooled = null;
        stale.pool().close(); // connections still borrowed are destroyed when returned
      }
    } finally {
      lock.unlock();
    }
  }

  /** The server, or the master that the first Sentinel to answer names. */
  private HostAndPort locate() {
    if (!endpoint.viaSentinel()) {
      return new HostAndPort(endpoint.host(), endpoint.port());
    }
    DefaultJedisClientConfig asSentinel = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(millis(timeout)).socketTimeoutMillis(millis(timeout))
        .clientName(clientName).clientSetInfoConfig(ClientSetInfoConfig.DISABLED).build();
    for (String sentinel : endpoint.sentinels()) {
      try (Jedis jedis = new Jedis(HostAndPort.from(sentinel), asSentinel)) {
        List<String> master = jedis.sentinelGetMasterAddrByName(endpoint.master());
        if (master != null && master.size() == 2) {
          return new HostAndPort(master.get(0), Integer.parseInt(master.get(1)));
        }
      } catch (JedisException | NumberFormatException e) {
        // ask the next Sentinel
      }
    }
    throw new JedisConnectionException("no Sentinel answered for master " + endpoint.master());
  }
}
