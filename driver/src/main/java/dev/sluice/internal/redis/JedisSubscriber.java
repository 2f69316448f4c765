package dev.sluice.internal.redis;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One subscription on a connection of its own to one server (or one cluster node), run on the
 * calling thread: what {@link RedisLink#subscribe} does for {@link JedisLink} and
 * {@link ClusterLink}. The connection's blocking read timeout comes with its client settings, so a
 * silent server ends the subscription in an exception. This class is threadsafe.
 */
final class JedisSubscriber implements RedisLink.Subscription {
  private final HostAndPort address;
  private final JedisClientConfig config;
  private final String channel;
  private final String where;
  private final RedisLink.Listener listener;
  private final JedisPubSub pubSub = new JedisPubSub() {
    @Override
    public void onSubscribe(String subscribed, int count) {
      listener.subscribed(JedisSubscriber.this);
    }

    @Override
    public void onMessage(String from, String message) {
      listener.message(message);
    }

    @Override
    public void onPong(String pattern) {
      listener.pong();
    }
  };
  private volatile Jedis jedis;
  private volatile boolean cancelled;

  /**
   * Makes a subscription; {@link #run()} runs it.
   *
   * @param address the server to subscribe on
   * @param config its client settings, the blocking read timeout the longest silence
   * @param channel the channel
   * @param where the Redis as messages name it, without a password
   * @param listener hears the subscription, its messages and pongs
   */
  JedisSubscriber(HostAndPort address, JedisClientConfig config, String channel, String where,
      RedisLink.Listener listener) {
    this.address = address;
    this.config = config;
    this.channel = channel;
    this.where = where;
    this.listener = listener;
  }

  /**
   * Subscribes and delivers until the connection fails or {@link #cancel()} is called.
   *
   * @throws RedisDown when the connection fails or goes silent (not after a cancel)
   */
  void run() {
    try {
      // Jedis connects in its constructor: the connect and read timeouts bound it.
      Jedis connected = new Jedis(address, config);
      jedis = connected;
      if (cancelled) { // cancel() ran before the connection was published
        return;
      }
      connected.subscribe(pubSub, channel);
    } catch (JedisException e) {
      if (!cancelled) {
        throw new RedisDown("SUBSCRIBE " + channel + " on " + where + " failed: "
            + e.getMessage(), e);
      }
    } finally {
      Jedis connected = jedis;
      if (connected != null) {
        connected.close();
      }
    }
  }

  @Override
  public void ping() {
    try {
      if (pubSub.isSubscribed()) {
        pubSub.ping();
      }
    } catch (JedisException | IllegalStateException e) {
      // the subscribing thread sees the broken connection and reports it
    }
  }

  @Override
  public void cancel() {
    cancelled = true;
    Jedis connected = jedis;
    if (connected != null) {
      connected.disconnect(); // closes the socket: a blocked read ends at once
    }
  }
}
