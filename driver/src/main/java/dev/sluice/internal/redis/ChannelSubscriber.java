package dev.sluice.internal.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one subscription to a channel on a thread of its own — the breaker's, for
 * {@link FlagReader}; the kept results', for {@link ResultChannel}: subscribes, hands each
 * message on, and subscribes again after the connection failed or went silent, a pause later
 * (the reader's polling covers the gap; kept results published meanwhile are not heard). Its read timeout is the ping
 * interval plus the timeout, so a silent connection ends in an exception; {@link #ping()}, called
 * every {@code sluice.redis.ping}, keeps a healthy one talking.
 *
 * <p>This class is threadsafe.
 */
final class ChannelSubscriber implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChannelSubscriber.class);

  private final String name;
  private final String what;
  private final String channel;
  private final RedisLink link;
  private final Duration silence;
  private final long pauseNanos;
  private final Consumer<String> onMessage;
  private final DaemonThreads threads;
  /** Told when the subscription is confirmed ({@code true}) and when it is lost. */
  private final Consumer<Boolean> liveness;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile RedisLink.Subscription subscription;

  /**
   * Makes a subscriber; {@link #start()} starts its thread.
   *
   * @param name the budget's name, for the log
   * @param what what subscribes, for the log: {@code the breaker subscriber}
   * @param channel the channel
   * @param link the Redis
   * @param silence how long a subscription may hear nothing before it counts as lost
   * @param pauseNanos how long to wait before subscribing again
   * @param onMessage hears each message, on the subscriber's thread
   * @param threads makes the subscriber's thread
   */
  ChannelSubscriber(String name, String what, String channel, RedisLink link, Duration silence,
      long pauseNanos, Consumer<String> onMessage, DaemonThreads threads) {
    this(name, what, channel, link, silence, pauseNanos, onMessage, threads, live -> { });
  }

  /**
   * As the other constructor, telling {@code liveness} on the subscriber's thread when Redis
   * confirms the subscription ({@code true}: messages are heard from now) and when it is lost
   * ({@code false}: the connection failed, or heard nothing for {@code silence}).
   */
  ChannelSubscriber(String name, String what, String channel, RedisLink link, Duration silence,
      long pauseNanos, Consumer<String> onMessage, DaemonThreads threads,
      Consumer<Boolean> liveness) {
    this.liveness = liveness;
    this.name = name;
    this.what = what;
    this.channel = channel;
    this.link = link;
    this.silence = silence;
    this.pauseNanos = pauseNanos;
    this.onMessage = onMessage;
    this.threads = threads;
  }

  /** Starts the thread that subscribes, and subscribes again, until {@link #close()}. */
  void start() {
    threads.newThread(this::listen).start();
  }

  /**
   * Whether Redis has confirmed the subscription (its reply to {@code SUBSCRIBE}) and it has not
   * been lost since: only then is a message published on the channel heard here. One published
   * before, or while it is down, is lost for good (pub/sub keeps nothing).
   *
   * @return {@code true} while subscribed
   */
  boolean live() {
    return subscription != null;
  }

  /** Pings the live subscription, if there is one. */
  void ping() {
    RedisLink.Subscription current = subscription;
    if (current != null) {
      current.ping();
    }
  }

  private void listen() {
    RedisLink.Listener listener = new RedisLink.Listener() {
      @Override
      public void subscribed(RedisLink.Subscription live) {
        subscription = live;
        liveness.accept(true);
        if (stopped.getCount() == 0) {
          live.cancel();
        }
      }

      @Override
      public void message(String message) {
        onMessage.accept(message);
      }

      @Override
      public void pong() {}
    };
    while (stopped.getCount() > 0) {
      try {
        link.subscribe(channel, silence, listener);
      } catch (RuntimeException e) {
        LOG.debug("{} - {} lost its connection: {}", name, what, e.getMessage());
      }
      subscription = null;
      liveness.accept(false);
      pause();
    }
  }

  private void pause() {
    try {
      stopped.await(pauseNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Ends the subscription and stops the thread. Does not wait for the thread;
   * {@link DaemonThreads#join} does. Idempotent.
   */
  @Override
  public void close() {
    stopped.countDown();
    RedisLink.Subscription current = subscription;
    if (current != null) {
      current.cancel();
    }
  }
}
