package dev.sluice.internal.redis;

import dev.sluice.internal.config.RedisEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * {@link RedisLink} over a Redis Cluster, with Jedis' {@link JedisCluster}: the same commands,
 * keys, channel and scripts as {@link JedisLink} (both send those of {@link CommandLink}), so
 * instances on a cluster and tools such as {@code redis-cli -c} see the protocol unchanged.
 *
 * <p>Every command and script touches one key, so Jedis routes each to its slot's master
 * (following {@code MOVED} and {@code ASK}) and no hash tags are needed. A classic
 * {@code PUBLISH} reaches every node, so the subscriber listens on one node and moves to the next
 * when it fails. While a key's master is down, calls on it fail in bounded time ({@link RedisDown};
 * {@code CLUSTERDOWN} and {@code TRYAGAIN} count as unreachable); this link asks for the slots again
 * before the call that follows any failed one, since a silent master fails a call in a single
 * attempt, so the next call after a promotion reaches the replica.
 *
 * <p>Each connect, read and pool wait takes at most the timeout; a call makes at most
 * {@value #ATTEMPTS} attempts and starts none once the timeout has passed since it began. The
 * topology is refreshed only on demand (no thread of Jedis' own), the cluster client is made on
 * first use (an unreachable cluster never fails a build), and {@link #close()} closes every pool.
 *
 * <p>This class is threadsafe. The long form, with the figures measured on a test cluster:
 * docs/redis.md#redis-cluster.
 */
final class ClusterLink extends CommandLink<JedisCluster> {

  /** Attempts per call: a {@code MOVED} then an {@code ASK}, or two failed connects then one. */
  static final int ATTEMPTS = 3;

  /** Made on first use; {@code null} until then, or after a failed start. */
  private volatile Client client;
  /** Whether a call failed without an answer since the slots were last asked for. */
  private final AtomicBoolean topologyStale = new AtomicBoolean();
  private volatile boolean closed;
  /** Serialises making and closing the cluster client; a lock, so no virtual thread is pinned. */
  private final ReentrantLock lock = new ReentrantLock();
  /** Which known node the next subscription tries; moves on after a failed subscription. */
  private final AtomicInteger subscriberTurn =
      new AtomicInteger(ThreadLocalRandom.current().nextInt(1024));

  /** The cluster client, and the provider of its connections, whose topology is renewed here. */
  private record Client(JedisCluster cluster, ClusterConnectionProvider provider) {}

  private ClusterLink(RedisEndpoint endpoint, Duration timeout, String clientName) {
    super(endpoint, timeout, clientName);
  }

  /**
   * Makes a link; connects lazily, so an unreachable cluster does not fail here.
   *
   * @param endpoint the cluster: its nodes and login
   * @param timeout connect, read and borrow timeout, and the longest time a call starts attempts
   * @param clientName shown by {@code CLIENT LIST}
   * @return the link
   */
  static RedisLink open(RedisEndpoint endpoint, Duration timeout, String clientName) {
    return new ClusterLink(endpoint, timeout, clientName);
  }

  @Override
  public void subscribe(String channel, Duration silence, Listener listener) {
    HostAndPort node = call("SUBSCRIBE " + channel, this::subscriberNode);
    try {
      new JedisSubscriber(node, clientConfig(silence), channel, node + " of " + endpoint.address(),
          listener).run();
    } catch (RedisDown e) {
      subscriberTurn.incrementAndGet(); // that node may be dead: the next try goes elsewhere
      throw e;
    }
  }

  /** The node whose turn it is, among those the cluster client knows, masters and replicas. */
  private HostAndPort subscriberNode(JedisCluster cluster) {
    List<String> known = new ArrayList<>(cluster.getClusterNodes().keySet());
    if (known.isEmpty()) {
      throw new JedisConnectionException("no node of the cluster is known");
    }
    known.sort(null); // the same order at each turn
    return HostAndPort.from(known.get(Math.floorMod(subscriberTurn.get(), known.size())));
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      if (client != null) {
        client.cluster().close(); // closes the provider and every node's pool
        client = null;
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  <T> T call(String what, Function<JedisCluster, T> command) {
    try {
      Client current = client();
      if (topologyStale.compareAndSet(true, false)) {
        renew(current);
      }
      return command.apply(current.cluster());
    } catch (JedisException | IllegalStateException e) {
      JedisDataException reply = errorReplyAmongAll(e);
      if (reply != null && !clusterUnavailable(reply)) {
        throw refused(what, reply, e);
      }
      topologyStale.set(true);
      throw failed(what, reason(e), e);
    }
  }

  @Override
  void setWithExpiry(JedisCluster cluster, String key, String value, String px) {
    cluster.sendCommand(key, Command.SET, key, value, "PX", px); // the key routes it
  }

  @Override
  long publishOn(JedisCluster cluster, String channel, String message) {
    return cluster.publish(channel, message);
  }

  /**
   * Asks the cluster for its slots again. Jedis does so itself only after two failed attempts in
   * one call, but a silent master (a partition, a stalled host) uses up the whole retry deadline
   * in one attempt: without this, the link would keep asking the old master after its replica
   * took over. Done at the start of the next call rather than at the end of the failed one, so a
   * failure is reported within its own bound.
   */
  private void renew(Client current) {
    try {
      current.provider().renewSlotCache();
    } catch (JedisException e) {
      topologyStale.set(true); // no node answered: try again next call
    }
  }

  /**
   * The error reply behind a failure, if a node answered at all. The cluster client hides it among
   * the suppressed exceptions when no node would take the login ({@code WRONGPASS}) while it
   * started: that is "refused", not "unreachable".
   */
  private static JedisDataException errorReplyAmongAll(Exception e) {
    JedisDataException reply = errorReply(e);
    for (int i = 0; reply == null && i < e.getSuppressed().length; i++) {
      reply = errorReply(e.getSuppressed()[i]);
    }
    return reply;
  }

  /**
   * The cluster answered, but cannot serve the slot now (a master down and not yet replaced, a
   * slot migrating, a node loading): as good as no answer, for the log and for the flag.
   */
  private static boolean clusterUnavailable(JedisDataException reply) {
    String message = String.valueOf(reply.getMessage());
    return message.startsWith("CLUSTERDOWN") || message.startsWith("TRYAGAIN")
        || message.startsWith("MASTERDOWN") || message.startsWith("LOADING");
  }

  /** Jedis' message, and the first failure behind "no more attempts", which says why. */
  private static String reason(Exception e) {
    Throwable[] behind = e.getSuppressed();
    if (behind.length == 0 || behind[0] == null) {
      return e.getMessage();
    }
    Throwable first = behind[0].getCause() != null ? behind[0].getCause() : behind[0];
    return e.getMessage() + " (" + first.getMessage() + ")";
  }

  /**
   * The cluster client, made first if need be: asks the listed nodes for the slots. Made without
   * Jedis' periodic topology refresh, which would run a thread of its own.
   */
  private Client client() {
    Client current = client;
    if (current != null) {
      return current;
    }
    lock.lock();
    try {
      if (closed) {
        throw new JedisException("the link is closed");
      }
      if (client == null) {
        Set<HostAndPort> seeds = new HashSet<>();
        endpoint.nodes().forEach(node -> seeds.add(HostAndPort.from(node)));
        ClusterConnectionProvider provider = new ClusterConnectionProvider(seeds,
            clientConfig(timeout), poolConfig());
        client = new Client(new JedisCluster(provider, ATTEMPTS, timeout), provider);
      }
      return client;
    } finally {
      lock.unlock();
    }
  }
}
