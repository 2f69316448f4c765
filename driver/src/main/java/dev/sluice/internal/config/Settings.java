package dev.sluice.internal.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * An immutable set of checked settings: the values given for some {@link Key}s, the defaults for
 * the others. Made from properties (text) and explicit values (typed), explicit winning.
 *
 * <p>This class is immutable and threadsafe.
 */
public final class Settings {

  private final Map<Key<?>, Object> values;
  /** The text each value parsed from was typed as, for messages; absent for values given typed. */
  private final Map<Key<?>, String> texts;

  private Settings(Map<Key<?>, Object> values, Map<Key<?>, String> texts) {
    this.values = Collections.unmodifiableMap(values);
    this.texts = Collections.unmodifiableMap(texts);
  }

  /** Settings with nothing given: every key at its default. */
  public static Settings empty() {
    return new Settings(new LinkedHashMap<>(), new LinkedHashMap<>());
  }

  /**
   * Parses the {@code sluice.*} entries of {@code properties}; other entries are ignored.
   *
   * @throws IllegalArgumentException for an unknown {@code sluice.*} key or a bad value
   */
  public static Settings parse(Properties properties) {
    Map<String, String> text = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      if (isSluiceKey(name)) {
        text.put(name, properties.getProperty(name));
      }
    }
    return parse(text);
  }

  /**
   * Parses {@code sluice.*} entries given as text.
   *
   * @throws IllegalArgumentException for an unknown {@code sluice.*} key or a bad value
   */
  public static Settings parse(Map<String, String> text) {
    Map<Key<?>, Object> values = new LinkedHashMap<>();
    Map<Key<?>, String> texts = new LinkedHashMap<>();
    Map<Key<?>, String> spelled = new LinkedHashMap<>();
    text.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
      Key<?> key = find(entry.getKey());
      String other = spelled.putIfAbsent(key, entry.getKey());
      if (other != null) {
        throw new IllegalArgumentException(other + " and " + entry.getKey() + " are two"
            + " spellings of one setting (the second for nested YAML); give one");
      }
      values.put(key, parse(key, entry.getKey(), entry.getValue()));
      texts.put(key, entry.getValue());
    });
    return new Settings(values, texts);
  }

  /** Parses a value, the message naming the key as it was spelled ({@code sluice.redis.uri}). */
  private static Object parse(Key<?> key, String spelled, String text) {
    try {
      return key.parse(text);
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      if (spelled.equals(key.name()) || !message.startsWith(key.name() + " ")) {
        throw e;
      }
      throw new IllegalArgumentException(spelled + message.substring(key.name().length()), e);
    }
  }

  /**
   * Whether {@code name} is Sluice's to take or refuse: it starts with {@code sluice.} in any
   * case, after any white space. Such a key never reaches the database's driver, even when
   * misspelled ({@code SLUICE.BUDGET}, {@code " sluice.budget"}): {@link #find} refuses it.
   *
   * @param name a property or URL parameter name
   * @return whether it is meant for Sluice
   */
  public static boolean isSluiceKey(String name) {
    return name.strip().regionMatches(true, 0, Keys.PREFIX, 0, Keys.PREFIX.length());
  }

  /**
   * Returns the key named {@code name}, spelled exactly, in either of its spellings
   * ({@link Key#nestedName()}).
   *
   * @throws IllegalArgumentException naming the unknown key (masked), the nearest known one and
   *     the list; for a known key in other case or with white space, its right spelling
   */
  public static Key<?> find(String name) {
    for (Key<?> key : Keys.ALL) {
      if (key.isSpelled(name)) {
        return key;
      }
    }
    String shown = "\"" + Secrets.mask(name) + "\"";
    String normalised = name.strip().toLowerCase(Locale.ROOT);
    for (Key<?> key : Keys.ALL) {
      if (key.isSpelled(normalised)) {
        throw new IllegalArgumentException(shown + " is not how Sluice's keys are spelled: write "
            + normalised + ", in lower case and without spaces");
      }
    }
    String nearest = Keys.ALL.stream().map(Key::name)
        .min(Comparator.comparingInt(known -> distance(known, normalised))).orElseThrow();
    throw new IllegalArgumentException((name.equals(name.strip()) ? Secrets.mask(name) : shown)
        + " is not a Sluice setting; did you mean " + nearest + "? Known settings: "
        + Keys.ALL.stream().map(Key::name).collect(Collectors.joining(", ")));
  }

  /** Returns these settings with {@code overrides} winning where both give a key. */
  public Settings with(Settings overrides) {
    Map<Key<?>, Object> merged = new LinkedHashMap<>(values);
    merged.putAll(overrides.values);
    Map<Key<?>, String> mergedTexts = new LinkedHashMap<>(texts);
    mergedTexts.keySet().removeAll(overrides.values.keySet());
    mergedTexts.putAll(overrides.texts);
    return new Settings(merged, mergedTexts);
  }

  /** Returns these settings with {@code key} set to {@code value}. */
  public <T> Settings with(Key<T> key, T value) {
    Map<Key<?>, Object> merged = new LinkedHashMap<>(values);
    merged.put(key, Objects.requireNonNull(value, key.name()));
    Map<Key<?>, String> mergedTexts = new LinkedHashMap<>(texts);
    mergedTexts.remove(key);
    return new Settings(merged, mergedTexts);
  }

  /** The value given for {@code key}, or its default ({@code null} if computed or none). */
  public <T> T get(Key<T> key) {
    Object value = values.get(key);
    return value != null ? key.type().cast(value) : key.defaultValue();
  }

  /**
   * The value of {@code key} as the user gave it, for a message: the text typed in a URL or in
   * properties ({@code 1e18}, not {@code 1.0E18}), else the value shown; passwords masked.
   */
  public String given(Key<?> key) {
    String text = texts.get(key);
    return text != null ? key.show(text) : key.show(get(key));
  }

  /** Whether a value was given for {@code key}. */
  public boolean isSet(Key<?> key) {
    return values.containsKey(key);
  }

  /** The given values as text, keyed by name, passwords masked: for logs and comparisons. */
  public Map<String, String> describe() {
    Map<String, String> shown = new LinkedHashMap<>();
    for (Map.Entry<Key<?>, Object> e : values.entrySet()) {
      shown.put(e.getKey().name(), e.getKey().show(e.getValue()));
    }
    return shown;
  }

  /**
   * Lists the keys whose values differ between the two settings, as
   * {@code sluice.budget ("100" here, "200" there)}, passwords masked; empty when they agree.
   */
  public List<String> differences(Settings other) {
    List<String> found = new ArrayList<>();
    for (Key<?> key : Keys.ALL) {
      Object mine = get(key);
      Object theirs = other.get(key);
      if (!Objects.equals(mine, theirs)) {
        found.add(key.name() + " (\"" + key.show(mine) + "\" and \"" + key.show(theirs) + "\")");
      }
    }
    return found;
  }

  @Override
  public String toString() {
    return describe().toString();
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1),
            previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
