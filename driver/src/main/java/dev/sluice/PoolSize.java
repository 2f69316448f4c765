package dev.sluice;

import dev.sluice.internal.config.ConcurrencyCap;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the pool under Sluice can run at once, and the default of {@code sluice.concurrency.max}
 * that follows from it.
 *
 * <p>An adaptive cap ({@code sluice.concurrency=auto}) is cut only while it is in use: full, or
 * half of it in flight. A pool never lets more statements run than it has connections, so a
 * maximum above twice the pool's size is never in use and never cut &mdash; an {@code auto} that
 * silently does nothing. The maximum therefore defaults to the pool's size when Sluice can read
 * it, and Sluice says at start, once, when it cannot or when the maximum given is larger.
 *
 * <p><b>How the size is read.</b> Once, when the data source is built, never on a request path:
 * the delegate's public no-argument {@code int} getter of a pool's maximum size, by the names the
 * common pools give it &mdash; {@code getMaximumPoolSize} (HikariCP), {@code getMaxTotal}
 * (Commons DBCP 2), {@code getMaxActive} (Tomcat JDBC), {@code getMaxPoolSize} (c3p0, Oracle
 * UCP). Reflection, not {@code unwrap}: unwrapping to a pool's interface ({@code
 * HikariConfigMXBean}) needs that interface on the class path at compile time, and the driver
 * depends on no pool; nor does HikariCP register its MXBean unless asked
 * ({@code registerMbeans}). A delegate that is not a pool, a getter that throws or is not
 * accessible: the size is unknown. In driver mode ({@code jdbc:sluice:}) the pool sits above
 * Sluice and cannot be seen: unknown.
 *
 * <p>This class is threadsafe; it has only static methods.
 */
final class PoolSize {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  private static final String[] GETTERS =
      {"getMaximumPoolSize", "getMaxTotal", "getMaxActive", "getMaxPoolSize"};

  private PoolSize() {}

  /**
   * The maximum size of the pool {@code delegate} is, or 0 when it cannot be read.
   *
   * @param delegate the data source under Sluice
   * @return its maximum number of connections, or 0
   */
  static int of(DataSource delegate) {
    for (String getter : GETTERS) {
      try {
        Method method = delegate.getClass().getMethod(getter);
        if (method.getReturnType() == int.class && Modifier.isPublic(method.getModifiers())) {
          int size = (int) method.invoke(delegate);
          return Math.max(0, size);
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not this pool's getter, or not readable from here: try the next name
      }
    }
    return 0;
  }

  /**
   * The settings with {@code sluice.concurrency.max} defaulted to the pool's size, for
   * {@code sluice.concurrency=auto}; logs one WARN when the size is unknown and the maximum is
   * unset, or when the maximum given is above it. Other settings are returned as they are.
   *
   * @param settings the settings as given
   * @param poolSize what {@link #of} read, 0 when unknown
   * @return the settings the limiter is built from
   */
  static Settings fitMax(Settings settings, int poolSize) {
    ConcurrencyCap cap = settings.get(Keys.CONCURRENCY);
    if (cap == null || !cap.auto()) {
      return settings;
    }
    String name = settings.isSet(Keys.NAME) ? settings.get(Keys.NAME) : "default";
    if (settings.isSet(Keys.CONCURRENCY_MAX)) {
      int max = settings.get(Keys.CONCURRENCY_MAX);
      if (poolSize > 0 && max > poolSize) {
        warn(name, "sluice.concurrency.max (" + max + ") is above the pool's maximum size ("
            + poolSize + ")", poolSize);
      }
      return settings;
    }
    if (poolSize > 0) {
      int min = settings.get(Keys.CONCURRENCY_MIN);
      return settings.with(Keys.CONCURRENCY_MAX, Math.max(poolSize, min));
    }
    warn(name, "sluice.concurrency.max is not set and the pool's size cannot be read here"
        + " (driver mode, or a pool Sluice does not know), so it is "
        + Keys.CONCURRENCY_MAX.defaultValue(), 0);
    return settings;
  }

  private static void warn(String name, String what, int poolSize) {
    LOG.warn("{} - sluice.concurrency=auto: {}. The adaptive cap is cut only while half of it is"
        + " in flight, and the pool never lets more than its size run: above twice the pool's"
        + " size it never moves, and nothing protects the database. Set sluice.concurrency.max"
        + " to {}.", name, what, poolSize > 0 ? "at most " + poolSize
            : "the pool's maximum size (HikariCP's maximumPoolSize)");
  }
}
