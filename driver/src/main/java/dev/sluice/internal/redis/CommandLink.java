package dev.sluice.internal.redis;

import dev.sluice.internal.config.RedisEndpoint;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.commands.JedisCommands;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The commands of {@link RedisLink}, written once for both Jedis clients: {@link JedisLink}'s
 * {@code Jedis} (one server, or the master Sentinel names) and {@link ClusterLink}'s
 * {@code JedisCluster}. Every command here goes through Jedis' {@link JedisCommands} but two,
 * {@code SET} with {@code PX} and {@code PUBLISH}, which are in no interface both clients implement
 * (Jedis 5.2 and 6.0): each link sends those itself ({@link #setWithExpiry}, {@link #publishOn}). A
 * subclass also owns how a command runs ({@link #call}): its connection, its bounds, and which
 * failures are an error reply ({@link #refused}) rather than no answer ({@link #failed}).
 *
 * <p>Jedis' defaults do not suit a flag reader, so both links make their connections with these:
 * connect and read timeouts of {@code sluice.redis.timeout} (not 2 s); a pool borrow wait bounded
 * by the same timeout (commons-pool waits forever), with no evictor thread and no JMX bean; a
 * finite subscriber read timeout (Jedis' 0 is forever), so a silent partition surfaces as an
 * exception; {@code CLIENT SETINFO} off (a round trip less, no error before Redis 7.2).
 *
 * <p>Subclasses, {@link JedisLink} and {@link ClusterLink} alone, are threadsafe.
 *
 * @param <C> the Jedis client a command runs on
 */
abstract class CommandLink<C extends JedisCommands> implements RedisLink {

  /*
   * One atomic step, timed by Redis' own clock so that host clocks never matter. The call to
   * replicate_commands lets Redis before 5.0 replicate the writes after a TIME (a no-op since).
   */
  static final String HEARTBEAT = String.join("\n",
      "if redis.replicate_commands then redis.replicate_commands() end",
      "local t = redis.call('TIME')",
      "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)",
      "local expiry = tonumber(ARGV[2])",
      "redis.call('ZADD', KEYS[1], now, ARGV[1])",
      "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - expiry)",
      "redis.call('PEXPIRE', KEYS[1], expiry * 2)",
      "return redis.call('ZCARD', KEYS[1])");

  /*
   * The demand hash: one atomic step on one key (a Redis Cluster runs it on the key's node). Each
   * field's value begins with the Redis time of its last write, so stale fields are pruned by the
   * same clock and expiry as the members of the instances set; a value without a readable time
   * is pruned too. A value stamped more than an expiry ahead of that clock was not written by
   * this script (a hand-written or foreign field, which would never be pruned): it comes back as
   * {@code future}, which no member publishes, so the reader ignores it.
   */
  static final String PUBLISH = String.join("\n",
      "if redis.replicate_commands then redis.replicate_commands() end",
      "local t = redis.call('TIME')",
      "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)",
      "local expiry = tonumber(ARGV[3])",
      "redis.call('HSET', KEYS[1], ARGV[1], now .. ' ' .. ARGV[2])",
      "local all = redis.call('HGETALL', KEYS[1])",
      "local live = {}",
      "for i = 1, #all, 2 do",
      "  local at, rest = string.match(all[i + 1], '^(%d+) (.*)$')",
      "  if at == nil or tonumber(at) <= now - expiry then",
      "    redis.call('HDEL', KEYS[1], all[i])",
      "  elseif tonumber(at) > now + expiry then",
      "    live[#live + 1] = all[i]",
      "    live[#live + 1] = 'future'",
      "  else",
      "    live[#live + 1] = all[i]",
      "    live[#live + 1] = rest",
      "  end",
      "end",
      "redis.call('PEXPIRE', KEYS[1], expiry * 2)",
      "return live");

  /*
   * The breaker's votes: one atomic step on one hash (a Redis Cluster runs it on the key's node).
   * Each field is a voter, its value the Redis time (ms) its vote expires; a vote is cast with a
   * positive ttl, withdrawn with 0. Expired or unreadable fields are pruned. Returns how long the
   * longest-lived vote has left, and lets the hash expire with it.
   */
  static final String VOTE = String.join("\n",
      "if redis.replicate_commands then redis.replicate_commands() end",
      "local t = redis.call('TIME')",
      "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)",
      "local ttl = tonumber(ARGV[2])",
      "if ttl > 0 then",
      "  redis.call('HSET', KEYS[1], ARGV[1], now + ttl)",
      "else",
      "  redis.call('HDEL', KEYS[1], ARGV[1])",
      "end",
      "local all = redis.call('HGETALL', KEYS[1])",
      "local last = 0",
      "for i = 1, #all, 2 do",
      "  local ends = tonumber(all[i + 1])",
      "  if ends == nil or ends <= now then",
      "    redis.call('HDEL', KEYS[1], all[i])",
      "  elseif ends - now > last then",
      "    last = ends - now",
      "  end",
      "end",
      "if last > 0 then redis.call('PEXPIRE', KEYS[1], last) end",
      "return last");

  /** The server or cluster, and its login. */
  final RedisEndpoint endpoint;
  /** Each connect, read and pool wait takes at most this long. */
  final Duration timeout;
  /** The name {@code CLIENT LIST} shows for this link's connections. */
  final String clientName;

  CommandLink(RedisEndpoint endpoint, Duration timeout, String clientName) {
    this.endpoint = endpoint;
    this.timeout = timeout;
    this.clientName = clientName;
  }

  @Override
  public final String get(String key) {
    return call("GET " + key, client -> client.get(key));
  }

  @Override
  public final void setAndPublish(String key, String value, Duration ttl, String channel,
      String message) {
    call("SET " + key, client -> {
      setWithExpiry(client, key, value, px(ttl));
      return publishOn(client, channel, message);
    });
  }

  @Override
  public final void deleteAndPublish(String key, String channel, String message) {
    call("DEL " + key, client -> {
      client.del(key);
      return publishOn(client, channel, message);
    });
  }

  @Override
  public final void send(String channel, String message) {
    call("PUBLISH " + channel, client -> publishOn(client, channel, message));
  }

  @Override
  public final long vote(String key, String member, Duration ttl) {
    String ms = ttl.isZero() ? "0" : px(ttl);
    Object left = call("vote " + key, client -> client.eval(VOTE, 1, key, member, ms));
    return (Long) left;
  }

  @Override
  public final long heartbeat(String key, String member, Duration expiry) {
    Object count = call("heartbeat " + key,
        client -> client.eval(HEARTBEAT, 1, key, member, px(expiry)));
    return (Long) count;
  }

  @Override
  public final void leave(String key, String member) {
    call("ZREM " + key, client -> client.zrem(key, member));
  }

  @Override
  public final Map<String, String> publish(String key, String member, String value,
      Duration expiry) {
    return fields(call("publish " + key,
        client -> client.eval(PUBLISH, 1, key, member, value, px(expiry))));
  }

  @Override
  public final void forget(String key, String member) {
    call("HDEL " + key, client -> client.hdel(key, member));
  }

  /**
   * Runs {@code command} on a client of this link, within the link's bounds.
   *
   * @param what the command and its key, for the message of a failure
   * @param command what to run
   * @param <T> what it returns
   * @return what the command returned
   * @throws RedisDown if Redis did not answer in time, or refused
   */
  abstract <T> T call(String what, Function<C, T> command);

  /**
   * Sends {@code SET key value PX px}. Sent as words, not through {@code SetParams.px()}: that
   * method's return type changed in Jedis 6 (Spring Boot 3.5's), so a driver compiled against
   * Jedis 5 failed every {@code trip()} there with a {@code NoSuchMethodError}. The two clients'
   * {@code sendCommand} differ: a cluster's needs the key to find the key's node.
   */
  abstract void setWithExpiry(C client, String key, String value, String px);

  /**
   * Sends {@code PUBLISH channel message}. Both clients have the method, but not from a shared
   * interface, so each link calls its own.
   *
   * @return the number of subscribers that heard it
   */
  abstract long publishOn(C client, String channel, String message);

  @Override
  public final String toString() {
    return "Redis " + endpoint;
  }

  /** The failure of a command Redis answered with an error reply ({@code NOPERM}, ...). */
  final RedisDown refused(String what, JedisDataException reply, Exception e) {
    return new RedisDown(what + " refused by " + endpoint.address() + ": " + reply.getMessage(), e,
        true);
  }

  /** The failure of a command Redis did not answer, and why. */
  final RedisDown failed(String what, String reason, Exception e) {
    return new RedisDown(what + " on " + endpoint.address() + " failed: " + reason, e);
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
   * The client settings of a connection to the server (or to one of the cluster's nodes): every
   * timeout the link's but the blocking read's, {@code readTimeout}.
   */
  final DefaultJedisClientConfig clientConfig(Duration readTimeout) {
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

  /** A pool that waits at most the timeout and leaves no thread or JMX bean behind. */
  final <T> GenericObjectPoolConfig<T> poolConfig() {
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

  /** The reply of {@link #PUBLISH}, a flat list of fields and values, as a map. */
  static Map<String, String> fields(Object reply) {
    List<?> flat = (List<?>) reply;
    Map<String, String> live = new HashMap<>();
    for (int i = 0; i + 1 < flat.size(); i += 2) {
      live.put((String) flat.get(i), (String) flat.get(i + 1));
    }
    return live;
  }

  /** A duration as a command's argument ({@code PX}, the scripts' expiry): ms, at least 1. */
  static String px(Duration ttl) {
    return Long.toString(Math.max(1, ttl.toMillis()));
  }

  /** A duration as Jedis' {@code int} timeouts take it: ms, at least 1. */
  static int millis(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
  }
}
