package dev.sluice;

import dev.sluice.internal.config.Instances;
import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Ticker;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.ShardingKeyBuilder;
import java.util.Objects;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that caps what reaches the database while the cache breaker is open.
 *
 * <pre>{@code
 * DataSource ds = RateLimitedDataSource.builder(hikari)
 *     .name("users-db").budget(5000).instances(10).breakerFlag(flag).build();
 * }</pre>
 *
 * <p>It decorates any data source, usually a connection pool. While the {@link BreakerFlag} is
 * closed every call passes through untouched. While it is open, each gated call takes a permit
 * from a lock-free {@link TokenBucket} holding this instance's share of the budget
 * ({@code budget / instances}), or fails at once with a {@link RateLimitExceededException}: no
 * waiting, no queue. What is gated is set by {@link Scope}; a transaction is admitted at its start
 * and never cut in half. When the flag closes after having been open, the cap holds until this
 * instance's demand has settled ({@link Stats#recovering()}), so that a cache that comes back
 * empty does not flood the database.
 *
 * <p>Everything else — Hibernate, jOOQ, Spring's {@code JdbcTemplate}, plain JDBC — sees the
 * driver's own behaviour: the connections, statements, result sets and metadata handed out are
 * thin wrappers that delegate every method, and {@code unwrap} reaches the driver's objects.
 *
 * <p>This class is threadsafe.
 */
public final class RateLimitedDataSource implements DataSource, AutoCloseable {

  private final DataSource delegate;
  private final Enforcer enforcer;
  private final Limiter limiter;
  private final boolean checkoutGated;
  /** Set once by {@link #close()}; read by every checkout (one memory read). */
  private volatile boolean closed;

  private RateLimitedDataSource(DataSource delegate, Enforcer enforcer) {
    this.delegate = delegate;
    this.enforcer = enforcer;
    this.limiter = enforcer.limiter();
    this.checkoutGated = limiter.scope() == Scope.CONNECTION;
  }

  /**
   * Starts a builder that decorates {@code delegate}.
   *
   * @param delegate the data source to limit, usually a connection pool
   * @return a new builder
   * @throws NullPointerException if {@code delegate} is null
   */
  public static Builder builder(DataSource delegate) {
    return new Builder(Objects.requireNonNull(delegate, "delegate"));
  }

  /**
   * Returns a connection from the delegate. In {@code CONNECTION} scope the checkout takes a
   * permit first while limiting; a rejected checkout takes nothing from the pool.
   *
   * @throws SQLNonTransientConnectionException once this data source is closed, before the
   *     delegate is asked and without taking a permit
   * @throws RateLimitExceededException if a checkout is refused
   * @throws SQLException as the delegate throws it
   */
  @Override
  public Connection getConnection() throws SQLException {
    int held = beforeCheckout();
    Connection raw;
    try {
      raw = delegate.getConnection();
    } catch (SQLException e) {
      // the pool's timeout tells an adaptive cap of overload
      limiter.places().afterCheckout(held, e);
      throw e;
    } catch (RuntimeException | Error e) {
      limiter.places().afterCheckout(held, null);
      throw e;
    }
    return enforcer.wrap(raw, held, null);
  }

  /**
   * As {@link #getConnection()}, with the given credentials.
   *
   * @throws SQLNonTransientConnectionException once this data source is closed
   * @throws RateLimitExceededException if a checkout is refused
   * @throws SQLException as the delegate throws it
   */
  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    int held = beforeCheckout();
    Connection raw;
    try {
      raw = delegate.getConnection(username, password);
    } catch (SQLException e) {
      limiter.places().afterCheckout(held, e);
      throw e;
    } catch (RuntimeException | Error e) {
      limiter.places().afterCheckout(held, null);
      throw e;
    }
    return enforcer.wrap(raw, held, username);
  }

  private int beforeCheckout() throws SQLException {
    if (closed) {
      throw new SQLNonTransientConnectionException("RateLimitedDataSource \"" + limiter.name()
          + "\" is closed: it hands out no more connections; build a new one");
    }
    return checkoutGated ? limiter.beforeCheckout() : 0;
  }

  /**
   * Returns a snapshot of this budget's limiter.
   *
   * @return the current figures
   */
  public Stats stats() {
    return enforcer.stats();
  }

  /**
   * Returns the operator's view of this budget, the same as its MXBean (also with
   * {@code sluice.jmx=false}): its figures, and the incident operations (trip or reset a manual
   * flag, change the budget). For management endpoints such as the Spring Boot starter's.
   *
   * @return a view over this data source's limiter
   */
  public RateLimitedDataSourceMXBean management() {
    return management("JMX");
  }

  /**
   * Returns the operator's view of this budget, as {@link #management()}, for a channel of its
   * own: each change made through it is logged as made by {@code via}.
   *
   * @param via who makes the changes, as the log lines say it: {@code Actuator}
   * @return a view over this data source's limiter
   */
  public RateLimitedDataSourceMXBean management(String via) {
    return new EnforcerJmx(limiter, enforcer.figures(), Objects.requireNonNull(via, "via"));
  }

  /**
   * Closes this data source: from now on {@link #getConnection()} throws a
   * {@link SQLNonTransientConnectionException} saying so. Stops the limiting and the background
   * work this data source started (a Redis flag reader, a registry member), and closes the
   * delegate when it is {@link AutoCloseable} (so that swapping a Spring bean does not leak the
   * pool). Connections handed out before stay usable as far as Sluice goes — what the delegate
   * does with them is its own affair (a pool's close may end them) — and their calls pass
   * uncharged: none obeys a flag that is no longer read. Idempotent as far as Sluice goes; the
   * delegate decides whether its own {@code close()} is.
   *
   * @throws SQLException when the delegate's {@code close()} fails: its {@code SQLException} as
   *     thrown, any other checked exception as the cause of one
   */
  @Override
  public void close() throws SQLException {
    closed = true;
    enforcer.close();
    if (delegate instanceof AutoCloseable) {
      try {
        ((AutoCloseable) delegate).close();
      } catch (SQLException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new SQLException("closing " + delegate + " failed: " + e, e);
      }
    }
  }

  /**
   * Returns this data source if it implements {@code iface}, else what the delegate's
   * {@code unwrap} returns: so frameworks that look for the pool (Spring Boot's
   * {@code DataSourceUnwrapper}, for one) find it.
   */
  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    if (iface.isInstance(delegate)) {
      return iface.cast(delegate);
    }
    return delegate.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || iface.isInstance(delegate) || delegate.isWrapperFor(iface);
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return delegate.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    delegate.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    delegate.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return delegate.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return delegate.getParentLogger();
  }

  /** Sharding keys would bypass the limiter's wrappers: refused, as the spec allows. */
  @Override
  public ShardingKeyBuilder createShardingKeyBuilder() throws SQLException {
    throw new SQLFeatureNotSupportedException(
        "sharding keys are not supported through RateLimitedDataSource");
  }

  @Override
  public String toString() {
    return "RateLimitedDataSource[" + limiter.name() + " over " + delegate + "]";
  }

  Limiter limiter() {
    return limiter;
  }

  Enforcer enforcer() {
    return enforcer;
  }

  /**
   * Builds a {@link RateLimitedDataSource}. Each setter checks its value at once; {@link #build()}
   * checks the settings together. Explicit calls win over {@link #properties(Properties)},
   * whatever the order.
   *
   * <p>This class is not threadsafe.
   */
  public static final class Builder {
    private final DataSource delegate;
    private Settings explicit = Settings.empty();
    private Settings fromProperties = Settings.empty();
    private BreakerFlag flag;
    private Ticker ticker = Ticker.system();

    private Builder(DataSource delegate) {
      this.delegate = delegate;
    }

    /**
     * Names the budget ({@code sluice.name}): in Redis keys, metrics, logs and messages.
     *
     * @param name 1 to 64 of {@code [A-Za-z0-9._-]}
     * @return this builder
     * @throws IllegalArgumentException if the name is not of that shape
     */
    public Builder name(String name) {
      return set(Keys.NAME, Keys.NAME.parse(name));
    }

    /**
     * Sets the budget ({@code sluice.budget}): what the database takes on the fallback path, all
     * instances together.
     *
     * @param permitsPerSecond a positive, finite number of permits per second
     * @return this builder
     * @throws IllegalArgumentException if it is not positive and finite
     */
    public Builder budget(double permitsPerSecond) {
      if (!(permitsPerSecond > 0 && Double.isFinite(permitsPerSecond))) {
        throw Keys.BUDGET.invalid(permitsPerSecond);
      }
      return set(Keys.BUDGET, permitsPerSecond);
    }

    /**
     * Sets how many instances share the budget ({@code sluice.instances}): this instance admits
     * {@code budget / instances}.
     *
     * @param count a positive number of instances
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder instances(int count) {
      if (count < 1) {
        throw Keys.INSTANCES.invalid(count);
      }
      return set(Keys.INSTANCES, Instances.of(count));
    }

    /**
     * Sets the bucket depth ({@code sluice.burst}): how many permits may be taken at once after a
     * quiet spell. By default 100 ms of this instance's share, at least 1, following the share when
     * the live count or the budget changes; set here, it stays as set.
     *
     * @param permits a positive number of permits
     * @return this builder
     * @throws IllegalArgumentException if it is not positive ({@link #build()} refuses one that
     *     spans more than about 18 years of the share)
     */
    public Builder burst(int permits) {
      if (permits < 1) {
        throw Keys.BURST.invalid(permits);
      }
      return set(Keys.BURST, permits);
    }

    /**
     * Sets what costs a permit ({@code sluice.scope}); {@link Scope#STATEMENT} by default.
     *
     * @param scope the scope
     * @return this builder
     * @throws NullPointerException if {@code scope} is null
     */
    public Builder scope(Scope scope) {
      return set(Keys.SCOPE, Objects.requireNonNull(scope, "scope"));
    }

    /**
     * Sets when the limiter is active. It wins over {@code sluice.flag}. Without it, the flag is
     * {@link BreakerFlag#alwaysOpen()}, or the Redis flag when {@code sluice.redis} is set. The
     * data source does not close a flag given here.
     *
     * @param flag the flag, read on every gated call
     * @return this builder
     * @throws NullPointerException if {@code flag} is null
     */
    public Builder breakerFlag(BreakerFlag flag) {
      this.flag = Objects.requireNonNull(flag, "flag");
      return this;
    }

    /**
     * Takes settings from the {@code sluice.*} entries of {@code properties}; other entries are
     * ignored. A later call replaces an earlier one.
     *
     * @param properties for example {@code sluice.budget=5000}
     * @return this builder
     * @throws IllegalArgumentException naming the key, for an unknown {@code sluice.*} key or a
     *     bad value
     */
    public Builder properties(Properties properties) {
      this.fromProperties = Settings.parse(Objects.requireNonNull(properties, "properties"));
      return this;
    }

    /**
     * Checks the settings together and builds the data source, starting any background work.
     *
     * @return the data source
     * @throws IllegalArgumentException naming the key, when {@code sluice.budget} is missing or
     *     settings do not fit together
     */
    public RateLimitedDataSource build() {
      Settings settings = fromProperties.with(explicit);
      if (!settings.isSet(Keys.NAME)) {
        settings = settings.with(Keys.NAME, "default");
      }
      settings = PoolSize.fitMax(settings, PoolSize.of(delegate));
      return new RateLimitedDataSource(delegate, Enforcer.open(settings, flag, false, ticker));
    }

    /** The clock of the bucket and the recovery: for tests. */
    Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    private <T> Builder set(Key<T> key, T value) {
      explicit = explicit.with(key, value);
      return this;
    }
  }
}
