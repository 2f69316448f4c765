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
      properties.add(property(setting));
      if (!setting.values().isEmpty()) {
        hints.add(hint(setting));
      }
    }
    String group = "Sluice: caps the load on the database while the cache in front of it is down.";
    return "{\n  \"groups\": [{\"name\": \"sluice\", \"description\": " + Json.quote(group)
        + "}],\n  \"properties\": " + properties + ",\n  \"hints\": " + hints + "\n}\n";
  }

  private static String property(Setting setting) {
    boolean perBean = setting.name().contains("<");
    String name = perBean ? setting.name().substring(0, setting.name().indexOf(".<"))
        : setting.name();
    String value = defaultValue(setting);
    String description = setting.description().replace("`", "")
        + (value == null && !perBean ? " Default: " + setting.defaultText() + "." : "");
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

  private static String hint(Setting setting) {
    List<String> values = new ArrayList<>();
    setting.values().forEach(v -> values.add("{\"value\": " + Json.quote(v) + "}"));
    return "{\"name\": " + Json.quote(setting.name()) + ", \"values\": ["
        + String.join(", ", values) + "]}";
  }
}
