package dev.sluice.internal.driver;

import dev.sluice.Scope;
import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * A {@code jdbc:sluice:} URL and its connection properties taken apart: the URL and properties for
 * the real driver, with every {@code sluice.*} setting removed, and the checked settings.
 *
 * <p>Instances are immutable (the properties are a private copy) and threadsafe.
 *
 * @param url the URL for the real driver
 * @param properties the properties for the real driver, without {@code sluice.*} entries
 * @param settings the checked settings, {@code sluice.name} always set
 */
public record SluiceUrl(String url, Properties properties, Settings settings) {

  /** The prefix the Sluice driver accepts. */
  public static final String PREFIX = "jdbc:sluice:";

  /** Checks the parts; the properties are kept as given, so give a copy. */
  public SluiceUrl {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(properties, "properties");
    Objects.requireNonNull(settings, "settings");
  }

  /**
   * Whether {@code url} is for the Sluice driver.
   *
   * @param url any URL, or {@code null}
   * @return whether it starts with {@code jdbc:sluice:}
   */
  public static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  /**
   * Takes a {@code jdbc:sluice:} URL and its properties apart, without checking the settings.
   *
   * @param sluiceUrl a URL starting with {@code jdbc:sluice:}
   * @param info the connection properties, or {@code null}
   * @return the real URL, the real properties, and the raw {@code sluice.*} settings
   * @throws IllegalArgumentException for a doubled prefix, no database URL after the prefix, a
   *     key given twice, or a key given in the URL and the properties with different values
   */
  public static Raw split(String sluiceUrl, Properties info) {
    String realUrl = realUrl(sluiceUrl);
    UrlParameters.Stripped stripped = UrlParameters.strip(realUrl);
    Properties properties = new Properties();
    Map<String, String> settings = new LinkedHashMap<>(stripped.settings());
    if (info != null) {
      copy(info, properties, settings, stripped.settings());
    }
    return new Raw(stripped.url(), properties, settings);
  }

  /**
   * Takes a {@code jdbc:sluice:} URL and its properties apart and checks the settings for driver
   * mode; without {@code sluice.name}, the name is derived from the real URL's host, port and
   * database.
   *
   * @param sluiceUrl a URL starting with {@code jdbc:sluice:}
   * @param info the connection properties, or {@code null}
   * @return the parts
   * @throws IllegalArgumentException naming the key and the value, for a bad or unknown setting,
   *     a key given twice, a doubled prefix, or {@code sluice.scope=connection}
   */
  public static SluiceUrl parse(String sluiceUrl, Properties info) {
    Raw raw = split(sluiceUrl, info);
    Settings settings = Settings.parse(raw.settings());
    if (!settings.isSet(Keys.NAME)) {
      settings = settings.with(Keys.NAME, derivedName(raw.url()));
    }
    refuseStarterKeys(settings);
    if (settings.get(Keys.SCOPE) == Scope.CONNECTION) {
      throw new IllegalArgumentException("sluice.scope must be `statement` in a jdbc:sluice: URL,"
          + " but was \"connection\": under a pool the driver sees physical connections being"
          + " opened, not checkouts, so it would charge almost nothing. To charge each checkout,"
          + " wrap the pool with RateLimitedDataSource and scope(Scope.CONNECTION) instead");
    }
    return new SluiceUrl(raw.url(), raw.properties(), settings);
  }

  /**
   * Refuses the Spring Boot starter's own keys, which the driver cannot honour: taken and
   * ignored, {@code sluice.enabled=false} would look like Sluice turned off while it limits.
   */
  private static void refuseStarterKeys(Settings settings) {
    for (Key<?> key : Keys.ALL) {
      if (key.group() == Key.Group.SPRING_BOOT && settings.isSet(key)) {
        String hint = key == Keys.ENABLED ? " To connect without Sluice, take sluice: out of the"
            + " URL (jdbc:postgresql://..., not jdbc:sluice:postgresql://...)."
            : key == Keys.CIRCUIT_BREAKER || key == Keys.CIRCUIT_BREAKER_PUBLISH
                ? " In driver mode the flag comes from sluice.flag (redis or manual)." : "";
        throw new IllegalArgumentException(key.name() + " is a setting of the Spring Boot"
            + " starter, which a jdbc:sluice: URL does not read; remove it from the URL and the"
            + " connection properties (it was \"" + settings.given(key) + "\")." + hint);
      }
    }
  }

  /**
   * The raw parts: real URL, real properties, and the {@code sluice.*} settings as text.
   *
   * @param url the URL for the real driver
   * @param properties the properties for the real driver
   * @param settings the {@code sluice.*} keys and their raw values
   */
  public record Raw(String url, Properties properties, Map<String, String> settings) {}

  /** {@code jdbc:} and what follows our prefix; the prefix is taken off exactly once. */
  static String realUrl(String sluiceUrl) {
    if (!accepts(sluiceUrl)) {
      throw new IllegalArgumentException("not a jdbc:sluice: URL");
    }
    String rest = sluiceUrl.substring(PREFIX.length());
    if (rest.isBlank() || "?;&".indexOf(rest.strip().charAt(0)) >= 0) {
      throw new IllegalArgumentException("There is no database URL after jdbc:sluice:; write the"
          + " database's URL without its jdbc: after it, for example"
          + " jdbc:sluice:postgresql://db:5432/app?sluice.budget=5000");
    }
    if (rest.startsWith("sluice:")) {
      throw new IllegalArgumentException("The URL starts with jdbc:sluice:sluice:; write"
          + " jdbc:sluice: once, followed by the database's URL without its jdbc:, for example"
          + " jdbc:sluice:postgresql://db:5432/app");
    }
    if (rest.startsWith("jdbc:")) {
      throw new IllegalArgumentException("The URL starts with jdbc:sluice:jdbc:; write the"
          + " database's URL without its jdbc: after jdbc:sluice:, for example"
          + " jdbc:sluice:postgresql://db:5432/app");
    }
    return "jdbc:" + rest;
  }

  /**
   * Copies the non-{@code sluice.*} properties (defaults included) to {@code out} and the
   * {@code sluice.*} ones to {@code settings}, checking them against the URL's.
   */
  private static void copy(Properties info, Properties out, Map<String, String> settings,
      Map<String, String> fromUrl) {
    for (String name : info.stringPropertyNames()) {
      String value = info.getProperty(name);
      if (Settings.isSluiceKey(name)) {
        agree(name, fromUrl.get(name), value);
        settings.put(name, value);
      } else {
        out.setProperty(name, value);
      }
    }
    for (Map.Entry<Object, Object> entry : info.entrySet()) {
      Object key = entry.getKey();
      Object value = entry.getValue();
      if (key instanceof String && value instanceof String) {
        continue; // copied above
      }
      if (key instanceof String && Settings.isSluiceKey((String) key)) {
        agree((String) key, fromUrl.get(key), String.valueOf(value));
        settings.put((String) key, String.valueOf(value));
      } else {
        out.put(key, value); // non-text entries reach the real driver as they are
      }
    }
  }

  private static void agree(String name, String inUrl, String inProperties) {
    if (inUrl != null && !inUrl.equals(inProperties)) {
      Key<?> key = Settings.find(name);
      throw new IllegalArgumentException(name + " is given twice with different values: \""
          + key.show(inUrl) + "\" in the URL and \"" + key.show(inProperties)
          + "\" in the connection properties; give it once");
    }
  }

  private static String derivedName(String url) {
    String name = JdbcUrls.defaultName(url);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("sluice.name could not be derived from the host, port"
          + " and database of " + JdbcUrls.mask(url) + "; set sluice.name");
    }
    return Keys.NAME.parse(name);
  }
}
