package dev.sluice;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import dev.sluice.internal.config.Keys;
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
 * <p>Every meter is tagged {@code name=<sluice.name>} and reads the limiter when the registry
 * asks, so binding costs the request path nothing:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>meter</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code sluice.calls.admitted}</td><td>counter</td>
 *       <td>calls that took a permit at a door while limiting</td></tr>
 *   <tr><td>{@code sluice.calls.rejected}</td><td>counter</td>
 *       <td>calls refused with {@link RateLimitExceededException}</td></tr>
 *   <tr><td>{@code sluice.calls.forced}</td><td>counter</td>
 *       <td>statements of admitted transactions charged without the right to refuse</td></tr>
 *   <tr><td>{@code sluice.limiting}</td><td>gauge</td>
 *       <td>1 while the breaker flag is open, else 0</td></tr>
 *   <tr><td>{@code sluice.share}</td><td>gauge</td>
 *       <td>this instance's share of the budget, permits per second</td></tr>
 *   <tr><td>{@code sluice.budget}</td><td>gauge</td>
 *       <td>the budget, all instances together, permits per second</td></tr>
 *   <tr><td>{@code sluice.instances}</td><td>gauge</td>
 *       <td>how many instances the budget is divided among now</td></tr>
 *   <tr><td>{@code sluice.burst}</td><td>gauge</td>
 *       <td>the depth of this instance's bucket, permits</td></tr>
 * </table>
 *
 * <p>Micrometer is an optional dependency of Sluice: only this class uses it, and nothing else in
 * Sluice loads this class, so an application without Micrometer never needs it.
 *
 * <p>This class is immutable and threadsafe. The meters keep the budget's limiter (a few small
 * objects, not the pool) reachable for as long as the registry keeps them.
 */
public final class SluiceMetrics implements MeterBinder {

  private final Supplier<Limiter> limiter;
  private final Tags tags;

  private SluiceMetrics(Supplier<Limiter> limiter, Tags tags) {
    this.limiter = limiter;
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
    Limiter limiter = dataSource.limiter();
    return new SluiceMetrics(() -> limiter, Tags.of("name", limiter.name()));
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
    return new SluiceMetrics(() -> DriverBudgets.SHARED.limiter(checked),
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
    return new SluiceMetrics(limiter, tags.and(Objects.requireNonNull(extra, "extra")));
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
    counter(registry, "sluice.calls.admitted", Limiter::admitted,
        "Calls that took a permit at a door while limiting");
    counter(registry, "sluice.calls.rejected", Limiter::rejected,
        "Calls refused with RateLimitExceededException");
    counter(registry, "sluice.calls.forced", Limiter::forced,
        "Statements of admitted transactions charged without the right to refuse");
    gauge(registry, "sluice.limiting", l -> l.flag().isOpen() ? 1 : 0, null,
        "1 while the breaker flag is open and permits are charged, else 0");
    gauge(registry, "sluice.share", l -> l.bucket().permitsPerSecond(), "permits/s",
        "This instance's share of the budget");
    gauge(registry, "sluice.budget", Limiter::budget, "permits/s",
        "The budget, all instances together");
    gauge(registry, "sluice.instances", Limiter::instances, null,
        "How many instances the budget is divided among now");
    gauge(registry, "sluice.burst", l -> l.bucket().burst(), "permits",
        "The depth of this instance's bucket");
    // the Redis flag's state and the live instance count join here when they land
  }

  /**
   * Function counters hold their source weakly (Micrometer has no other kind); the gauges of the
   * same binding hold it strongly, and that keeps it alive.
   */
  private void counter(MeterRegistry registry, String name,
      ToDoubleFunction<Limiter> count, String description) {
    FunctionCounter.builder(name, limiter, current(count)).tags(tags).description(description)
        .register(registry);
  }

  private void gauge(MeterRegistry registry, String name,
      ToDoubleFunction<Limiter> value, String unit, String description) {
    Gauge.builder(name, limiter, current(value)).strongReference(true).tags(tags)
        .baseUnit(unit).description(description).register(registry);
  }

  /** Reads {@code figure} from the limiter of the moment; {@code NaN} while there is none. */
  private static ToDoubleFunction<Supplier<Limiter>> current(ToDoubleFunction<Limiter> figure) {
    return source -> {
      Limiter now = source.get();
      return now == null ? Double.NaN : figure.applyAsDouble(now);
    };
  }
}
