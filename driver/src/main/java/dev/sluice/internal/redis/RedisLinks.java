package dev.sluice.internal.redis;

import dev.sluice.internal.config.RedisEndpoint;
import java.time.Duration;

/**
 * Makes the {@link RedisLink} an endpoint calls for: {@link ClusterLink} for a Redis Cluster,
 * {@link JedisLink} for one server or the master Sentinel names. Kept apart from the interface so
 * that the seam does not name what implements it.
 */
public final class RedisLinks {

  private RedisLinks() {}

  /**
   * Makes a link to one Redis server, or to a Redis Cluster. It connects lazily: an unreachable
   * Redis does not fail here, only the calls made later.
   *
   * @param endpoint the server (or cluster) and its login
   * @param timeout the connect timeout, the read timeout and the longest wait for a pooled
   *     connection
   * @param clientName the name {@code CLIENT LIST} shows for its connections
   * @return the link
   */
  public static RedisLink connect(RedisEndpoint endpoint, Duration timeout, String clientName) {
    return endpoint.cluster() ? ClusterLink.open(endpoint, timeout, clientName)
        : JedisLink.open(endpoint, timeout, clientName);
  }
}
