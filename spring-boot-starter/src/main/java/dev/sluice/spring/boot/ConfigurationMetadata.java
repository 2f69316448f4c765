package dev.sluice.spring.boot;

import dev.sluice.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Writes {@code META-INF/spring-configuration-metadata.json} from Sluice's own key table
 * ({@link Setting#all()}), so that IDEs complete and document every {@code sluice.*} key with its
 * default and values. Run by the build ({@code exec:java} in {@code process-classes}); the table
 * stays the one place a key is written.
 */
public final class ConfigurationMetadata {
  private static final String MAP = "java.util.Map<java.lang.String,java.lang.String>";

  private ConfigurationMetadata() {}

  /**
   * Writes the metadata file.
   *
   * @param args the output file
   * @throws IOException if it cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Files.createDirectories(out.getParent());
    Files.writeString(out, json(), StandardCharsets.UTF_8);
  }

  /** The metadata, as Spring Boot's configuration processor would write it. */
  static String json() {
    StringJoiner properties = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
    StringJoiner hints = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
    for (Setting setting : Setting.all()) {
      if (setting.driverOnly()) {
        continue; // the starter refuses it: see SluiceAutoConfiguration
      }
      properties.add(property(setting, setting.name()));
      setting.nestedName().ifPresent(nested -> properties.add(property(setting, nested)));
      List<String> values = hintValues(setting);
      if (!values.isEmpty()) {
        hints.add(hint(setting.name(), values));
        setting.nestedName().ifPresent(nested -> hints.add(hint(nested, values)));
      }
    }
    String group = "Sluice: caps the load on the database while the cache in front of it is down.";
    return "{\n  \"groups\": [{\"name\": \"sluice\", \"description\": " + Json.quote(group)
        + "}],\n  \"properties\": " + properties + ",\n  \"hints\": " + hints + "\n}\n";
  }

  private static String property(Setting setting, String spelled) {
    boolean perBean = spelled.contains("<");
    String name = perBean ? spelled.substring(0, spelled.indexOf(".<")) : spelled;
    String value = defaultValue(setting);
    String twin = spelled.equals(setting.name()) ? setting.nestedName().orElse(null)
        : setting.name();
    String description = setting.description().replace("`", "")
        + (value == null && !perBean ? " Default: " + setting.defaultText() + "." : "")
        + (twin == null ? "" : " Also written " + twin + " (" + (spelled.equals(setting.name())
            ? "the spelling nested YAML can hold beside the keys under it" : "the flat spelling")
            + "); give one of the two.");
    return "{\"name\": " + Json.quote(name) + ", \"type\": "
        + Json.quote(perBean ? MAP : setting.type().getName()) + ", \"description\": "
        + Json.quote(description) + (value == null ? "" : ", \"defaultValue\": " + value) + "}";
  }

  /** The default as a JSON value, or {@code null} when it is computed or there is none. */
  private static String defaultValue(Setting setting) {
    String text = setting.defaultText();
    Class<?> type = setting.type();
    if (type == Boolean.class && text.matches("true|false")
        || type == Integer.class && text.matches("\\d+")
        || type == Double.class && text.matches("\\d+(\\.\\d+)?")) {
      return text;
    }
    boolean plainValue = type == Duration.class && text.matches("\\d+(ms|s|m|h)")
        || setting.values().contains(text);
    return plainValue ? Json.quote(text) : null;
  }

  /** The values an IDE offers: a few words, or the word a number's key also takes. */
  private static List<String> hintValues(Setting setting) {
    return setting.values();
  }

  private static String hint(String name, List<String> values) {
    List<String> shown = new ArrayList<>();
    values.forEach(v -> shown.add("{\"value\": " + Json.quote(v) + "}"));
    return "{\"name\": " + Json.quote(name) + ", \"values\": ["
        + String.join(", ", shown) + "]}";
  }
}
