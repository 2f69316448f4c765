package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RedisBreakerFlag;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;

/**
 * The Resilience4j side of {@link CircuitBreakerFlags}; loaded only when Resilience4j is present.
 *
 * <p>The flag is open while the breaker is {@code OPEN}, {@code FORCED_OPEN} or
 * {@code HALF_OPEN}. Half-open counts as open because the cache is still on probation: the breaker
 * lets only a few trial calls reach it and refuses the rest, whose fallback still goes to the
 * database; and closing the flag on the first trial would release the whole fallback load at the
 * moment the cache is least sure to take it. {@code DISABLED} and {@code METRICS_ONLY} never
 * refuse a call to the cache, so they count as closed.
 *
 * <p>This class is threadsafe.
 */
final class Resilience4jFlag {
  private static final Logger LOG = LoggerFactory.getLogger(Resilience4jFlag.class);
  private static final Duration MIN_TTL = Duration.ofMinutes(1);

  private Resilience4jFlag() {}

  /** A flag that reads the breaker's state: one memory read, as Resilience4j keeps it. */
  static BreakerFlag following(BeanFactory beans, String name) {
    return new Following(breaker(beans, name));
  }

  /** Open while the breaker is; named after it in logs, the MXBean and the endpoint. */
  static final class Following implements BreakerFlag {
    private final CircuitBreaker breaker;

    Following(CircuitBreaker breaker) {
      this.breaker = breaker;
    }

    @Override
    public boolean isOpen() {
      return Resilience4jFlag.isOpen(breaker.getState());
    }

    /** The breaker's name, for the endpoint's advice on where to move the flag. */
    String breakerName() {
      return breaker.getName();
    }

    @Override
    public String toString() {
      return "the Resilience4j circuit breaker " + breaker.getName();
    }
  }

  /** Whether {@code state} opens the flag; see the class comment for why half-open does. */
  static boolean isOpen(State state) {
    return state == State.OPEN || state == State.FORCED_OPEN || state == State.HALF_OPEN;
  }

  /**
   * Publishes each transition of the breaker to {@code sluice:<budget>:breaker}: trips it on the
   * way to an open state, resets it on the way to a closed one. Writes on a thread of its own, so
   * the call that moved the breaker never waits for Redis.
   *
   * @return what stops publishing
   */
  static AutoCloseable publish(BeanFactory beans, String name, String redisUri, String budget) {
    CircuitBreaker breaker = breaker(beans, name);
    Duration ttl = ttl(breaker);
    RedisBreakerFlag redis = RedisBreakerFlag.connect(redisUri, budget);
    ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "sluice-breaker-publisher-" + budget);
      thread.setDaemon(true);
      return thread;
    });
    breaker.getEventPublisher().onStateTransition(event -> {
      State to = event.getStateTransition().getToState();
      writer.execute(() -> write(redis, to, ttl, budget));
    });
    LOG.info("{} - publishing the transitions of the circuit breaker {} to Redis (trip for {})",
        budget, name, ttl);
    return () -> {
      writer.shutdown();
      writer.awaitTermination(1, TimeUnit.SECONDS);
      redis.close();
    };
  }

  private static void write(RedisBreakerFlag redis, State to, Duration ttl, String budget) {
    boolean taken = isOpen(to) ? redis.trip(ttl) : redis.reset();
    if (!taken) {
      LOG.warn("{} - Redis has not taken the circuit breaker's move to {} yet (it did not answer"
          + " within sluice.redis.timeout); it is written again in the background until Redis"
          + " takes it{}", budget, to, isOpen(to) ? ", while the trip lasts"
          : ", while this instance's vote for open would live");
    }
  }

  /** Twice the breaker's wait in the open state, at least a minute: outlives one half-open try. */
  static Duration ttl(CircuitBreaker breaker) {
    long waitMillis = breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState()
        .apply(1);
    Duration twice = Duration.ofMillis(waitMillis).multipliedBy(2);
    return twice.compareTo(MIN_TTL) > 0 ? twice : MIN_TTL;
  }

  /**
   * The breaker named {@code name}, which Resilience4j must already have: configured under
   * {@code resilience4j.circuitbreaker.instances.<name>} (Resilience4j's starter makes those at
   * start) or made by the application before its data source. A name the registry lacks would be
   * made here with the defaults, a breaker nothing calls, that never opens: a mistyped name
   * would turn Sluice off without a word.
   */
  static CircuitBreaker breaker(BeanFactory beans, String name) {
    CircuitBreakerRegistry registry = beans.getBeanProvider(CircuitBreakerRegistry.class)
        .getIfAvailable();
    if (registry == null) {
      throw new SluiceConfigurationException(SluiceProperties.CIRCUIT_BREAKER + " must name a"
          + " breaker of the application's CircuitBreakerRegistry, but there is no such bean"
          + " (add io.github.resilience4j:resilience4j-spring-boot3); it was \"" + name + "\"");
    }
    Set<String> known = new TreeSet<>();
    registry.getAllCircuitBreakers().forEach(breaker -> known.add(breaker.getName()));
    if (!known.contains(name)) {
      throw new SluiceConfigurationException(SluiceProperties.CIRCUIT_BREAKER + " must name a"
          + " circuit breaker Resilience4j has, but was \"" + name + "\"; its breakers are "
          + known + ". Correct the name, or configure the breaker under"
          + " resilience4j.circuitbreaker.instances." + name);
    }
    return registry.circuitBreaker(name);
  }
}
