package dev.sluice.internal.redis;

import java.time.Duration;
import java.util.Map;

/**
 * The one seam between Sluice and a Redis client: the few commands the flag and the registry
 * need, nothing else. {@link JedisLink} implements it over a single Redis server (or the master
 * Sentinel names), {@link ClusterLink} over a Redis Cluster; both send the commands written once in
 * {@link CommandLink}, and the flag logic is the same on both. {@link RedisLinks#connect} makes
 * the one an endpoint calls for.
 *
 * <p>Every call either answers or throws {@link RedisDown}, in bounded time: each of its steps — a
 * wait for a pooled connection, a connect (after asking each Sentinel, with the same timeouts),
 * each read — takes at most the link's timeout, so one call may take several. Callers that must
 * not wait that long (a {@code trip()} caller) make the call on a thread of their own.
 * {@link RedisDown#refused()} tells an error reply from no answer. Implementations are threadsafe.
 */
public interface RedisLink extends AutoCloseable {

  /**
   * Reads a string key.
   *
   * @param key the key
   * @return its value, or {@code null} when absent
   * @throws RedisDown if Redis did not answer in time, or refused (a key of another type)
   */
  String get(String key);

  /**
   * Sets a string key with an expiry, then publishes {@code message} on {@code channel}.
   *
   * @throws RedisDown if Redis did not answer in time
   */
  void setAndPublish(String key, String value, Duration ttl, String channel, String message);

  /**
   * Deletes a key, then publishes {@code message} on {@code channel}.
   *
   * @throws RedisDown if Redis did not answer in time
   */
  void deleteAndPublish(String key, String channel, String message);

  /**
   * Casts or withdraws {@code member}'s vote for the breaker in the hash {@code key}: with a
   * positive {@code ttl} the vote lives that long by Redis' own clock, with a zero one it is
   * withdrawn; expired votes are pruned; all in one atomic step that touches {@code key} alone
   * (so it runs on a Redis Cluster too).
   *
   * @return how many milliseconds the longest-lived vote has left, {@code member}'s included; 0
   *     when no vote is live
   * @throws RedisDown if Redis did not answer in time
   */
  long vote(String key, String member, Duration ttl);

  /**
   * Renews {@code member} in the sorted set {@code key} with Redis' own clock as its score,
   * prunes members older than {@code expiry}, and counts the rest, all in one atomic step.
   *
   * @return the number of live members, {@code member} included
   * @throws RedisDown if Redis did not answer in time
   */
  long heartbeat(String key, String member, Duration expiry);

  /**
   * Removes {@code member} from the sorted set {@code key}.
   *
   * @throws RedisDown if Redis did not answer in time
   */
  void leave(String key, String member);

  /**
   * Sets the field {@code member} of the hash {@code key} to Redis' own clock (ms), a space and
   * {@code value}; removes the fields older than {@code expiry}; and returns the rest, all in one
   * atomic step that touches {@code key} alone (so it runs on a Redis Cluster too).
   *
   * @return each live field and its value (without the time), {@code member} included; a field
   *     stamped more than {@code expiry} ahead of Redis' clock has the value {@code future}
   * @throws RedisDown if Redis did not answer in time
   */
  Map<String, String> publish(String key, String member, String value, Duration expiry);

  /**
   * Removes the field {@code member} from the hash {@code key}.
   *
   * @throws RedisDown if Redis did not answer in time
   */
  void forget(String key, String member);

  /**
   * Publishes {@code message} on {@code channel}; nobody need be listening.
   *
   * @throws RedisDown if Redis did not answer in time
   */
  void send(String channel, String message);

  /**
   * Subscribes to {@code channel} on a connection of its own and delivers to {@code listener}
   * until the connection fails or {@link Subscription#cancel()} is called. Blocks the calling
   * thread meanwhile. The connection's read timeout is finite: a subscriber that hears nothing
   * (not even a reply to {@link Subscription#ping()}) for {@code silence} gives up.
   *
   * @throws RedisDown when the connection fails or goes silent (not after a cancel)
   */
  void subscribe(String channel, Duration silence, Listener listener);

  /** Closes the pool. Idempotent. */
  @Override
  void close();

  /** What a subscription hears. Called on the subscribing thread. */
  interface Listener {
    /** The subscription is live; {@code subscription} pings or cancels it from any thread. */
    void subscribed(Subscription subscription);

    /** A message arrived on the channel. */
    void message(String message);

    /** A reply to a ping arrived. */
    void pong();
  }

  /** A live subscription, usable from any thread. */
  interface Subscription {
    /** Sends a ping; a failure is ignored here and surfaces on the subscribing thread. */
    void ping();

    /** Ends the subscription by closing its connection, at once, even if Redis is silent. */
    void cancel();
  }
}
