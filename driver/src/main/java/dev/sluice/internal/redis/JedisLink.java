package dev.sluice.internal.redis;

import dev.sluice.internal.config.RedisEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
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
 * {@link ClusterLink} does the same over a Redis Cluster; the commands both send are written once,
 * in {@link CommandLink}, and this class says where they run. These three and
 * {@link JedisSubscriber} are the only classes in Sluice that import Jedis.
 *
 * <p>Jedis' defaults do not suit a flag reader, so each is set here on purpose:
 *
 * <ul>
 *   <li>connect and read timeouts are {@code sluice.redis.timeout}, not Jedis' 2 s;
 *   <li>the pool's borrow wait is bounded by the same timeout (commons-pool waits forever by
 *       default), and it runs no evictor thread and registers no JMX bean, so closing the pool
 *       leaves nothing behind;
 *   <li>the subscriber's blocking read timeout is finite (Jedis' is 0, forever), so a silent
 *       partition surfaces as an exception instead of a thread stuck for ever;
 *   <li>{@code CLIENT SETINFO} is off: one round trip less per new connection, and no error on
 *       servers older than 7.2.
 * </ul>
 *
 * <p>The pool is made on first use, so an unreachable Redis never fails a build. After a
 * connection error, or a {@code READONLY} refusal, the pool is dropped: the next call makes a new
 * one, asking the Sentinels again where the master is. Sentinel is asked by Sluice itself, not by
 * Jedis' {@code JedisSentinelPool}, whose constructor fails when no Sentinel answers and whose
 * listener threads would outlive our naming and closing rules. Each Sentinel gets the same
 * timeouts. This class is threadsafe.
 */
final class JedisLink extends CommandLink<Jedis> {

  private final RedisEndpoint endpoint;
  private final Duration timeout;
  private final String clientName;
  /** The pool to the current master; {@code null} when it must be located again. */
  private volatile Pooled pooled;
  private volatile boolean closed;
  /** Serialises making and dropping the pool; a lock, so a virtual thread is never pinned. */
  private final ReentrantLock lock = new ReentrantLock();

  /** A pool and the address it connects to. */
  private record Pooled(HostAndPort address, JedisPool pool) {}

  private JedisLink(RedisEndpoint endpoint, Duration timeout, String clientName) {
    this.endpoint = endpoint;
    this.timeout = timeout;
    this.clientName = clientName;
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
      throw new RedisDown("SUBSCRIBE " + channel + " on " + endpoint.address() + " failed: "
          + e.getMessage(), e);
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
  public String toString() {
    return "Redis " + endpoint;
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
        throw new RedisDown(what + " refused by " + endpoint.address() + ": "
            + reply.getMessage(), e, true);
      }
      throw new RedisDown(what + " on " + endpoint.address() + " failed: " + e.getMessage(), e);
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
   * The error reply Redis sent, if it answered at all: {@code NOPERM} is not "unreachable". The
   * pool wraps a failed login ({@code WRONGPASS}) in an exception of its own, hence the chain.
   */
  static JedisDataException errorReply(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof JedisDataException reply) {
        return reply;
      }
    }
    return null;
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
        pooled = new Pooled(address, new JedisPool(poolConfig(timeout), address,
            clientConfig(timeout)));
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

  private DefaultJedisClientConfig clientConfig(Duration readTimeout) {
    return clientConfig(endpoint, timeout, readTimeout, clientName);
  }

  /**
   * The client settings of a connection to {@code endpoint}'s server (or one of its cluster
   * nodes): every timeout {@code timeout} but the blocking read's, {@code readTimeout}.
   */
  static DefaultJedisClientConfig clientConfig(RedisEndpoint endpoint, Duration timeout,
      Duration readTimeout, String clientName) {
    int millis = millis(timeout);
    return DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(millis)
        .socketTimeoutMillis(millis)
        .blockingSocketTimeoutMillis(millis(readTimeout))
        .user(endpoint.user())
        .password(endpoint.password())
        .database(endpoint.database())
        .ssl(endpoint.tls())
        .clientName(clientName)
        .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
        .build();
  }

  /** A pool that waits at most {@code timeout} and leaves no thread or JMX bean behind. */
  static <T> GenericObjectPoolConfig<T> poolConfig(Duration timeout) {
    GenericObjectPoolConfig<T> config = new GenericObjectPoolConfig<>();
    config.setMaxTotal(8);
    config.setMaxIdle(8);
    config.setMinIdle(0);
    config.setMaxWait(timeout);
    config.setBlockWhenExhausted(true);
    config.setJmxEnabled(false);
    config.setTimeBetweenEvictionRuns(Duration.ofMillis(-1));
    return config;
  }

  static int millis(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
  }
}
