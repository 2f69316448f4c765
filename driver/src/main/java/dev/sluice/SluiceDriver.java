package dev.sluice;

import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Secrets;
import dev.sluice.internal.driver.DriverLookup;
import dev.sluice.internal.driver.SluiceUrl;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver for {@code jdbc:sluice:} URLs: configure the limiter in the URL, change nothing
 * in code.
 *
 * <pre>
 * jdbc:sluice:postgresql://db:5432/app?sslmode=require&amp;sluice.budget=5000&amp;sluice.instances=10
 * jdbc:sluice:h2:mem:test;DB_CLOSE_DELAY=-1;sluice.budget=200
 * </pre>
 *
 * <p>The real URL is {@code jdbc:} followed by what comes after {@code jdbc:sluice:}, with every
 * {@code sluice.*} token taken out as written, the rest byte for byte as given. {@code sluice.*}
 * keys may also come as connection properties (HikariCP's {@code dataSourceProperties}); they are
 * removed before the real driver sees them. The real driver is found through
 * {@link DriverManager}, then the thread's context class loader.
 *
 * <p>Every connection made with the same {@code sluice.name} in one JVM draws from one budget:
 * a pool of fifty physical connections shares one bucket. Without {@code sluice.name} the name is
 * made of the real URL's host, port and database, with a checksum suffix when joining them would
 * be ambiguous (two databases never share a derived name). The enforcer's background work stops
 * about thirty seconds after its last connection is closed; a connect that gives the name other
 * settings replaces it at once when none of its connections is open.
 *
 * <p>The driver registers itself with {@link DriverManager} when loaded, and is listed as a
 * {@code java.sql.Driver} service. Spring Boot cannot tell the driver from the {@code jdbc:sluice:}
 * prefix: set {@code spring.datasource.driver-class-name=dev.sluice.SluiceDriver}.
 *
 * <p>This class is threadsafe.
 */
public final class SluiceDriver implements Driver {

  private static final int[] VERSION = readVersion();
  private static final SluiceDriver REGISTERED = new SluiceDriver();

  static {
    try {
      DriverManager.registerDriver(REGISTERED);
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final DriverEnforcers enforcers;
  /** The last real driver connected through; {@link #jdbcCompliant()} asks it. */
  private volatile Driver lastDelegate;

  /** Creates the driver; {@link DriverManager} finds it without this. */
  public SluiceDriver() {
    this(DriverEnforcers.SHARED);
  }

  SluiceDriver(DriverEnforcers enforcers) {
    this.enforcers = enforcers;
  }

  /**
   * Opens a connection through the real driver, limited by the enforcer the settings name.
   *
   * @param url a {@code jdbc:sluice:} URL; any other URL gives {@code null}
   * @param info connection properties: the real driver's, and {@code sluice.*} settings
   * @return the connection, or {@code null} when the URL is not {@code jdbc:sluice:}
   * @throws SQLNonTransientConnectionException naming the key and the value (masked), when a
   *     setting is bad, unknown, misspelled, given twice, or differs from the enforcer of the same
   *     name while connections of it are open; when there is no URL after the prefix; or naming
   *     the (masked) URL and the class loader, when no driver accepts the real URL
   * @throws SQLException as the real driver throws it
   */
  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    SluiceUrl target = parse(url, info);
    Driver real = DriverLookup.find(target.url(), SluiceDriver.class);
    lastDelegate = real;
    DriverEnforcers.Entry entry = acquire(target);
    Connection raw;
    try {
      raw = real.connect(target.url(), target.properties());
    } catch (SQLException | RuntimeException e) {
      enforcers.abandoned(entry);
      throw e;
    }
    if (raw == null) {
      enforcers.abandoned(entry);
      throw new SQLNonTransientConnectionException(real.getClass().getName() + " accepted the"
          + " URL but returned no connection", "08001");
    }
    enforcers.connected(entry, raw);
    return entry.enforcer().wrap(raw, 0, target.properties().getProperty("user"));
  }

  /**
   * Whether this driver takes {@code url}.
   *
   * @param url any URL
   * @return whether it starts with {@code jdbc:sluice:}
   */
  @Override
  public boolean acceptsURL(String url) {
    return SluiceUrl.accepts(url);
  }

  /**
   * Lists the {@code sluice.*} keys, then the real driver's properties for the real URL. When no
   * real driver is found only the {@code sluice.*} keys are listed.
   *
   * @param url a {@code jdbc:sluice:} URL; any other gives an empty array
   * @param info connection properties, or {@code null}
   * @return the properties a tool may offer to set
   * @throws SQLNonTransientConnectionException for a doubled prefix or a key given twice
   * @throws SQLException as the real driver throws it
   */
  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return new DriverPropertyInfo[0];
    }
    SluiceUrl.Raw raw;
    try {
      raw = SluiceUrl.split(url, info);
    } catch (IllegalArgumentException e) {
      throw badSettings(e);
    }
    List<DriverPropertyInfo> all = new ArrayList<>();
    for (Key<?> key : Keys.ALL) {
      if (key.group() != Key.Group.SPRING_BOOT) { // refused in a URL: see SluiceUrl
        all.add(describe(key, raw.settings()));
      }
    }
    Driver real;
    try {
      real = DriverLookup.find(raw.url(), SluiceDriver.class);
    } catch (SQLException noDriver) {
      return all.toArray(new DriverPropertyInfo[0]);
    }
    for (DriverPropertyInfo theirs : real.getPropertyInfo(raw.url(), raw.properties())) {
      all.add(masked(theirs));
    }
    return all.toArray(new DriverPropertyInfo[0]);
  }

  /**
   * The real driver's entry with its value safe to show: drivers return the password as given
   * ({@code password}, {@code sslpassword}), and a tool may print what it gets.
   */
  private static DriverPropertyInfo masked(DriverPropertyInfo info) {
    if (info.value != null) {
      info.value = Secrets.isSecretName(info.name) ? Secrets.MASK : Secrets.mask(info.value);
    }
    return info;
  }

  /**
   * Returns Sluice's major version.
   *
   * @return the major version of this library
   */
  @Override
  public int getMajorVersion() {
    return VERSION[0];
  }

  /**
   * Returns Sluice's minor version.
   *
   * @return the minor version of this library
   */
  @Override
  public int getMinorVersion() {
    return VERSION[1];
  }

  /**
   * Whether the real driver last connected through is JDBC compliant; {@code false} before any
   * connection, since there is no URL to tell which driver would answer.
   *
   * @return the real driver's answer, or {@code false}
   */
  @Override
  public boolean jdbcCompliant() {
    Driver delegate = lastDelegate;
    return delegate != null && delegate.jdbcCompliant();
  }

  /**
   * Returns the {@code dev.sluice} logger. Sluice itself logs through SLF4J.
   *
   * @return the parent logger of this driver
   */
  @Override
  public Logger getParentLogger() {
    return Logger.getLogger("dev.sluice");
  }

  /**
   * Returns the figures of an enforcer made by this driver in this JVM.
   *
   * @param name the enforcer's {@code sluice.name}, given or derived
   * @return its figures, or empty when no open connection uses that name
   */
  public static Optional<Stats> stats(String name) {
    return Optional.ofNullable(DriverEnforcers.SHARED.stats(name));
  }

  @Override
  public String toString() {
    return "SluiceDriver[" + SluiceUrl.PREFIX + " " + VERSION[0] + "." + VERSION[1] + "]";
  }

  // --- helpers ---

  private static SluiceUrl parse(String url, Properties info) throws SQLException {
    try {
      return SluiceUrl.parse(url, info);
    } catch (IllegalArgumentException e) {
      throw badSettings(e);
    }
  }

  private DriverEnforcers.Entry acquire(SluiceUrl target) throws SQLException {
    try {
      return enforcers.acquire(target.settings());
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      throw badSettings(e);
    }
  }

  /** A setting that will not work until changed: not worth a retry, hence non-transient. */
  private static SQLNonTransientConnectionException badSettings(RuntimeException e) {
    return new SQLNonTransientConnectionException(e.getMessage(), "08001", e);
  }


  private static DriverPropertyInfo describe(Key<?> key, Map<String, String> given) {
    String value = given.get(key.name());
    if (value == null && key.nestedName() != null) {
      value = given.get(key.nestedName());
    }
    DriverPropertyInfo info = new DriverPropertyInfo(key.name(),
        value == null ? null : key.show(value)); // a tool may show or log it
    info.description = key.doc() + " Default: " + key.defaultText().replace("`", "") + ".";
    info.required = key == Keys.BUDGET;
    info.choices = choices(key);
    return info;
  }

  private static String[] choices(Key<?> key) {
    if (key == Keys.SCOPE) {
      return new String[] {"statement"}; // connection scope is refused in driver mode
    }
    if (key.type() == Boolean.class) {
      return new String[] {"true", "false"};
    }
    Object[] constants = key.type().getEnumConstants();
    if (constants == null) {
      return null;
    }
    return Arrays.stream(constants).map(c -> c.toString().toLowerCase(Locale.ROOT))
        .toArray(String[]::new);
  }

  private static int[] readVersion() {
    Properties props = new Properties();
    try (InputStream in = SluiceDriver.class.getResourceAsStream("sluice-version.properties")) {
      if (in != null) {
        props.load(in);
      }
    } catch (IOException e) {
      return new int[] {0, 0};
    }
    return parseVersion(props.getProperty("version", "0.0"));
  }

  static int[] parseVersion(String version) {
    String[] parts = version.split("[.-]");
    try {
      return new int[] {Integer.parseInt(parts[0]),
          parts.length > 1 ? Integer.parseInt(parts[1]) : 0};
    } catch (NumberFormatException e) {
      return new int[] {0, 0};
    }
  }
}
