package dev.sluice;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Binds the figures of one budget to a Micrometer registry.
 *
 * <pre>{@code
 * SluiceMetrics.of(dataSource).bindTo(meterRegistry);
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
 * <p>This class is immutable and threadsafe; meters hold the data source weakly, as Micrometer's
 * binders do.
 */
public final class SluiceMetrics implements MeterBinder {

  private final Limiter limiter;
  private final Tags tags;

  private SluiceMetrics(Limiter limiter, Tags tags) {
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
    return new SluiceMetrics(dataSource.limiter(), Tags.of("name", dataSource.limiter().name()));
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

  private void counter(MeterRegistry registry, String name,
      ToDoubleFunction<Limiter> count, String description) {
    FunctionCounter.builder(name, limiter, count).tags(tags).description(description)
        .register(registry);
  }

  private void gauge(MeterRegistry registry, String name,
      ToDoubleFunction<Limiter> value, String unit, String description) {
    Gauge.builder(name, limiter, value).tags(tags).baseUnit(unit).description(description)
        .register(registry);
  }
}
