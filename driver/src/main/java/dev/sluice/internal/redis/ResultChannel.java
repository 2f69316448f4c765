package dev.sluice.internal.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries one budget's kept results between its instances ({@code sluice.stale.share}) over the
 * Redis channel {@code sluice:<name>:answers}: a thread of its own sends what this instance kept,
 * every {@value #TICK_MILLIS} ms, and a {@link ChannelSubscriber} hands what the others sent to
 * the answers' store. Neither is on a request path: a request only queues what it kept.
 *
 * <p>Pub/sub delivers at most once: a message sent before an instance's subscription is confirmed
 * ({@link #listening()}: just after it starts, or after it was lost) is not heard there, and that
 * instance answers from its own results meanwhile. When Redis does not
 * answer, what is queued is dropped, not retried: a result worth sharing is a recent one.
 *
 * <p>A message the answers drop (unsigned, a wrong or unknown key, over-age, replayed: see
 * {@code Sharing}) is logged at WARN the first time for each reason, then at DEBUG: someone
 * publishing on the channel who should not, or an instance with other keys, is worth one line
 * to the operator, not one per message.
 *
 * <p>This class is threadsafe.
 */
public final class ResultChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ResultChannel.class);
  static final long TICK_MILLIS = 10;

  private final String name;
  private final String channel;
  private final RedisLink link;
  private final Supplier<String> outgoing;
  private final Consumer<String> unsent;
  private final long timeoutNanos;
  private final long pingNanos;
  private final DaemonThreads threads;
  private final DaemonThreads subscriberThreads;
  private final ChannelSubscriber subscriber;
  private final LongAdder lost = new LongAdder();
  /** The reasons of dropped messages already logged at WARN. */
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  /** Whether the last send failed: the sending thread's own, for one WARN per failing spell. */
  private boolean failing;
  /** {@link #lost} when the failing spell began. */
  private long lostBefore;
  private volatile ScheduledThreadPoolExecutor scheduler;

  private ResultChannel(String name, RedisLink link, Duration timeout, Duration ping,
      Supplier<String> outgoing, Function<String, String> incoming, Consumer<String> unsent,
      Consumer<Boolean> live) {
    this.unsent = unsent;
    this.name = name;
    this.channel = "sluice:" + name + ":answers";
    this.link = link;
    this.outgoing = outgoing;
    this.timeoutNanos = timeout.toNanos();
    this.pingNanos = ping.toNanos();
    this.threads = new DaemonThreads("answers-out", name);
    this.subscriberThreads = new DaemonThreads("answers-in", name);
    this.subscriber = new ChannelSubscriber(name, "the kept results' subscriber", channel, link,
        Duration.ofNanos(pingNanos + timeoutNanos), Math.min(pingNanos,
        TimeUnit.SECONDS.toNanos(1)), message -> hear(incoming, message), subscriberThreads,
        live);
  }

  /**
   * Starts sending and hearing a budget's kept results.
   *
   * @param name the budget's {@code sluice.name}: the channel's name and the threads'
   * @param link the Redis
   * @param timeout {@code sluice.redis.timeout}
   * @param ping {@code sluice.redis.ping}: how often the subscription is pinged
   * @param warmUp run once on the sending thread before anything is sent: readies the encoding
   * @param outgoing the next message to send, {@code null} when none is queued (called on the
   *     sending thread, which may encode there)
   * @param incoming hears each message, this instance's own included, on the subscriber's
   *     thread; returns why it dropped the message, or {@code null}
   * @return the channel, running until {@link #close()}
   */
  public static ResultChannel start(String name, RedisLink link, Duration timeout,
      Duration ping, Runnable warmUp, Supplier<String> outgoing,
      Function<String, String> incoming) {
    return start(name, link, timeout, ping, warmUp, outgoing, incoming, message -> { },
        live -> { });
  }

  /**
   * As {@link #start(String, RedisLink, Duration, Duration, Runnable, Supplier, Function)}, and:
   *
   * @param unsent takes each message Redis did not take, on the sending thread, once it stopped
   *     taking messages for the tick (what it queues again is sent at the next tick)
   * @param live told on the subscriber's thread when Redis confirms the subscription
   *     ({@code true}) and when it is lost or silent for {@code ping} plus {@code timeout}
   * @return the channel, running until {@link #close()}
   */
  public static ResultChannel start(String name, RedisLink link, Duration timeout,
      Duration ping, Runnable warmUp, Supplier<String> outgoing,
      Function<String, String> incoming, Consumer<String> unsent, Consumer<Boolean> live) {
    ResultChannel started = new ResultChannel(name, link, timeout, ping, outgoing, incoming,
        unsent, live);
    ScheduledThreadPoolExecutor scheduler = started.threads.scheduler(1);
    scheduler.execute(warmUp);
    scheduler.execute(started::connect);
    scheduler.scheduleWithFixedDelay(started::send, TICK_MILLIS, TICK_MILLIS,
        TimeUnit.MILLISECONDS);
    scheduler.scheduleAtFixedRate(started.subscriber::ping, started.pingNanos,
        started.pingNanos, TimeUnit.NANOSECONDS);
    started.scheduler = scheduler;
    started.subscriber.start();
    return started;
  }

  /**
   * Opens the link's connection before the first result is sent (any command does; this one
   * reads a key nobody writes): limiting begins with a burst of results, and the first of them
   * should not wait for a connection.
   */
  private void connect() {
    try {
      link.get(channel);
    } catch (RedisDown e) {
      LOG.debug("{} - could not reach Redis to share kept results yet: {}", name, e.getMessage());
    }
  }

  /**
   * Sends what is queued; on the first failure drops the rest of it. The first failure of a spell
   * is a WARN, the others DEBUG, and the first success after it an INFO: an operator sees when
   * sharing stopped and when it came back, not a line per tick.
   */
  private void send() {
    for (String message = outgoing.get(); message != null; message = outgoing.get()) {
      try {
        link.send(channel, message);
      } catch (RedisDown e) {
        long dropped = 1;
        List<String> notSent = new ArrayList<>();
        notSent.add(message);
        for (String more = outgoing.get(); more != null; more = outgoing.get()) {
          notSent.add(more);
          dropped++;
        }
        notSent.forEach(unsent); // after the loop: what it queues again waits for the next tick
        if (!failing) {
          failing = true;
          lostBefore = lost.sum();
          LOG.warn("{} - kept results are not shared with the other instances: Redis did not"
              + " take them on {} ({}); each instance answers from its own reads until it does,"
              + " and what is kept meanwhile is not sent later", name, channel, e.getMessage());
        } else {
          LOG.debug("{} - {} more message(s) of kept results not shared: {}", name, dropped,
              e.getMessage());
        }
        lost.add(dropped);
        return;
      }
      if (failing) {
        failing = false;
        LOG.info("{} - kept results are shared again on {} ({} message(s) not sent meanwhile)",
            name, channel, lost.sum() - lostBefore);
      }
    }
  }

  private void hear(Function<String, String> incoming, String message) {
    String why = incoming.apply(message);
    if (why == null) {
      return;
    }
    if (warned.add(why)) {
      LOG.warn("{} - a message on {} was dropped ({}): {}; such messages are dropped and counted"
          + " in the stats (sharedDropped), and logged at DEBUG from now on", name, channel, why,
          meaning(why));
    } else {
      LOG.debug("{} - a message on {} was dropped ({})", name, channel, why);
    }
  }

  /** What a drop reason tells the operator to look at. */
  private static String meaning(String why) {
    return switch (why) {
      case "unsigned" -> "it carries no signature: an instance of Sluice before 0.4, or a"
          + " publisher that is not Sluice; give every instance sluice.stale.share-key";
      case "unknown-key" -> "it is signed by a key this instance does not have: an instance"
          + " with another sluice.stale.share-key (rotate by listing the new key first on every"
          + " instance, keeping the old one until all have it)";
      case "bad-signature" -> "its signature does not match its text: forged or altered on the"
          + " way; check who may PUBLISH on this channel (docs/redis.md, the ACL recipe)";
      case "expired" -> "it was sent longer than sluice.stale.max-age ago by the wall clocks: a"
          + " replay, a backlog, or clocks apart; check NTP";
      case "replayed" -> "its sequence was heard before from the same instance: a replay";
      case "environment" -> "it comes from an instance with another JDBC driver, version, time"
          + " zone or locale, whose values are not answered here";
      default -> "a signed result that does not decode: an instance of another version";
    };
  }

  /**
   * Whether this instance hears the others' kept results now: Redis confirmed its subscription
   * and it has not been lost since. A result another instance sends before then is never heard
   * here (an instance that starts sharing in the middle of an outage, or whose subscription came
   * back, hears only what is sent after); it answers from its own reads meanwhile.
   *
   * @return {@code true} while subscribed
   */
  public boolean listening() {
    return subscriber.live();
  }

  /** Messages of kept results this instance could not send because Redis did not take them. */
  public long lost() {
    return lost.sum();
  }

  /** Stops both threads and waits for them. Idempotent. */
  @Override
  public void close() {
    subscriber.close();
    ScheduledThreadPoolExecutor current = scheduler;
    if (current != null) {
      current.shutdownNow();
    }
    long waitNanos = 2 * timeoutNanos + pingNanos + TimeUnit.SECONDS.toNanos(1);
    try {
      threads.join(waitNanos);
      subscriberThreads.join(waitNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return channel;
  }
}
