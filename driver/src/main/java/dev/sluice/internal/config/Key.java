package dev.sluice.internal.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One configuration key: its name as spelled in a URL or {@code Properties}, how its text is
 * parsed and checked, its default and its one-line documentation. Every key is declared once, in
 * {@link Keys}; that table serves the builder, {@code Properties}, the JDBC URL, the error messages
 * and the configuration reference, {@code docs/configuration.md}.
 *
 * <p>Instances are immutable and threadsafe.
 *
 * @param <T> the type of the parsed value
 */
public final class Key<T> {

  /** Where the configuration reference ({@code docs/configuration.md}) lists a key. */
  public enum Group { ESSENTIALS, FREQUENTLY_USED, RARELY_USED, SPRING_BOOT }

  private final String name;
  private final Class<T> type;
  private final Function<String, T> parser;
  private final String constraint;
  private final String defaultText;
  private final T defaultValue;
  private final String unit;
  private final String doc;
  private final Group group;
  private final Function<String, String> mask;
  private final String nestedName;
  private final boolean driverOnly;
  private final List<String> words;

  private Key(Builder<T> b) {
    this.words = b.words;
    this.driverOnly = b.driverOnly;
    this.name = b.name;
    this.nestedName = b.nestedName;
    this.type = b.type;
    this.parser = b.parser;
    this.constraint = b.constraint;
    this.defaultText = b.defaultText;
    this.defaultValue = b.defaultValue;
    this.unit = b.unit;
    this.doc = b.doc;
    this.group = b.group;
    this.mask = b.mask;
  }

  /** Starts a key; finish it with {@link Builder#build()}. */
  static <T> Builder<T> named(String name, Class<T> type, Function<String, T> parser,
      String constraint) {
    return new Builder<>(name, type, parser, constraint);
  }

  /** The key as spelled in URLs and properties, e.g. {@code sluice.budget}. */
  public String name() {
    return name;
  }

  /**
   * The second spelling of a key that is also the prefix of others, for nested YAML: in
   * {@code sluice: {redis: {uri: ..., timeout: ...}}} the value of {@code sluice.redis} cannot
   * stand beside its children, so it is written {@code sluice.redis.uri}. Both spellings work
   * everywhere (URL, {@code Properties}, Spring Boot); giving both is an error.
   *
   * @return the nested spelling, or {@code null} for a key that is no prefix
   */
  public String nestedName() {
    return nestedName;
  }

  /**
   * The words a number's key also takes ({@code redis} for {@code sluice.instances}, {@code auto}
   * for {@code sluice.concurrency}), for tools that offer values.
   *
   * @return the words, or an empty list
   */
  public List<String> words() {
    return words;
  }

  /**
   * Whether only the JDBC driver reads this key ({@code jdbc:sluice:} URLs): the Spring Boot
   * starter, which wraps the pool, refuses it rather than ignore it.
   *
   * @return whether it means something in driver mode alone
   */
  public boolean driverOnly() {
    return driverOnly;
  }

  /**
   * Whether {@code spelled} is one of this key's spellings, exactly.
   *
   * @param spelled a key as written
   * @return whether it is {@link #name()} or {@link #nestedName()}
   */
  public boolean isSpelled(String spelled) {
    return name.equals(spelled) || spelled.equals(nestedName);
  }

  /** The type of the parsed value. */
  public Class<T> type() {
    return type;
  }

  /** What a valid value looks like, completing "{@code <key> must ...}". */
  public String constraint() {
    return constraint;
  }

  /** The default as documented (may describe a computed default). */
  public String defaultText() {
    return defaultText;
  }

  /** The default value, or {@code null} when the default is computed or there is none. */
  public T defaultValue() {
    return defaultValue;
  }

  /** The unit of the value, or an empty string. */
  public String unit() {
    return unit;
  }

  /** One line saying what the key means. */
  public String doc() {
    return doc;
  }

  /** Where the configuration reference lists it. */
  public Group group() {
    return group;
  }

  /**
   * Parses and checks {@code text}.
   *
   * @param text the raw value
   * @return the value
   * @throws IllegalArgumentException naming the key, the constraint and the value
   */
  public T parse(String text) {
    if (text == null || text.isBlank()) {
      throw invalid(text);
    }
    if (!text.equals(text.strip())) {
      // nothing is silently corrected: "sluice.budget= 5" is more likely a slip than meant
      throw new IllegalArgumentException(name + " must " + constraint + ", without spaces around"
          + " it, but was \"" + mask.apply(text) + "\"");
    }
    T value;
    try {
      value = parser.apply(text);
    } catch (IllegalArgumentException e) {
      if (String.valueOf(e.getMessage()).startsWith(name + " must ")) {
        throw e; // the parser said more precisely what is wrong, in the same shape
      }
      value = null;
    }
    if (value == null) {
      throw invalid(mask.apply(text));
    }
    return value;
  }

  /**
   * The exception for a bad value: {@code sluice.budget must be a positive number, but was "-5"}.
   *
   * @param shown the value as the user gave it (already masked if secret; any login in it is
   *     masked here)
   * @return the exception to throw
   */
  public IllegalArgumentException invalid(Object shown) {
    String text = shown instanceof String ? Secrets.mask((String) shown) : show(shown);
    String what = shown == null ? "missing" : "\"" + text + "\"";
    return new IllegalArgumentException(name + " must " + constraint + ", but was " + what);
  }

  /**
   * Returns a value as safe to show in a log line or a message (passwords masked).
   *
   * @param value the value
   * @return its text, masked where secret
   */
  public String show(Object value) {
    if (value == null) {
      return "none";
    }
    if (value instanceof Double && (Double) value == Math.rint((Double) value)
        && Math.abs((Double) value) < 1e15) {
      return Long.toString(((Double) value).longValue()); // as the user most likely wrote it
    }
    return mask.apply(String.valueOf(value));
  }

  @Override
  public String toString() {
    return name;
  }

  // --- parsers shared by the table ---

  static Double positiveNumber(String text) {
    double value = Double.parseDouble(text);
    return value > 0 && Double.isFinite(value) && !text.endsWith("d") && !text.endsWith("f")
        && !text.endsWith("D") && !text.endsWith("F") ? value : null;
  }

  static Integer positiveInt(String text) {
    int value = Integer.parseInt(text);
    return value > 0 ? value : null;
  }

  static Boolean bool(String text) {
    switch (text.toLowerCase(Locale.ROOT)) {
      case "true": return Boolean.TRUE;
      case "false": return Boolean.FALSE;
      default: return null;
    }
  }

  static Function<String, String> matching(Pattern pattern) {
    return text -> pattern.matcher(text).matches() ? text : null;
  }

  static <E extends Enum<E>> Function<String, E> oneOf(Class<E> type) {
    return text -> Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
  }

  /** Parses {@code 250ms}, {@code 2s}, {@code 1m}, or an ISO-8601 {@code PT0.25S}; positive. */
  static Duration positiveDuration(String text) {
    Duration d = parseDuration(text);
    return d.isNegative() || d.isZero() ? null : d;
  }

  /**
   * As {@link #positiveDuration}, but zero too, written {@code 0} or with a unit; at most what
   * a {@code long} of nanoseconds holds (about 292 years).
   */
  static Duration nonNegativeDuration(String text) {
    try {
      Duration d = text.equals("0") ? Duration.ZERO : parseDuration(text);
      return d.isNegative() || d.compareTo(LONGEST) > 0 ? null : d;
    } catch (ArithmeticException tooLong) { // more than a Duration holds
      return null;
    }
  }

  private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

  /** A ratio {@code 0 < r <= 1}, written as a plain decimal number. */
  static Double ratio(String text) {
    Double value = positiveNumber(text);
    return value != null && value <= 1 ? value : null;
  }

  /** A ratio {@code 0 <= r < 1}, written as a plain decimal number. */
  static Double reserveRatio(String text) {
    if (text.matches("0(\\.0*)?")) {
      return 0.0;
    }
    Double value = positiveNumber(text);
    return value != null && value < 1 ? value : null;
  }

  /**
   * A size above 0: a number of bytes, or one with {@code KB}, {@code MB} or {@code GB} (powers
   * of 1024), in any case: {@code 32MB}, {@code 512kb}, {@code 1048576}.
   */
  static Long size(String text) {
    String t = text.toUpperCase(Locale.ROOT);
    String[] suffixes = {"KB", "MB", "GB", "B"};
    int[] shifts = {10, 20, 30, 0};
    int shift = 0;
    for (int i = 0; i < suffixes.length; i++) {
      if (t.endsWith(suffixes[i])) {
        t = t.substring(0, t.length() - suffixes[i].length());
        shift = shifts[i];
        break;
      }
    }
    try {
      long value = Math.multiplyExact(Long.parseLong(t), 1L << shift);
      return value > 0 ? value : null;
    } catch (ArithmeticException tooLarge) {
      return null;
    }
  }

  static Duration parseDuration(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    if (t.startsWith("p")) {
      return Duration.parse(text);
    }
    for (Object[] unit : UNITS) {
      String suffix = (String) unit[0];
      if (t.endsWith(suffix)) {
        long amount = Long.parseLong(t.substring(0, t.length() - suffix.length()));
        return ((Duration) unit[1]).multipliedBy(amount);
      }
    }
    throw new IllegalArgumentException(text);
  }

  private static final List<Object[]> UNITS = List.of(
      new Object[] {"ms", Duration.ofMillis(1)},
      new Object[] {"s", Duration.ofSeconds(1)},
      new Object[] {"m", Duration.ofMinutes(1)},
      new Object[] {"h", Duration.ofHours(1)});

  /** Builds a {@link Key}. */
  static final class Builder<T> {
    private final String name;
    private final Class<T> type;
    private final Function<String, T> parser;
    private final String constraint;
    private String defaultText = "none";
    private T defaultValue;
    private String unit = "";
    private String doc = "";
    private Group group = Group.RARELY_USED;
    private Function<String, String> mask = Secrets::mask;
    private String nestedName;
    private boolean driverOnly;
    private List<String> words = List.of();

    private Builder(String name, Class<T> type, Function<String, T> parser, String constraint) {
      this.name = Objects.requireNonNull(name);
      this.type = type;
      this.parser = parser;
      this.constraint = constraint;
    }

    Builder<T> defaultValue(T value, String text) {
      this.defaultValue = value;
      this.defaultText = text;
      return this;
    }

    Builder<T> computedDefault(String text) {
      this.defaultText = text;
      return this;
    }

    Builder<T> unit(String unit) {
      this.unit = unit;
      return this;
    }

    Builder<T> doc(String doc) {
      this.doc = doc;
      return this;
    }

    Builder<T> group(Group group) {
      this.group = group;
      return this;
    }

    /** The spelling for nested YAML of a key that is also a prefix: see {@link #nestedName()}. */
    Builder<T> nested(String nestedName) {
      this.nestedName = nestedName;
      return this;
    }

    /** A word a number's key also takes: see {@link Key#words()}. */
    Builder<T> words(String... words) {
      this.words = List.of(words);
      return this;
    }

    /** Read by the JDBC driver alone: see {@link Key#driverOnly()}. */
    Builder<T> driverOnly() {
      this.driverOnly = true;
      return this;
    }

    Builder<T> secret(Function<String, String> mask) {
      this.mask = mask;
      return this;
    }

    Key<T> build() {
      return new Key<>(this);
    }
  }
}
