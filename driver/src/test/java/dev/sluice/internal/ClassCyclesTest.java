package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitedDataSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No circle of classes in the driver (issue 23): the JDK's {@code jdeps -verbose:class} reads the
 * compiled main classes, each nested class (and local or anonymous one) is folded into its
 * top-level class, and no two top-level classes of {@code dev.sluice} may depend on each other,
 * however indirectly. A failure lists each cycle, its classes and the edges among them.
 *
 * <p>Reading the class files, not the sources, catches what imports do not show: a class of the
 * same package, a class literal given to a logger, the subclasses a {@code sealed} class names.
 * The usual cures are in {@code docs/architecture.md} ("The rules").
 */
class ClassCyclesTest {

  /** A line of {@code jdeps -verbose:class}: {@code   <from> -> <to>   <where>}. */
  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)");
  private static final String OURS = "dev.sluice.";

  @Test
  void mainClasses_foldedIntoTopLevelClasses_formNoCycle() throws IOException {
    Map<String, Set<String>> uses = graph(jdeps(mainClasses()));
    assertThat(uses).as("the classes jdeps read").containsKeys("dev.sluice.RateLimitedDataSource",
        "dev.sluice.internal.limit.Limiter", "dev.sluice.internal.config.Keys");

    List<String> cycles = cycles(uses).stream().map(cycle -> describe(cycle, uses))
        .collect(Collectors.toList());

    assertThat(cycles).as("class cycles, nested classes folded into their top-level class")
        .isEmpty();
  }

  /** The measure itself can fail: a circle in jdeps' output is found and named with its edges. */
  @Test
  void cycles_circleInJdepsOutput_isFoundWithItsEdges() {
    String output = String.join("\n",
        "classes -> java.base",
        "   dev.sluice.A                  -> dev.sluice.B$Inner            classes",
        "   dev.sluice.A$1                -> java.lang.Object              java.base",
        "   dev.sluice.B$Inner            -> dev.sluice.C                  classes",
        "   dev.sluice.C                  -> dev.sluice.A                  classes",
        "   dev.sluice.C                  -> dev.sluice.D                  classes",
        "   dev.sluice.D                  -> dev.sluice.D$Nested           classes",
        "   dev.sluice.internal.jdbc.X    -> dev.sluice.internal.jdbc.Y    classes",
        "   dev.sluice.internal.jdbc.Y    -> dev.sluice.internal.jdbc.X    classes");
    Map<String, Set<String>> uses = graph(output);

    List<Set<String>> cycles = cycles(uses);

    assertThat(cycles).containsExactlyInAnyOrder(
        Set.of("dev.sluice.A", "dev.sluice.B", "dev.sluice.C"),
        Set.of("dev.sluice.internal.jdbc.X", "dev.sluice.internal.jdbc.Y"));
    assertThat(cycles.stream().map(cycle -> describe(cycle, uses)))
        .contains("3 classes: A B C\n    A -> B\n    B -> C\n    C -> A");
  }

  /** The directory the main classes were loaded from: {@code target/classes} under Maven. */
  private static Path mainClasses() {
    try {
      Path location = Path.of(RateLimitedDataSource.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
      assertThat(location).as("the main classes' location").isDirectory();
      return location;
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs jdeps on a copy of {@code classes} without {@code module-info.class}: read as a module,
   * the classes would need every module it requires on jdeps' path.
   */
  private static String jdeps(Path classes) throws IOException {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps")
        .orElseThrow(() -> new IllegalStateException("no jdeps: run the tests on a JDK"));
    Path copy = Files.createTempDirectory("sluice-classes");
    try {
      copyClasses(classes, copy);
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class",
          "-filter:none", copy.toString());
      assertThat(status).as("jdeps' exit status; it said: %s", err).isZero();
      return out.toString();
    } finally {
      delete(copy);
    }
  }

  private static void copyClasses(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)
          .filter(f -> f.toString().endsWith(".class"))
          .filter(f -> !f.getFileName().toString().equals("module-info.class"))::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> {
        try {
          Files.delete(f);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  /**
   * Which top-level class of {@code dev.sluice} uses which, from jdeps' output: a nested class
   * counts as its top-level class, and a class's use of itself is no edge.
   */
  static Map<String, Set<String>> graph(String jdepsOutput) {
    Map<String, Set<String>> uses = new TreeMap<>();
    for (String line : jdepsOutput.split("\\R")) {
      Matcher m = EDGE.matcher(line);
      if (!m.find()) {
        continue;
      }
      String from = topLevel(m.group(1));
      String to = topLevel(m.group(2));
      if (from.startsWith(OURS) && to.startsWith(OURS)) {
        Set<String> targets = uses.computeIfAbsent(from, k -> new TreeSet<>());
        if (!from.equals(to)) {
          targets.add(to);
        }
      }
    }
    return uses;
  }

  private static String topLevel(String className) {
    int dollar = className.indexOf('$');
    return dollar < 0 ? className : className.substring(0, dollar);
  }

  /** The strongly connected components of more than one class (Tarjan's algorithm). */
  static List<Set<String>> cycles(Map<String, Set<String>> uses) {
    return new Tarjan(uses).run();
  }

  /** {@code 3 classes: A B C}, then each class's edges within the cycle, one line each. */
  private static String describe(Set<String> cycle, Map<String, Set<String>> uses) {
    StringBuilder text = new StringBuilder(cycle.size() + " classes:");
    cycle.forEach(c -> text.append(' ').append(shortName(c)));
    for (String from : cycle) {
      text.append("\n    ").append(shortName(from)).append(" ->");
      uses.getOrDefault(from, Set.of()).stream().filter(cycle::contains)
          .forEach(to -> text.append(' ').append(shortName(to)));
    }
    return text.toString();
  }

  private static String shortName(String className) {
    return className.substring(OURS.length());
  }

  /** Tarjan's strongly connected components, over a sorted graph so the report is stable. */
  private static final class Tarjan {
    private final Map<String, Set<String>> uses;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new TreeSet<>();
    private final List<Set<String>> found = new ArrayList<>();

    Tarjan(Map<String, Set<String>> uses) {
      this.uses = uses;
    }

    List<Set<String>> run() {
      for (String v : uses.keySet()) {
        if (!index.containsKey(v)) {
          visit(v);
        }
      }
      return found;
    }

    private void visit(String v) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      onStack.add(v);
      for (String w : uses.getOrDefault(v, Set.of())) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          found.add(component);
        }
      }
    }
  }
}
