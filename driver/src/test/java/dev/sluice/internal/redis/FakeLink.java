package dev.sluice.internal.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/** A {@link RedisLink} in memory that can be made to fail: for stepping the state machines. */
final class FakeLink implements RedisLink {
  final Map<String, String> strings = new HashMap<>();
  final Map<String, Map<String, Long>> sets = new HashMap<>();
  volatile boolean down;
  /** Runs inside {@link #get}, before the answer: to interleave a message with a read. */
  volatile Runnable duringGet = () -> {};
  int gets;

  @Override
  public synchronized String get(String key) {
    gets++;
    check();
    duringGet.run();
    return strings.get(key);
  }

  @Override
  public synchronized void setAndPublish(String key, String value, Duration ttl, String channel,
      String message) {
    check();
    strings.put(key, value);
  }

  @Override
  public synchronized void deleteAndPublish(String key, String channel, String message) {
    check();
    strings.remove(key);
  }

  @Override
  public synchronized long heartbeat(String key, String member, Duration expiry) {
    check();
    Map<String, Long> set = sets.computeIfAbsent(key, k -> new HashMap<>());
    set.put(member, 0L);
    return set.size();
  }

  @Override
  public synchronized void leave(String key, String member) {
    check();
    sets.getOrDefault(key, new HashMap<>()).remove(member);
  }

  @Override
  public void subscribe(String channel, Duration silence, Listener listener) {
    throw new RedisDown("no pub/sub in the fake", null);
  }

  @Override
  public void close() {}

  private void check() {
    if (down) {
      throw new RedisDown("fake Redis is down", null);
    }
  }

  static <T> T quietly(Supplier<T> action) {
    return action.get();
  }
}
