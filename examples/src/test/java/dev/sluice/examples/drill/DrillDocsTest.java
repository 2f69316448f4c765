package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The drill's {@code --help} and examples/README.md name the same flags and suggest the same. */
class DrillDocsTest {
  /** Surefire runs in the module's directory. */
  private static final Path README = Path.of("README.md");
  private static final Pattern DRILL_ARGS = Pattern.compile("-Ddrill=\"([^\"]*)\"");
  private static final Pattern TRY = Pattern.compile("try (--[a-z-]+ [^ ]+(?: --[a-z-]+ [^ ]+)*)");
  private static final Pattern TABLE_FLAG = Pattern.compile("^\\| `--([a-z-]+)", Pattern.MULTILINE);

  @Test
  void readme_flagTable_listsEveryFlagTheHelpLists() throws Exception {
    Set<String> inTable = new LinkedHashSet<>();
    Matcher m = TABLE_FLAG.matcher(Files.readString(README));
    while (m.find()) {
      inTable.add(m.group(1));
    }
    Set<String> known = new LinkedHashSet<>(Arrays.asList(DrillOptions.KNOWN));
    known.remove("help");

    assertThat(inTable).containsExactlyInAnyOrderElementsOf(known);
    for (String flag : known) {
      assertThat(DrillOptions.HELP).contains("--" + flag + " ");
    }
  }

  @Test
  void helpSuggestions_appearInTheReadme() throws Exception {
    String readme = Files.readString(README);
    List<String> suggested = new ArrayList<>();
    Matcher drill = DRILL_ARGS.matcher(DrillOptions.HELP);
    while (drill.find()) {
      suggested.add(drill.group(1));
    }
    Matcher tried = TRY.matcher(DrillOptions.HELP);
    while (tried.find()) {
      suggested.add(tried.group(1));
    }

    assertThat(suggested).hasSizeGreaterThanOrEqualTo(3);
    for (String flags : suggested) {
      assertThat(readme).as("--help suggests " + flags).contains(flags);
    }
  }

  @Test
  void readmeCommands_parse() throws Exception {
    for (Path doc : new Path[] {README, Path.of("..", "README.md")}) {
      Matcher m = DRILL_ARGS.matcher(Files.readString(doc));
      while (m.find()) {
        String flags = m.group(1);
        if (flags.equals("--skew 5") || flags.equals("...")) {
          continue; // the README's example of a bad value, and its placeholder
        }
        assertThatCode(() -> DrillOptions.parse(flags.trim().split("\\s+"), Path.of("x.svg")))
            .as(doc + ": " + flags).doesNotThrowAnyException();
      }
    }
  }
}
