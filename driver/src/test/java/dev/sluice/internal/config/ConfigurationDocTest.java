package dev.sluice.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference, {@code docs/configuration.md}, is the key table, rendered: adding
 * a key to {@link Keys} without documenting it fails here. To regenerate the block after changing
 * the table, run
 * {@code mvn -pl driver -am test -Dtest=ConfigurationDocTest -Dsluice.readme.write=true}.
 */
class ConfigurationDocTest {
  static final Path REFERENCE = Path.of("..", "docs", "configuration.md");

  private static final String BEGIN =
      "<!-- keys:begin (generated from Keys.java by ConfigurationDocTest) -->";
  private static final String END = "<!-- keys:end -->";

  @Test
  void configurationReference_keysBlock_isExactlyTheKeyTable() throws IOException {
    String text = Files.readString(REFERENCE, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("docs/configuration.md has the keys block").isNotNegative();
    assertThat(end).isGreaterThan(begin);
    String rendered = render();
    if (Boolean.getBoolean("sluice.readme.write")) {
      text = text.substring(0, begin + BEGIN.length()) + "\n" + rendered + text.substring(end);
      Files.writeString(REFERENCE, text, StandardCharsets.UTF_8);
      return;
    }
    assertThat(text.substring(begin + BEGIN.length() + 1, end))
        .as("docs/configuration.md keys block; regenerate with -Dsluice.readme.write=true")
        .isEqualTo(rendered);
  }

  @Test
  void readme_essentialKeys_areKeysOfTheTable() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    int mentioned = 0;
    for (Key<?> key : Keys.ALL) {
      if (key.group() == Key.Group.ESSENTIALS) {
        assertThat(readme).as("README.md names the essential key " + key.name())
            .contains("`" + key.name() + "`");
        mentioned++;
      }
    }
    assertThat(mentioned).isPositive();
  }

  static String render() {
    StringBuilder out = new StringBuilder();
    for (Key.Group group : Key.Group.values()) {
      out.append("\n#### ").append(title(group)).append("\n\n")
          .append("| key | meaning | default | unit / values |\n")
          .append("|---|---|---|---|\n");
      for (Key<?> key : Keys.ALL) {
        if (key.group() == group) {
          out.append("| `").append(key.name()).append('`')
              .append(key.nestedName() == null ? "" : "<br>nested: `" + key.nestedName() + "`")
              .append(" | ").append(key.doc()).append(" | ")
              .append(key.defaultText()).append(" | ")
              .append(key.unit().isEmpty() ? "must " + key.constraint() : key.unit()
                  + "; must " + key.constraint())
              .append(" |\n");
        }
      }
    }
    return out.append("\n").toString();
  }

  private static String title(Key.Group group) {
    String words = group.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    return Character.toUpperCase(words.charAt(0)) + words.substring(1);
  }
}
