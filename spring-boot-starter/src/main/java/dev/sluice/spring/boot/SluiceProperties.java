package dev.sluice.spring.boot;

import dev.sluice.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The {@code sluice.*} settings of an application, read from every property source Spring Boot
 * knows, with its relaxed names ({@code SLUICE_BUDGET}, {@code sluice.summaryInterval}), and
 * spelled as Sluice's key table spells them.
 *
 * <p>Keys under {@code sluice.datasources.<bean>.} apply to the {@code DataSource} bean of that
 * name and win over the top-level ones. A key the table does not know is kept as typed, so that
 * Sluice's builder rejects it with its own message; except when it comes only from environment
 * variables, where platforms put variables of their own ({@code SLUICE_PORT}, which Kubernetes
 * injects for a service named {@code sluice}): that one is logged and ignored.
 *
 * <p>Instances are immutable and threadsafe.
 */
final class SluiceProperties {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceProperties.class);
  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("sluice");
  private static final String PER_BEAN = "datasources";
  /** Every spelling of every key, relaxed, to the key's name: both {@code sluice.redis} and its
   * nested {@code sluice.redis.uri} (for YAML) to {@code sluice.redis}. */
  private static final Map<String, String> KNOWN = known();

  static final String ENABLED = "sluice.enabled";
  static final String NAME = "sluice.name";
  static final String CIRCUIT_BREAKER = "sluice.circuit-breaker";
  static final String PUBLISH = "sluice.circuit-breaker.publish";
  static final String REDIS = "sluice.redis";

  private final Map<String, String> shared;
  private final Map<String, Map<String, String>> perBean;
  private final Map<String, String> ignored;
  private final List<String> conflicts;

  private SluiceProperties(Map<String, String> shared, Map<String, Map<String, String>> perBean,
      Map<String, String> ignored, List<String> conflicts) {
    this.shared = shared;
    this.perBean = perBean;
    this.ignored = ignored;
    this.conflicts = conflicts;
  }

  private static Map<String, String> known() {
    Map<String, String> known = new LinkedHashMap<>();
    for (Setting setting : Setting.all()) {
      if (!setting.name().contains("<")) {
        known.put(uniform(setting.name()), setting.name());
        setting.nestedName().ifPresent(nested -> known.put(uniform(nested), setting.name()));
      }
    }
    return known;
  }

  /**
   * Reads the {@code sluice.*} settings of {@code environment}, the first property source to give
   * a key winning, as everywhere in Spring Boot.
   */
  static SluiceProperties read(Environment environment) {
    Map<String, String> shared = new LinkedHashMap<>();
    Map<String, Map<String, String>> perBean = new LinkedHashMap<>();
    Map<String, String> envOnlyUnknown = new LinkedHashMap<>();
    List<String> conflicts = new ArrayList<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource)) {
        continue;
      }
      boolean fromEnvironment =
          source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
      Map<String, String> spellingsHere = new LinkedHashMap<>();
      ((IterableConfigurationPropertySource) source).filter(ROOT::isAncestorOf).stream()
          .forEach(name -> {
            Entry entry = Entry.of(name, source.getConfigurationProperty(name), environment);
            if (entry.key.startsWith("?") && fromEnvironment) {
              envOnlyUnknown.putIfAbsent(entry.typed(), entry.origin);
              return;
            }
            String other = spellingsHere.putIfAbsent(uniform(entry.bean + "/" + entry.key),
                entry.typedFully);
            if (other != null && !other.equals(entry.typedFully)) {
              conflicts.add(other + " and " + entry.typedFully + " are two spellings of one"
                  + " setting (the second for nested YAML), both in " + entry.origin
                  + "; give one");
            }
            Map<String, String> target = entry.bean == null ? shared : perBean
                .computeIfAbsent(spelling(perBean, entry.bean), bean -> new LinkedHashMap<>());
            target.putIfAbsent(entry.spelled(), entry.value);
          });
    }
    envOnlyUnknown.keySet().removeAll(shared.keySet()); // given elsewhere too: rejected there
    return new SluiceProperties(shared, perBean, envOnlyUnknown, conflicts);
  }

  /**
   * Refuses a key given in both its spellings in one property source; across sources the
   * first source wins, as everywhere in Spring Boot.
   *
   * @throws SluiceConfigurationException naming both spellings
   */
  void checkSpellings() {
    if (!conflicts.isEmpty()) {
      throw new SluiceConfigurationException(conflicts.get(0));
    }
  }

  /** The spelling already used for {@code bean}, relaxed, so that one bean has one entry. */
  private static String spelling(Map<String, ?> perBean, String bean) {
    return perBean.keySet().stream().filter(known -> uniform(known).equals(uniform(bean)))
        .findFirst().orElse(bean);
  }

  /** Logs the unknown keys that only environment variables gave, once per application. */
  void logIgnored() {
    ignored.forEach((key, origin) -> LOG.info("Ignoring {}: not a Sluice setting, and set only"
        + " by an environment variable ({}), as platforms do for a service named sluice", key,
        origin));
  }

  /** The unknown keys that only environment variables gave, as typed. */
  Set<String> ignored() {
    return ignored.keySet();
  }

  /** Whether any setting is given (for {@code sluice.enabled=false} too: see {@link #enabled}). */
  boolean present() {
    return !shared.isEmpty() || !perBean.isEmpty();
  }

  /** Whether the starter is on: settings are given and {@code sluice.enabled} is not false. */
  boolean enabled() {
    return present() && !"false".equalsIgnoreCase(shared.getOrDefault(ENABLED, "true").trim());
  }

  /** The names of the beans given settings of their own, as spelled there. */
  Set<String> beans() {
    return perBean.keySet();
  }

  /**
   * The settings of the bean {@code beanName}: the top-level ones with its own winning. Bean names
   * match relaxed, as environment variables cannot spell {@code ordersDataSource}.
   */
  Properties forBean(String beanName) {
    Properties properties = new Properties();
    properties.putAll(shared);
    perBean.forEach((bean, own) -> {
      if (uniform(bean).equals(uniform(beanName))) {
        properties.putAll(own);
      }
    });
    return properties;
  }

  /** All top-level settings. */
  Properties shared() {
    Properties properties = new Properties();
    properties.putAll(shared);
    return properties;
  }

  /** Every bean's own settings, keyed by the bean name as spelled there. */
  Map<String, Properties> perBean() {
    Map<String, Properties> all = new LinkedHashMap<>();
    perBean.forEach((bean, own) -> {
      Properties properties = new Properties();
      properties.putAll(own);
      all.put(bean, properties);
    });
    return all;
  }

  /** Lower case, letters and digits and dots only: how Spring Boot compares names. */
  static String uniform(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]", "");
  }

  /** One property under {@code sluice.}: which bean, which key, what value, from where. */
  private static final class Entry {
    final String bean;
    final String key; // the table's spelling, or "?" + as typed when the table does not know it
    final String value;
    final String origin;
    final String typedFully; // as the source spells it, sluice.datasources.<bean>. included

    private Entry(String bean, String key, String value, String origin, String typedFully) {
      this.bean = bean;
      this.key = key;
      this.value = value;
      this.origin = origin;
      this.typedFully = typedFully;
    }

    static Entry of(ConfigurationPropertyName name, ConfigurationProperty property,
        Environment environment) {
      int first = 1;
      String bean = null;
      if (name.getNumberOfElements() > 3 && PER_BEAN.equals(name.getElement(1, Form.UNIFORM))) {
        bean = name.getElement(2, Form.ORIGINAL);
        first = 3;
      }
      StringBuilder typed = new StringBuilder("sluice");
      for (int i = first; i < name.getNumberOfElements(); i++) {
        typed.append('.').append(name.getElement(i, Form.ORIGINAL));
      }
      String known = KNOWN.get(uniform(typed.toString()));
      Object raw = property == null ? null : property.getValue();
      // ${...} resolved as Boot's binder would: sluice.redis.uri: ${REDIS_URL}
      Object value = raw instanceof String ? environment.resolvePlaceholders((String) raw) : raw;
      String origin = property == null || property.getOrigin() == null ? "?"
          : property.getOrigin().toString();
      return new Entry(bean, known != null ? known : "?" + typed, String.valueOf(value), origin,
          name.toString());
    }

    /** The key as Sluice's builder should see it. */
    String spelled() {
      return key.startsWith("?") ? key.substring(1) : key;
    }

    /** The key as the user gave it, for the log line. */
    String typed() {
      return bean == null ? spelled() : spelled().replace("sluice.", "sluice.datasources." + bean
          + ".");
    }
  }
}
