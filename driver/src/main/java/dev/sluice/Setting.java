package dev.sluice;

import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * One {@code sluice.*} setting as the configuration reference ({@code docs/configuration.md})
 * documents it: for tools that complete, document or check configuration, such as the Spring Boot
 * starter's IDE metadata and its test of which keys exist. Building a data source never needs it.
 *
 * <pre>{@code
 * boolean known = Setting.all().stream().anyMatch(s -> s.name().equals("sluice.budget"));
 * }</pre>
 *
 * <p>Instances are immutable and threadsafe.
 */
public final class Setting {
  private static final List<Setting> ALL = describeAll();

  private final String name;
  private final String description;
  private final String defaultText;
  private final Class<?> type;
  private final List<String> values;
  private final String nestedName;
  private final boolean driverOnly;

  private Setting(Key<?> key) {
    this.driverOnly = key.driverOnly();
    this.name = key.name();
    this.nestedName = key.nestedName();
    this.description = key.doc();
    this.defaultText = key.defaultText().replace("`", "");
    this.type = publicType(key.type());
    this.values = key.words().isEmpty() ? choices(key.type()) : key.words();
  }

  /**
   * Returns every setting Sluice knows, in the order of the configuration reference
   * ({@code docs/configuration.md}). A name may hold placeholders in angle brackets
   * ({@code sluice.datasources.<bean>.<key>}).
   *
   * @return the settings, unmodifiable
   */
  public static List<Setting> all() {
    return ALL;
  }

  /**
   * Returns the key as spelled in properties and URLs.
   *
   * @return for example {@code sluice.budget}
   */
  public String name() {
    return name;
  }

  /**
   * Returns the setting's second spelling, for nested YAML, when its name is also the prefix of
   * other keys: {@code sluice.redis.uri} for {@code sluice.redis} (beside
   * {@code sluice.redis.timeout}), {@code sluice.instances.count}, {@code sluice.concurrency.limit},
   * {@code sluice.circuit-breaker.name}. Both spellings work wherever a key is read; giving both
   * is an error.
   *
   * @return the nested spelling, or empty for a key that is no prefix
   */
  public Optional<String> nestedName() {
    return Optional.ofNullable(nestedName);
  }

  /**
   * Returns whether only the JDBC driver reads the setting ({@code sluice.pool-auto-commit}): a
   * data source wrapped in code, or by the Spring Boot starter, has no use for it.
   *
   * @return whether it means something in {@code jdbc:sluice:} URLs alone
   */
  public boolean driverOnly() {
    return driverOnly;
  }

  /**
   * Checks settings as building a data source from them would, without building anything: each
   * key and value, and the keys together (a missing {@code sluice.budget}, a key that needs
   * another). Entries not under {@code sluice.} are ignored; the starter-only keys
   * ({@code sluice.enabled}, {@code sluice.circuit-breaker}, ...) are checked one by one.
   *
   * @param properties for example {@code sluice.budget=5000}
   * @throws IllegalArgumentException naming the key and the value (passwords masked), as
   *     {@code RateLimitedDataSource.Builder.build()} would
   */
  public static void check(Properties properties) {
    Settings settings = Settings.parse(Objects.requireNonNull(properties, "properties"));
    SettingsCheck.acrossKeys(settings);
  }

  /**
   * Returns what the setting means, in one or two sentences (Markdown backticks kept).
   *
   * @return the description
   */
  public String description() {
    return description;
  }

  /**
   * Returns the default as documented: a value such as {@code 10s}, or a sentence when it is
   * computed, or {@code none} or {@code required}.
   *
   * @return the documented default
   */
  public String defaultText() {
    return defaultText;
  }

  /**
   * Returns the type a value has: {@code String}, {@code Integer}, {@code Double},
   * {@code Boolean} or {@link Duration} (written {@code 250ms}, {@code 10s}, {@code 1m} or
   * ISO-8601).
   *
   * @return the value's type
   */
  public Class<?> type() {
    return type;
  }

  /**
   * Returns the values the setting takes when it is one of a few words, or the word a number's
   * setting also takes; else an empty list.
   *
   * @return for {@code sluice.scope}: {@code statement}, {@code connection}; for
   *     {@code sluice.instances}: {@code redis}; for {@code sluice.concurrency}: {@code auto}
   */
  public List<String> values() {
    return values;
  }

  @Override
  public String toString() {
    return name;
  }

  private static List<Setting> describeAll() {
    List<Setting> all = new ArrayList<>();
    for (Key<?> key : Keys.ALL) {
      all.add(new Setting(key));
    }
    return Collections.unmodifiableList(all);
  }

  private static Class<?> publicType(Class<?> type) {
    boolean plain = type == Integer.class || type == Double.class || type == Boolean.class
        || type == Duration.class;
    return plain ? type : String.class;
  }

  private static List<String> choices(Class<?> type) {
    List<String> words = new ArrayList<>();
    for (Object constant : type.isEnum() ? type.getEnumConstants() : new Object[0]) {
      words.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT));
    }
    return Collections.unmodifiableList(words);
  }
}
