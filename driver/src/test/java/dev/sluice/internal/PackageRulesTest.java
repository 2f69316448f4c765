package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rules of the house, read from the sources (see {@code docs/architecture.md}): the internal
 * packages lean on the API package only through its interfaces, enums, records and exceptions;
 * they form no cycle among themselves, nor do the classes of {@code internal.jdbc}; and only
 * {@code internal.redis} talks to Jedis.
 */
class PackageRulesTest {
  private static final Path MAIN = Path.of("src", "main", "java");
  private static final Path INTERNAL = MAIN.resolve(Path.of("dev", "sluice", "internal"));
  private static final Pattern API_TYPE = Pattern.compile("\\bdev\\.sluice\\.([A-Z]\\w*)");
  private static final Pattern INTERNAL_PACKAGE =
      Pattern.compile("\\bdev\\.sluice\\.internal\\.([a-z]+)\\b");

  @Test
  void internals_useTheApiPackageOnlyThroughInterfacesEnumsRecordsAndExceptions()
      throws ClassNotFoundException {
    List<String> violations = new ArrayList<>();
    for (Path source : sources(INTERNAL)) {
      Matcher m = API_TYPE.matcher(code(source));
      while (m.find()) {
        Class<?> type = Class.forName("dev.sluice." + m.group(1));
        if (!(type.isInterface() || type.isEnum() || type.isRecord()
            || Throwable.class.isAssignableFrom(type))) {
          violations.add(MAIN.relativize(source) + " uses the class " + type.getName());
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  /**
   * The API types the internals use import no internal type: so no class cycle runs through the
   * API and an internal package (0.2 had two: {@code Priority} read its thread-local from
   * {@code Limiter}, and {@code RateLimitExceededException} held the limiter's exception factory).
   */
  @Test
  void apiTypesTheInternalsUse_importNothingInternal() throws IOException {
    Set<String> used = new TreeSet<>();
    for (Path source : sources(INTERNAL)) {
      Matcher m = API_TYPE.matcher(code(source));
      while (m.find()) {
        used.add(m.group(1));
      }
    }
    assertThat(used).as("the API types the internals use").contains("Priority",
        "RateLimitExceededException", "BreakerFlag");
    List<String> violations = new ArrayList<>();
    for (String type : used) {
      Path source = MAIN.resolve(Path.of("dev", "sluice", type + ".java"));
      Matcher m = INTERNAL_PACKAGE.matcher(code(source));
      if (m.find()) {
        violations.add(type + " uses dev.sluice.internal." + m.group(1));
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void internalPackages_formNoCycle() {
    Map<String, Set<String>> uses = internalPackageGraph();
    assertThat(uses).as("the internal packages").containsKeys("config", "jdbc", "limit", "redis");
    for (String from : uses.keySet()) {
      assertThat(reachable(uses, from)).as("what %s reaches: %s", from, uses).doesNotContain(from);
    }
  }

  /**
   * The limiter knows nothing of answers: it returns a verdict, the read's wrapper asks the
   * answers, and the composition root wires what follows limiting (issue 37's one door).
   */
  @Test
  void theLimitPackage_knowsNothingOfAnswers() {
    assertThat(internalPackageGraph().get("limit")).as("what internal.limit uses")
        .doesNotContain("answer");
  }

  /**
   * The settings' map stops where the settings are composed: each room past it is given a typed
   * record ({@code LimitSettings}, {@code AnswerSettings}, {@code FlagReader.Timing}), built by
   * the API package's builders and {@code Enforcer} (issue 37, item 4). Only those, and the
   * parsers of {@code internal.config} and {@code internal.driver} that fill the map, name it.
   */
  @Test
  void theSettingsMap_isReadOnlyWhereSettingsAreComposed() {
    List<String> readers = new ArrayList<>();
    for (Path source : sources(INTERNAL)) {
      String room = INTERNAL.relativize(source).getName(0).toString();
      if (!room.equals("config") && !room.equals("driver")
          && Pattern.compile("\\bSettings\\b").matcher(code(source)).find()) {
        readers.add(MAIN.relativize(source).toString());
      }
    }
    assertThat(readers).as("internal rooms that name the settings' map").isEmpty();
  }

  @Test
  void onlyTheRedisPackage_importsJedis() {
    List<String> importers = new ArrayList<>();
    for (Path source : sources(MAIN.resolve("dev"))) {
      if (code(source).contains("redis.clients.")
          && !source.startsWith(INTERNAL.resolve("redis"))) {
        importers.add(MAIN.relativize(source).toString());
      }
    }
    assertThat(importers).isEmpty();
  }

  @Test
  void theCycleCheck_findsACycle() {
    Map<String, Set<String>> cyclic = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"));
    assertThat(reachable(cyclic, "a")).contains("a");
    assertThat(reachable(Map.of("a", Set.of("b"), "b", Set.of()), "a")).doesNotContain("a");
  }

  private static Map<String, Set<String>> internalPackageGraph() {
    Map<String, Set<String>> uses = new TreeMap<>();
    for (Path source : sources(INTERNAL)) {
      String from = INTERNAL.relativize(source).getName(0).toString();
      Set<String> targets = uses.computeIfAbsent(from, k -> new TreeSet<>());
      Matcher m = INTERNAL_PACKAGE.matcher(code(source));
      while (m.find()) {
        if (!m.group(1).equals(from)) {
          targets.add(m.group(1));
        }
      }
    }
    return uses;
  }

  private static Set<String> reachable(Map<String, Set<String>> uses, String from) {
    Set<String> seen = new TreeSet<>();
    List<String> next = new ArrayList<>(uses.getOrDefault(from, Set.of()));
    while (!next.isEmpty()) {
      String p = next.remove(next.size() - 1);
      if (seen.add(p)) {
        next.addAll(uses.getOrDefault(p, Set.of()));
      }
    }
    return seen;
  }

  private static List<Path> sources(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The source without its comments and strings: a {@code {@link}} in javadoc, or a logger's
   * name, is no dependency.
   */
  private static String code(Path source) {
    try {
      return Files.readString(source).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "")
          .replaceAll("\"(?:[^\"\\\\\n]|\\\\.)*\"", "\"\"");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
