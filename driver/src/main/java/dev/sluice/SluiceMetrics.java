package dev.sluice;

import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Ineligible;
import dev.sluice.internal.config.Keys;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Binds the figures of one budget to a Micrometer registry.
 *
 * <pre>{@code
 * SluiceMetrics.of(dataSource).bindTo(meterRegistry);        // a RateLimitedDataSource
 * SluiceMetrics.ofDriver("users-db").bindTo(meterRegistry);  // a jdbc:sluice: budget
 * }</pre>
 *
 * <p>Every meter is tagged {@code name=<sluice.name>} and reads its one figure where it lives when
 * the registry asks (a counter's sum, a field): no snapshot is built, and reading changes nothing
 * (no recovery begins or ends, no kept result is dropped), so binding costs the request path
 * nothing and a scrape decides nothing:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>meter</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code sluice.calls.admitted}</td><td>counter</td>
 *       <td>calls that took a permit at a door while limiting</td></tr>
 *   <tr><td>{@code sluice.calls.rejected}</td><td>counter</td>
 *       <td>calls refused with {@link RateLimitExceededException}</td></tr>
 *   <tr><td>{@code sluice.calls.shadow.rejected}</td><td>counter</td>
 *       <td>calls shadow mode let pass that enforce mode would have refused</td></tr>
 *   <tr><td>{@code sluice.priority.calls.admitted}</td><td>counter, tag {@code priority}</td>
 *       <td>{@code sluice.calls.admitted} by priority ({@code critical}, {@code normal},
 *       {@code sheddable})</td></tr>
 *   <tr><td>{@code sluice.priority.calls.rejected}</td><td>counter, tag {@code priority}</td>
 *       <td>{@code sluice.calls.rejected} by priority</td></tr>
 *   <tr><td>{@code sluice.priority.calls.shadow.rejected}</td><td>counter, tag
 *       {@code priority}</td><td>{@code sluice.calls.shadow.rejected} by priority</td></tr>
 *   <tr><td>{@code sluice.shadow}</td><td>gauge</td>
 *       <td>1 in shadow mode, 0 in enforce mode</td></tr>
 *   <tr><td>{@code sluice.calls.forced}</td><td>counter</td>
 *       <td>statements of admitted transactions charged without the right to refuse</td></tr>
 *   <tr><td>{@code sluice.limiting}</td><td>gauge</td>
 *       <td>1 while permits are charged (the breaker flag is open, or recovering), else 0</td></tr>
 *   <tr><td>{@code sluice.recovering}</td><td>gauge</td>
 *       <td>1 while the flag has closed and the cap holds until demand settles, else 0</td></tr>
 *   <tr><td>{@code sluice.share}</td><td>gauge</td>
 *       <td>this instance's share of the budget, permits per second</td></tr>
 *   <tr><td>{@code sluice.budget}</td><td>gauge</td>
 *       <td>the budget, all instances together, permits per second</td></tr>
 *   <tr><td>{@code sluice.instances}</td><td>gauge</td>
 *       <td>how many instances the budget is divided among now</td></tr>
 *   <tr><td>{@code sluice.instances.live}</td><td>gauge</td>
 *       <td>the live count the Redis registry last reported; 0 without one</td></tr>
 *   <tr><td>{@code sluice.burst}</td><td>gauge</td>
 *       <td>the depth of this instance's bucket, permits</td></tr>
 *   <tr><td>{@code sluice.answers}</td><td>counter, tag {@code how}</td>
 *       <td>reads refused by the limit and answered instead ({@code sluice.stale.max-age}):
 *       {@code recent} from a result kept earlier, {@code joined} by joining an identical read in
 *       flight; a part of {@code sluice.calls.rejected}</td></tr>
 *   <tr><td>{@code sluice.priority.answers}</td><td>counter, tags {@code priority}, {@code how}
 *       </td><td>{@code sluice.answers} by priority: a part of
 *       {@code sluice.priority.calls.rejected}</td></tr>
 *   <tr><td>{@code sluice.answers.kept}, {@code sluice.answers.kept.bytes}</td><td>gauges</td>
 *       <td>the results kept to answer from now, and their estimated bytes</td></tr>
 *   <tr><td>{@code sluice.answers.age}</td><td>gauge, tag {@code quantile} ({@code 0.5},
 *       {@code 0.99}, {@code 1})</td><td>how old the answers were, seconds, since the start;
 *       {@code NaN} before the first</td></tr>
 *   <tr><td>{@code sluice.answers.shared}</td><td>counter, tag {@code what} ({@code sent},
 *       {@code heard})</td><td>kept results sent to the other instances, and heard from them
 *       ({@code sluice.stale.share})</td></tr>
 *   <tr><td>{@code sluice.answers.shared.dropped}</td><td>counter, tag {@code reason}</td>
 *       <td>messages on {@code sluice:<name>:answers} dropped unheard: {@code unsigned},
 *       {@code unknown-key}, {@code bad-signature}, {@code expired}, {@code replayed},
 *       {@code environment}, {@code undecodable}</td></tr>
 *   <tr><td>{@code sluice.answers.ineligible}</td><td>counter, tag {@code reason}</td>
 *       <td>reads neither kept nor answered while answering: {@code transaction},
 *       {@code locking}, {@code side-effect}, {@code session}, {@code parameters},
 *       {@code statement}, {@code type}, {@code rows}, {@code memory}, {@code unfinished}</td></tr>
 *   <tr><td>{@code sluice.concurrency.inflight}</td><td>gauge</td>
 *       <td>statements in flight under the concurrency cap; 0 without one</td></tr>
 *   <tr><td>{@code sluice.concurrency.limit}</td><td>gauge</td>
 *       <td>this instance's cap on statements in flight (fixed share or adaptive); 0 without
 *       one</td></tr>
 *   <tr><td>{@code sluice.flag.state}</td><td>gauge, tag {@code state}</td>
 *       <td>1 for the flag source's state ({@code open}, {@code closed} or
 *       {@code unreachable}), 0 for the other two</td></tr>
 *   <tr><td>{@code sluice.flag.read.age}</td><td>gauge</td>
 *       <td>seconds since a Redis flag was last read; 0 for a local flag</td></tr>
 * </table>
 *
 * <p>The meters by priority have names of their own rather than a {@code priority} tag on the
 * {@code sluice.calls.*} counters: a registry such as Prometheus refuses one name with two sets of
 * tag keys, and dashboards built on the {@code sluice.calls.*} names keep their totals.
 *
 * <p>Micrometer is an optional dependency of Sluice: only this class uses it, and nothing else in
 * Sluice loads this class, so an application without Micrometer never needs it.
 *
 * <p>This class is immutable and threadsafe. The meters keep the budget (its limiter and figures,
 * not the pool) reachable for as long as the registry keeps them.
 */
public final class SluiceMetrics implements MeterBinder {

  private final Supplier<Figures> stats;
  private final Tags tags;

  private SluiceMetrics(Supplier<Figures> stats, Tags tags) {
    this.stats = stats;
    this.tags = tags;
  }

  /**
   * Returns a binder for the budget of {@code dataSource}.
   *
   * @param dataSource the data source whose figures to publish
   * @return a binder; call {@link #bindTo(MeterRegistry)} with the application's registry
   * @throws NullPointerException if {@code dataSource} is null
   */
  public static SluiceMetrics of(RateLimitedDataSource dataSource) {
    Objects.requireNonNull(dataSource, "dataSource");
    Enforcer enforcer = dataSource.enforcer();
    return new SluiceMetrics(enforcer::figures, Tags.of("name", enforcer.limiter().name()));
  }

  /**
   * Returns a binder for the budget that {@link SluiceDriver} keeps under {@code name}. The driver
   * builds a budget with the first connection of its name and forgets it some time after the last
   * one closes; the meters follow whichever budget of that name exists when they are read, and
   * read {@code NaN} while there is none. The counters restart from zero when the budget is built
   * anew, which monitoring systems read as a counter reset.
   *
   * @param name the budget's {@code sluice.name}, given in the URL or derived from it
   * @return a binder; call {@link #bindTo(MeterRegistry)} with the application's registry
   * @throws IllegalArgumentException if {@code name} is not a valid {@code sluice.name}
   */
  public static SluiceMetrics ofDriver(String name) {
    String checked = Keys.NAME.parse(name);
    return new SluiceMetrics(() -> DriverEnforcers.SHARED.figures(checked),
        Tags.of("name", checked));
  }

  /**
   * Returns a binder that adds {@code extra} to every meter's tags, for example the application
   * or the region.
   *
   * @param extra more tags
   * @return a new binder
   * @throws NullPointerException if {@code extra} is null
   */
  public SluiceMetrics withTags(Iterable<Tag> extra) {
    return new SluiceMetrics(stats, tags.and(Objects.requireNonNull(extra, "extra")));
  }

  /**
   * Registers the meters listed above with {@code registry}.
   *
   * @param registry the registry
   * @throws NullPointerException if {@code registry} is null
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    counter(registry, "sluice.calls.admitted", Figures::admitted,
        "Calls that took a permit at a door while limiting");
    counter(registry, "sluice.calls.rejected", Figures::rejected,
        "Calls refused with RateLimitExceededException");
    counter(registry, "sluice.calls.shadow.rejected", Figures::shadowRejected,
        "Calls shadow mode let pass that enforce mode would have refused");
    for (Priority p : Priority.values()) {
      Tags priority = Tags.of("priority", p.tag());
      counter(registry, "sluice.priority.calls.admitted", priority, s -> s.admitted(p),
          "Calls that took a permit at a door while limiting, by priority");
      counter(registry, "sluice.priority.calls.rejected", priority, s -> s.rejected(p),
          "Calls refused with RateLimitExceededException, by priority");
      counter(registry, "sluice.priority.calls.shadow.rejected", priority,
          s -> s.shadowRejected(p),
          "Calls shadow mode let pass that enforce mode would have refused, by priority");
      counter(registry, "sluice.priority.answers", priority.and("how", "recent"),
          s -> s.answered(p) - s.joined(p),
          "Reads refused by the limit and answered from a result kept recently, by priority");
      counter(registry, "sluice.priority.answers", priority.and("how", "joined"),
          s -> s.joined(p),
          "Reads refused by the limit and answered by joining a read in flight, by priority");
    }
    gauge(registry, "sluice.shadow", Tags.empty(), s -> s.shadow() ? 1 : 0, null,
        "1 in shadow mode (nothing refused, would-be refusals counted), 0 in enforce mode");
    counter(registry, "sluice.calls.forced", Figures::forced,
        "Statements of admitted transactions charged without the right to refuse");
    gauge(registry, "sluice.limiting", Tags.empty(), s -> s.limiting() ? 1 : 0, null,
        "1 while permits are charged (the breaker flag is open, or recovering), else 0");
    gauge(registry, "sluice.recovering", Tags.empty(), s -> s.recovering() ? 1 : 0, null,
        "1 while the flag has closed and limiting holds until demand settles, else 0");
    gauge(registry, "sluice.share", Tags.empty(), Figures::permitsPerSecond, "permits/s",
        "This instance's share of the budget");
    gauge(registry, "sluice.budget", Tags.empty(), Figures::budget, "permits/s",
        "The budget, all instances together");
    gauge(registry, "sluice.instances", Tags.empty(), Figures::instances, null,
        "How many instances the budget is divided among now");
    gauge(registry, "sluice.instances.live", Tags.empty(), Figures::liveInstances, null,
        "The live instance count the Redis registry last reported; 0 without one");
    gauge(registry, "sluice.burst", Tags.empty(), Figures::burst, "permits",
        "The depth of this instance's bucket");
    gauge(registry, "sluice.concurrency.inflight", Tags.empty(), Figures::inFlight, "statements",
        "Statements in flight under the concurrency cap; 0 without one");
    gauge(registry, "sluice.concurrency.limit", Tags.empty(), Figures::concurrencyLimit,
        "statements", "This instance's cap on statements in flight; 0 without one");
    for (FlagState state : FlagState.values()) {
      gauge(registry, "sluice.flag.state", Tags.of("state", state.name().toLowerCase(Locale.ROOT)),
          s -> s.flagState() == state ? 1 : 0, null,
          "1 for the state the flag's source is in, 0 for the others");
    }
    gauge(registry, "sluice.flag.read.age", Tags.empty(), s -> s.sinceFlagRead().toMillis() / 1e3,
        "seconds", "Time since a Redis flag was last read; 0 for a flag in local memory");
    counter(registry, "sluice.answers", Tags.of("how", "recent"),
        s -> s.answered() - s.joined(),
        "Reads refused by the limit and answered instead from a result kept recently");
    counter(registry, "sluice.answers", Tags.of("how", "joined"), Figures::joined,
        "Reads refused by the limit and answered instead by joining an identical read in flight");
    gauge(registry, "sluice.answers.kept", Tags.empty(), Figures::answersKept, "results",
        "Results kept to answer from now (sluice.stale.max-age)");
    gauge(registry, "sluice.answers.kept.bytes", Tags.empty(), Figures::answersKeptBytes, "bytes",
        "The kept results' estimated bytes, within sluice.stale.memory");
    for (String q : new String[] {"0.5", "0.99", "1"}) {
      double quantile = Double.parseDouble(q);
      gauge(registry, "sluice.answers.age", Tags.of("quantile", q), s -> {
        long ms = s.answerAgeMillis(quantile);
        return ms < 0 ? Double.NaN : ms / 1e3;
      }, "seconds", "How old the answers were, by quantile, since the start; NaN before any");
    }
    counter(registry, "sluice.answers.shared", Tags.of("what", "sent"), Figures::sharedSent,
        "Kept results this instance sent to the others (sluice.stale.share)");
    counter(registry, "sluice.answers.shared", Tags.of("what", "heard"), Figures::sharedHeard,
        "Kept results heard from the others, signed and in time");
    for (String reason : Answers.sharedDropReasons()) {
      counter(registry, "sluice.answers.shared.dropped", Tags.of("reason", reason),
          s -> s.sharedDropped(reason), "Messages on sluice:<name>:answers dropped unheard, by"
          + " reason (unsigned, unknown-key, bad-signature, expired, replayed...)");
    }
    for (String reason : Ineligible.words()) {
      counter(registry, "sluice.answers.ineligible", Tags.of("reason", reason),
          s -> s.notEligible(reason), "Reads neither kept nor answered while answering, by"
          + " reason (transaction, locking, side-effect, session, type, rows, memory...)");
    }
  }

  /**
   * Function counters hold their source weakly (Micrometer has no other kind); the gauges of the
   * same binding hold it strongly, and that keeps it alive.
   */
  private void counter(MeterRegistry registry, String name, ToDoubleFunction<Figures> count,
      String description) {
    counter(registry, name, Tags.empty(), count, description);
  }

  private void counter(MeterRegistry registry, String name, Tags more,
      ToDoubleFunction<Figures> count, String description) {
    FunctionCounter.builder(name, stats, current(count)).tags(tags.and(more))
        .description(description).register(registry);
  }

  private void gauge(MeterRegistry registry, String name, Tags more,
      ToDoubleFunction<Figures> value, String unit, String description) {
    Gauge.builder(name, stats, current(value)).strongReference(true).tags(tags.and(more))
        .baseUnit(unit).description(description).register(registry);
  }

  /** Reads {@code figure} of the budget of the moment; {@code NaN} while there is none. */
  private static ToDoubleFunction<Supplier<Figures>> current(ToDoubleFunction<Figures> figure) {
    return source -> {
      Figures now = source.get();
      return now == null ? Double.NaN : figure.applyAsDouble(now);
    };
  }
}
