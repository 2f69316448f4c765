package dev.sluice.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link and {@code #anchor} in the repository's Markdown points at a file that
 * exists and, for an anchor into a Markdown file, at a heading it has. Anchors are GitHub's: the
 * heading's text as rendered, lower-cased, without punctuation but {@code -} and {@code _}, spaces
 * made {@code -}, and a repeated one suffixed {@code -1}, {@code -2}… External links ({@code
 * http:}, {@code https:}, {@code mailto:}) are not fetched. Links inside code (fenced blocks and
 * {@code `spans`}) are not links. Run alone: {@code mvn -pl driver -am test -Dtest=DocLinksTest}.
 */
class DocLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** {@code [text](target)} and {@code ![alt](target)}; the target may carry a title. */
  private static final Pattern INLINE = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]"
      + "\\(\\s*(<[^>]*>|[^\\s)]*)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");
  /** {@code [label]: target}, a reference definition. */
  private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*(\\S+)");
  /** {@code id="x"} or {@code name="x"} of an HTML anchor written into the Markdown. */
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s[^>]*(?:id|name)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
  private static final Pattern ATX = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?[ \\t]*$");
  private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  @Test
  void repository_markdownLinks_allResolve() throws IOException {
    List<Path> files = markdownFiles(ROOT);
    assertThat(files).as("Markdown files under " + ROOT)
        .contains(ROOT.resolve("README.md"), ROOT.resolve("docs/configuration.md"));

    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path file : files) {
      for (Link link : links(Files.readString(file, StandardCharsets.UTF_8))) {
        String problem = problem(file, link.target(), anchors);
        checked++;
        if (problem != null) {
          broken.add(ROOT.relativize(file) + ":" + link.line() + ": (" + link.target() + ") "
              + problem);
        }
      }
    }
    assertThat(checked).as("links checked").isGreaterThan(10);
    assertThat(broken).as("broken relative links or anchors").isEmpty();
  }

  @Test
  void slug_followsGitHub() {
    assertThat(slugs("# Transactions: the door, and the Hibernate trap"))
        .containsExactly("transactions-the-door-and-the-hibernate-trap");
    assertThat(slugs("### Full pass, `benchmarks/run.sh --full`"))
        .containsExactly("full-pass-benchmarksrunsh---full");
    assertThat(slugs("## The adaptive concurrency cap (issue 14)"))
        .containsExactly("the-adaptive-concurrency-cap-issue-14");
    assertThat(slugs("## [Unreleased]\n## Configure **by** [URL](x.md) ##"))
        .containsExactly("unreleased", "configure-by-url");
    assertThat(slugs("## Recovery — what `sluice_x` holds\n"))
        .containsExactly("recovery--what-sluice_x-holds");
  }

  @Test
  void slug_repeatedHeadings_getNumberedSuffixes() {
    assertThat(slugs("## Added\n## Fixed\n## Added\n## Added"))
        .containsExactly("added", "fixed", "added-1", "added-2");
  }

  @Test
  void headings_insideFencedCode_areNotHeadings() {
    assertThat(slugs("# Real\n```bash\n# a shell comment\n```\n~~~\n## nor this\n~~~\n## Also"))
        .containsExactly("real", "also");
  }

  @Test
  void links_insideCode_areNotLinks_andTitlesAreDropped() {
    List<String> targets = links("see [a](docs/a.md \"A\") and `[b](nope.md)`\n"
        + "```\n[c](nope.md)\n```\n![d](<img one.svg>)\n[e]: ref.md\n")
        .stream().map(Link::target).collect(Collectors.toList());

    assertThat(targets).containsExactly("docs/a.md", "img one.svg", "ref.md");
  }

  @Test
  void problem_missingFileOrHeading_isNamed_externalIsNot(@TempDir Path dir) throws IOException {
    Path doc = dir.resolve("doc.md");
    Files.writeString(doc, "# Title\n## Part two\n");
    Path other = dir.resolve("other.md");
    Map<Path, Set<String>> anchors = new HashMap<>();

    assertThat(problem(other, "doc.md#part-two", anchors)).isNull();
    assertThat(problem(other, "./doc.md", anchors)).isNull();
    assertThat(problem(doc, "#title", anchors)).isNull();
    assertThat(problem(other, "https://example.com/none.md#nothing", anchors)).isNull();
    assertThat(problem(other, "gone.md", anchors)).contains("no file");
    assertThat(problem(other, "doc.md#part-three", anchors))
        .contains("no heading").contains("part-three");
    assertThat(problem(doc, "#", anchors)).isNull();
  }

  /** The tracked-looking Markdown: no build output, no hidden directories. */
  static List<Path> markdownFiles(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
          .filter(p -> !hidden(root.relativize(p).getParent()))
          .sorted().collect(Collectors.toList());
    }
  }

  /** Whether a directory is build output, hidden or a dependency cache. */
  private static boolean hidden(Path directory) {
    if (directory == null) {
      return false;
    }
    for (Path part : directory) {
      String name = part.toString();
      if (name.startsWith(".") || name.equals("target") || name.equals("node_modules")) {
        return true;
      }
    }
    return false;
  }

  /** What is wrong with {@code target} linked from {@code from}, or {@code null}. */
  static String problem(Path from, String target, Map<Path, Set<String>> anchors) {
    if (SCHEME.matcher(target).find() || target.startsWith("//")) {
      return null; // external: not fetched
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : decode(target.substring(hash + 1));
    int query = path.indexOf('?');
    path = decode(query < 0 ? path : path.substring(0, query));
    Path file = path.isEmpty() ? from
        : path.startsWith("/") ? ROOT.resolve(path.substring(1)).normalize()
        : from.getParent().resolve(path).normalize();
    if (!Files.exists(file)) {
      return "no file " + (file.startsWith(ROOT) ? ROOT.relativize(file) : file);
    }
    if (anchor == null || anchor.isEmpty() || !file.toString().endsWith(".md")) {
      return null;
    }
    Set<String> known = anchors.computeIfAbsent(file, DocLinksTest::anchorsOf);
    return known.contains(anchor) ? null
        : "no heading with the anchor #" + anchor + " in " + file.getFileName();
  }

  private static Set<String> anchorsOf(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      Set<String> all = new LinkedHashSet<>(slugs(text));
      Matcher html = HTML_ANCHOR.matcher(text);
      while (html.find()) {
        all.add(html.group(1));
      }
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The anchors GitHub gives the headings of {@code markdown}, in order. */
  static List<String> slugs(String markdown) {
    List<String> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : outsideFences(markdown)) {
      Matcher heading = line == null ? null : ATX.matcher(line);
      if (heading == null || !heading.matches()) {
        continue;
      }
      String text = heading.group(2) == null ? "" : heading.group(2);
      text = text.replaceAll("[ \\t]+#+$", "").replaceAll("^#+$", "");
      String base = slug(rendered(text));
      Integer count = seen.get(base);
      seen.put(base, count == null ? 1 : count + 1);
      out.add(count == null ? base : base + "-" + count);
    }
    return out;
  }

  /** A heading's text as GitHub renders it: no link targets, code marks, emphasis or tags. */
  private static String rendered(String text) {
    return text.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
        .replaceAll("<[^>]+>", "")
        .replace("`", "")
        .replace("*", "");
  }

  private static String slug(String text) {
    StringBuilder out = new StringBuilder();
    text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
      int type = Character.getType(c);
      if (c == ' ') {
        out.append('-');
      } else if (c == '-' || Character.isLetterOrDigit(c)
          || type == Character.CONNECTOR_PUNCTUATION || type == Character.NON_SPACING_MARK
          || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK
          || type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER) {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  /** A link found in Markdown: its target and its line, from 1. */
  record Link(String target, int line) {}

  /** The links of {@code markdown}, outside code blocks and code spans. */
  static List<Link> links(String markdown) {
    List<Link> out = new ArrayList<>();
    List<String> lines = outsideFences(markdown);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line == null) {
        continue;
      }
      line = line.replaceAll("(`+)(?:(?!\\1).)+?\\1", ""); // code spans on one line
      Matcher inline = INLINE.matcher(line);
      while (inline.find()) {
        String target = inline.group(1);
        if (target.startsWith("<") && target.endsWith(">")) {
          target = target.substring(1, target.length() - 1);
        }
        out.add(new Link(target, i + 1));
      }
      Matcher reference = REFERENCE.matcher(line);
      if (reference.find()) {
        out.add(new Link(reference.group(1), i + 1));
      }
    }
    return out;
  }

  /** The lines of {@code markdown}, {@code null} for those in fenced code blocks. */
  private static List<String> outsideFences(String markdown) {
    List<String> out = new ArrayList<>();
    String fence = null;
    for (String raw : markdown.split("\n", -1)) {
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      Matcher open = FENCE.matcher(line);
      if (fence == null && open.find()) {
        fence = open.group(1);
        out.add(null);
      } else if (fence != null) {
        String trimmed = line.strip();
        char mark = fence.charAt(0);
        if (trimmed.startsWith(fence) && trimmed.chars().allMatch(c -> c == mark)) {
          fence = null;
        }
        out.add(null);
      } else {
        out.add(line);
      }
    }
    return out;
  }

  private static String decode(String s) {
    return s.indexOf('%') < 0 ? s : URLDecoder.decode(s.replace("+", "%2B"),
        StandardCharsets.UTF_8);
  }
}
