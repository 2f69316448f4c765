package dev.sluice.internal.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/** A {@link RedisLink} in memory that can be made to fail: for stepping the state machines. */
final class FakeLink implements RedisLink {
  final Map<String, String> strings = new HashMap<>();
  final Map<String, Map<String, Long>> sets = new HashMap<>();
  final Map<String, Duration> ttls = new HashMap<>();
  final Map<String, Map<String, String>> hashes = new HashMap<>();
  volatile boolean down;
  /** Refuses only the writes: an ACL without SET and DEL, say. */
  volatile boolean writesDown;
  /**
   * Runs inside {@link #get}, after the value was read and before it is returned: to interleave a
   * message, a trip or a reset with a read.
   */
  volatile Runnable duringGet = () -> {};
  /** Runs at the start of each write, outside the lock: to make a write slow. */
  volatile Runnable beforeWrite = () -> {};
  int gets;
  int writes;
  /** What {@link #send} published: the channel, a space, the message. */
  final java.util.List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public String get(String key) {
    String value;
    synchronized (this) {
      gets++;
      check();
      value = strings.get(key);
    }
    duringGet.run();
    return value;
  }

  @Override
  public void setAndPublish(String key, String value, Duration ttl, String channel,
      String message) {
    beforeWrite.run();
    synchronized (this) {
      writes++;
      checkWrite();
      strings.put(key, value);
      ttls.put(key, ttl);
    }
  }

  @Override
  public void deleteAndPublish(String key, String channel, String message) {
    beforeWrite.run();
    synchronized (this) {
      writes++;
      checkWrite();
      strings.remove(key);
      ttls.remove(key);
    }
  }

  synchronized String value(String key) {
    return strings.get(key);
  }

  synchronized Duration ttl(String key) {
    return ttls.get(key);
  }

  private void checkWrite() {
    check();
    if (writesDown) {
      throw new RedisDown("SET refused by fake: NOPERM", null, true);
    }
  }

  /** Redis' clock for the votes, in ms: a test steps it with its fake ticker. */
  volatile java.util.function.LongSupplier millis = () -> 0;

  @Override
  public long vote(String key, String member, Duration ttl) {
    beforeWrite.run();
    synchronized (this) {
      checkWrite();
      long now = millis.getAsLong();
      Map<String, String> votes = hashes.computeIfAbsent(key, k -> new HashMap<>());
      if (ttl.isZero()) {
        votes.remove(member);
      } else {
        votes.put(member, Long.toString(now + Math.max(1, ttl.toMillis())));
      }
      votes.values().removeIf(ends -> Long.parseLong(ends) <= now);
      return votes.values().stream().mapToLong(ends -> Long.parseLong(ends) - now).max()
          .orElse(0);
    }
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
  public synchronized Map<String, String> publish(String key, String member, String value,
      Duration expiry) {
    check();
    Map<String, String> hash = hashes.computeIfAbsent(key, k -> new HashMap<>());
    hash.put(member, value);
    return new HashMap<>(hash);
  }

  @Override
  public synchronized void forget(String key, String member) {
    check();
    hashes.getOrDefault(key, new HashMap<>()).remove(member);
  }

  @Override
  public synchronized void send(String channel, String message) {
    check();
    sent.add(channel + " " + message);
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
