package dev.sluice.internal.driver;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the real driver for a database URL: first {@link DriverManager}, then a
 * {@link ServiceLoader} over the thread's context class loader (what application servers, build
 * tool plugins and Spring Boot's fat jars make visible), never the Sluice driver itself.
 *
 * <p>This class is stateless and threadsafe.
 */
public final class DriverLookup {

  /** How many unloadable providers are skipped before giving up: the iterator may stick. */
  private static final int MAX_BROKEN = 32;

  private DriverLookup() {}

  /**
   * Returns a driver that accepts {@code url}.
   *
   * @param url the URL for the real driver, {@code sluice.*} tokens removed
   * @param self the driver class to skip
   * @return the driver
   * @throws SQLException naming the masked URL and the class loader consulted, when none accepts it
   */
  public static Driver find(String url, Class<? extends Driver> self) throws SQLException {
    Driver found = fromDriverManager(url, self);
    if (found != null) {
      return found;
    }
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = self.getClassLoader();
    }
    found = fromServiceLoader(url, self, loader);
    if (found != null) {
      return found;
    }
    throw new SQLNonTransientConnectionException("No JDBC driver accepts " + JdbcUrls.mask(url)
        + " (looked in DriverManager and in the java.sql.Driver services of class loader "
        + loader + "): put the database's driver on the class path, or check the URL after"
        + " jdbc:sluice:", "08001");
  }

  private static Driver fromDriverManager(String url, Class<? extends Driver> self) {
    try {
      Driver driver = DriverManager.getDriver(url);
      return self.isInstance(driver) ? null : driver;
    } catch (SQLException e) {
      return null; // "no suitable driver": the service loader may still know one
    }
  }

  private static Driver fromServiceLoader(String url, Class<? extends Driver> self,
      ClassLoader loader) {
    Iterator<Driver> drivers = ServiceLoader.load(Driver.class, loader).iterator();
    for (int broken = 0; broken < MAX_BROKEN; ) {
      Driver driver;
      try {
        if (!drivers.hasNext()) {
          return null;
        }
        driver = drivers.next();
      } catch (ServiceConfigurationError e) {
        broken++; // one broken jar must not hide the others
        continue;
      }
      if (!self.isInstance(driver) && accepts(driver, url)) {
        return driver;
      }
    }
    return null;
  }

  private static boolean accepts(Driver driver, String url) {
    try {
      return driver.acceptsURL(url);
    } catch (SQLException e) {
      return false;
    }
  }
}
