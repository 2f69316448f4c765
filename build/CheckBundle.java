import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Checks that one published module's part of the release bundle is what Maven Central takes and
 * what a user can resolve: its jar with its sources and javadoc jars, and the POM it deploys.
 *
 * <p>Run by the {@code release} profile in the verify phase of every module that is deployed
 * ({@code maven.deploy.skip=false}), so the set of modules checked is the set published:
 *
 * <pre>
 * java build/CheckBundle.java POM TARGET_DIR ARTIFACT_ID VERSION PACKAGING PUBLISHED
 * </pre>
 *
 * where POM is the POM the module deploys (the flattened one), TARGET_DIR holds its archives, and
 * PUBLISHED lists, comma-separated, the artifact ids of {@code dev.sluice} that are published.
 *
 * <p>Faults found, each on a line of its own:
 * <ul>
 *   <li>for a jar module, a missing or empty {@code -sources.jar} (no {@code .java}),
 *       {@code -javadoc.jar} (no {@code index.html}) or main jar (no {@code .class}, or no
 *       {@code META-INF/LICENSE});</li>
 *   <li>a POM that keeps a {@code ${...}} property, names a parent or a {@code dev.sluice} artifact
 *       that is not published, lists modules, or lacks what Central requires (name, description,
 *       url, licence, developer, scm) or what users need (issue management).</li>
 * </ul>
 * Exit status 0 when there is none, 1 otherwise, 2 for a bad command line.
 */
public final class CheckBundle {

  private static final String GROUP = "dev.sluice";

  private final List<String> faults = new ArrayList<>();
  private final List<String> shipped = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: java CheckBundle.java POM TARGET_DIR ARTIFACT_ID VERSION PACKAGING"
          + " PUBLISHED (comma-separated artifact ids)");
      System.exit(2);
    }
    Path pom = Path.of(args[0]);
    Path target = Path.of(args[1]);
    String artifactId = args[2];
    String version = args[3];
    Set<String> published = Set.of(args[5].split(","));

    CheckBundle check = new CheckBundle();
    if (!published.contains(artifactId)) {
      check.faults.add(artifactId + " is deployed but not in the published list (" + args[5]
          + "): add it to sluice.published in the parent POM, or set maven.deploy.skip=true");
    }
    if (args[4].equals("jar")) {
      check.jars(target, artifactId + "-" + version);
    }
    check.pom(pom, artifactId, version, published);
    System.exit(check.report(artifactId + " " + version));
  }

  private int report(String what) {
    if (faults.isEmpty()) {
      System.out.println("CheckBundle: " + what + " is complete: " + String.join(", ", shipped));
      return 0;
    }
    faults.forEach(fault -> System.err.println("CheckBundle: " + what + ": " + fault));
    return 1;
  }

  // ---- the archives

  /** An entry a jar must hold: {@code what} names it in the fault. */
  private record Entry(String what, Predicate<String> matches) {}

  private void jars(Path target, String base) throws IOException {
    jar(target.resolve(base + ".jar"), new Entry("a .class file", name -> name.endsWith(".class")),
        new Entry("META-INF/LICENSE", name -> name.equals("META-INF/LICENSE")));
    jar(target.resolve(base + "-sources.jar"),
        new Entry("a .java file", name -> name.endsWith(".java")));
    jar(target.resolve(base + "-javadoc.jar"),
        new Entry("index.html", name -> name.equals("index.html")));
  }

  private void jar(Path jar, Entry... expected) throws IOException {
    if (!Files.isRegularFile(jar)) {
      faults.add(jar.getFileName() + " is missing (looked in " + jar.getParent() + ")");
      return;
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (Entry entry : expected) {
        if (zip.stream().map(ZipEntry::getName).noneMatch(entry.matches())) {
          faults.add(jar.getFileName() + " holds no " + entry.what());
        }
      }
    }
    shipped.add(jar.getFileName() + " (" + Files.size(jar) + " bytes)");
  }

  // ---- the POM

  private void pom(Path file, String artifactId, String version, Set<String> published)
      throws Exception {
    if (!Files.isRegularFile(file)) {
      faults.add(file.getFileName() + " is missing (looked in " + file.getParent() + "): without"
          + " the flattened POM, the one deployed would name the parent, which is never published");
      return;
    }
    Element pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile())
        .getDocumentElement();
    String where = file.getFileName().toString();
    unresolvedProperties(pom, where);
    expect(pom, where, artifactId, "artifactId");
    expect(pom, where, version, "version");
    for (String[] path : new String[][] {{"name"}, {"description"}, {"url"},
        {"licenses", "license", "name"}, {"licenses", "license", "url"},
        {"developers", "developer", "name"}, {"scm", "url"}, {"scm", "connection"},
        {"issueManagement", "url"}}) {
      if (text(pom, path).isBlank()) {
        faults.add(where + " has no " + String.join("/", path));
      }
    }
    Element parent = child(pom, "parent");
    if (parent != null) {
      reference(parent, where + " names the parent", published);
    }
    if (child(pom, "modules") != null) {
      faults.add(where + " lists modules: a published POM must not name the reactor's modules");
    }
    for (Element dependency : descendants(pom, "dependency")) {
      reference(dependency, where + " depends on", published);
    }
    shipped.add(where + " (" + Files.size(file) + " bytes)");
  }

  private void expect(Element pom, String where, String expected, String element) {
    String actual = text(pom, element);
    if (!actual.isEmpty() && !actual.equals(expected)) {
      faults.add(where + " has " + element + " " + actual + ", but the module is " + expected);
    }
  }

  private void reference(Element coordinates, String what, Set<String> published) {
    String groupId = text(coordinates, "groupId");
    String artifactId = text(coordinates, "artifactId");
    if (groupId.equals(GROUP) && !published.contains(artifactId)) {
      faults.add(what + " " + groupId + ":" + artifactId + ", which is never published");
    }
  }

  private void unresolvedProperties(Node node, String where) {
    if (node.getNodeType() == Node.TEXT_NODE && node.getNodeValue().contains("${")) {
      faults.add(where + " keeps an unresolved property in <" + node.getParentNode().getNodeName()
          + ">: " + node.getNodeValue().strip());
    }
    NamedNodeMap attributes = node.getAttributes();
    for (int i = 0; attributes != null && i < attributes.getLength(); i++) {
      Attr attribute = (Attr) attributes.item(i);
      if (attribute.getValue().contains("${")) {
        faults.add(where + " keeps an unresolved property in the attribute " + attribute.getName()
            + ": " + attribute.getValue());
      }
    }
    for (Node child = node.getFirstChild(); child != null; child = child.getNextSibling()) {
      unresolvedProperties(child, where);
    }
  }

  // ---- reading the DOM: direct children by tag name, as the POM's structure has them

  private static Element child(Element element, String name) {
    for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  private static String text(Element element, String... path) {
    Element at = element;
    for (String name : path) {
      at = at == null ? null : child(at, name);
    }
    return at == null ? "" : at.getTextContent().strip();
  }

  private static List<Element> descendants(Element element, String name) {
    List<Element> found = new ArrayList<>();
    var nodes = element.getElementsByTagName(name);
    for (int i = 0; i < nodes.getLength(); i++) {
      found.add((Element) nodes.item(i));
    }
    return found;
  }

  private CheckBundle() {}
}
