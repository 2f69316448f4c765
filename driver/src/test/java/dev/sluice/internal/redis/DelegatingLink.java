package dev.sluice.internal.redis;

import java.time.Duration;
import java.util.Map;

/** A {@link RedisLink} that passes every call on: a test overrides the one it interleaves with. */
class DelegatingLink implements RedisLink {
  private final RedisLink real;

  DelegatingLink(RedisLink real) {
    this.real = real;
  }

  @Override
  public String get(String key) {
    return real.get(key);
  }

  @Override
  public void setAndPublish(String key, String value, Duration ttl, String channel,
      String message) {
    real.setAndPublish(key, value, ttl, channel, message);
  }

  @Override
  public void deleteAndPublish(String key, String channel, String message) {
    real.deleteAndPublish(key, channel, message);
  }

  @Override
  public long vote(String key, String member, Duration ttl) {
    return real.vote(key, member, ttl);
  }

  @Override
  public long heartbeat(String key, String member, Duration expiry) {
    return real.heartbeat(key, member, expiry);
  }

  @Override
  public void leave(String key, String member) {
    real.leave(key, member);
  }

  @Override
  public Map<String, String> publish(String key, String member, String value, Duration expiry) {
    return real.publish(key, member, value, expiry);
  }

  @Override
  public void forget(String key, String member) {
    real.forget(key, member);
  }

  @Override
  public void send(String channel, String message) {
    real.send(channel, message);
  }

  @Override
  public void subscribe(String channel, Duration silence, Listener listener) {
    real.subscribe(channel, silence, listener);
  }

  @Override
  public void close() {}
}
