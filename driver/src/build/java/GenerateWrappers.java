import com.sun.source.tree.AnnotatedTypeTree;
import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Writes, at build time, the final JDBC wrapper classes Sluice hands out. Maven runs it in
 * {@code generate-sources} (see {@code driver/pom.xml}) as a single-file program:
 *
 * <pre>java GenerateWrappers.java ConnectionWrapper.java target/generated-sources/jdbc-wrappers</pre>
 *
 * <p>{@code ConnectionWrapper.java} and the files beside it hold, as abstract classes, the
 * methods Sluice intercepts. For each of them ({@link #LEAVES}) this writes a final class that
 * extends it and implements every other method of its JDBC interface, default methods included,
 * as a plain call to the driver's object: {@code return delegate.m(a0, a1);}. A method returning
 * one of {@link #WRAPPED} returns {@code wrap(delegate.m(...))} instead, a {@code wrap} overload
 * the hand-written class declares (if it declares none for that type, the generated class does
 * not compile: wrapping is never forgotten silently).
 *
 * <p>A method returning one of {@link #PREPARED_FROM_TEXT} passes its SQL too:
 * {@code wrap(a0, delegate.prepareStatement(a0, a1))}. Every class gets the same
 * {@code unwrap}, {@code isWrapperFor} and {@code toString}, calls to the statics of
 * {@code Wrappers.java} ({@link #ALIKE}).
 *
 * <p>One family is generated differently: the gated {@code execute*} methods listed in
 * {@link #GATED} are written from one template, {@link #gated}, which reports the statement to
 * the connection before the driver runs it and reports back exactly once on every way out. They
 * are the only generated methods that do more than pass a call on.
 *
 * <p>The interfaces are read with {@code javax.lang.model} under {@code --release 17}, so the
 * classes implement the JDBC API Sluice compiles against whatever JDK runs the build. Which
 * methods are hand-written is read from the file's syntax tree (name and erased parameter types;
 * no symbol needs to resolve, so the file can name the classes written here). Every hand-written
 * method of the interface must be {@code final}: a mismatch in that reading then fails the build
 * instead of replacing a gated method with a plain delegation. Output files are rewritten only
 * when their text changes, so an unchanged build stays incremental.
 */
public final class GenerateWrappers {
  /** A class to write: its name, the hand-written class it completes, and how it reaches the driver. */
  record Leaf(String name, String base, String iface, String delegate) {}

  static final List<Leaf> LEAVES = List.of(
      new Leaf("GeneratedConnection", "ConnectionWrapper", "java.sql.Connection", "delegate"),
      new Leaf("GeneratedStatement", "StatementWrapper", "java.sql.Statement", "delegate"),
      new Leaf("GeneratedPreparedStatement", "PreparedStatementWrapper",
          "java.sql.PreparedStatement", "prepared()"),
      new Leaf("GeneratedCallableStatement", "CallableStatementWrapper",
          "java.sql.CallableStatement", "callable()"),
      new Leaf("GeneratedResultSet", "ResultSetWrapper", "java.sql.ResultSet", "delegate"),
      new Leaf("GeneratedDatabaseMetaData", "DatabaseMetaDataWrapper",
          "java.sql.DatabaseMetaData", "delegate"));

  /** Return types that must never reach the caller unwrapped: they lead back to the driver. */
  static final Set<String> WRAPPED = Set.of("java.sql.Connection", "java.sql.Statement",
      "java.sql.PreparedStatement", "java.sql.CallableStatement", "java.sql.ResultSet",
      "java.sql.DatabaseMetaData");

  /**
   * Of {@link #WRAPPED}, the statements prepared from SQL text (their first argument): they
   * return {@code wrap(a0, delegate.m(a0, ...))}, so that the wrapper knows its SQL, the shape of
   * its latency samples.
   */
  static final Set<String> PREPARED_FROM_TEXT = Set.of("java.sql.PreparedStatement",
      "java.sql.CallableStatement");

  /**
   * What every wrapper answers alike, as a call to a static of {@link #ALIKE_HOME}
   * ({@code unwrap} to the wrapper first, then to the driver's object); each class also gets
   * a {@code toString} of {@code describe(this, delegate)}. {@code delegate} is a field of every
   * hand-written class.
   */
  static final Map<String, String> ALIKE = Map.of(
      "unwrap(Class)", "unwrap(this, delegate, a0)",
      "isWrapperFor(Class)", "isWrapperFor(this, delegate, a0)");

  /**
   * The hand-written class whose statics {@link #ALIKE} calls: one that knows no wrapper, so
   * that calling it from every generated class closes no circle of classes.
   */
  static final String ALIKE_HOME = "Wrappers";

  /** {@code ConnectionWrapper.java}: the package. */
  private final CompilationUnitTree unit;
  private final Map<String, ClassTree> classes = new LinkedHashMap<>();
  /** The file each hand-written class is in. */
  private final Map<String, CompilationUnitTree> homes = new LinkedHashMap<>();
  private final Elements elements;
  private final Types types;

  private GenerateWrappers(List<CompilationUnitTree> units, Elements elements, Types types) {
    this.unit = units.get(0);
    this.elements = elements;
    this.types = types;
    for (CompilationUnitTree each : units) {
      collect(each, each.getTypeDecls());
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException(
          "usage: java GenerateWrappers.java <ConnectionWrapper.java> <output directory>");
    }
    Path source = Path.of(args[0]);
    Path output = Path.of(args[1]);
    // the hand-written wrappers: ConnectionWrapper.java first, then its siblings
    List<Path> sources = new ArrayList<>(List.of(source));
    try (Stream<Path> siblings = Files.list(source.toAbsolutePath().getParent())) {
      siblings.filter(p -> p.toString().endsWith(".java") && !p.getFileName().equals(
          source.getFileName())).sorted().forEach(sources::add);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> ignored = new DiagnosticCollector<>();
    StandardJavaFileManager files =
        javac.getStandardFileManager(ignored, null, StandardCharsets.UTF_8);
    JavacTask task = (JavacTask) javac.getTask(null, files, ignored,
        List.of("--release", "17", "-proc:none"), null,
        files.getJavaFileObjects(sources.toArray(new Path[0])));
    List<CompilationUnitTree> units = new ArrayList<>();
    task.parse().forEach(units::add);
    CompilationUnitTree unit = units.get(0);
    GenerateWrappers generator = new GenerateWrappers(units, task.getElements(), task.getTypes());
    Path dir = output.resolve(unit.getPackageName().toString().replace('.', '/'));
    Files.createDirectories(dir);
    Set<Path> written = new HashSet<>();
    int lines = 0;
    for (Leaf leaf : LEAVES) {
      String text = generator.write(leaf);
      Path file = dir.resolve(leaf.name() + ".java");
      if (!Files.exists(file) || !Files.readString(file).equals(text)) {
        Files.writeString(file, text);
      }
      written.add(file);
      lines += text.split("\n", -1).length - 1;
    }
    generator.checkEveryGateMatched();
    Path answers = output.resolve("dev/sluice/internal/answer");
    Files.createDirectories(answers);
    Path base = answers.resolve("ResultSetBase.java");
    String refusing = generator.refusingResultSet();
    if (!Files.exists(base) || !Files.readString(base).equals(refusing)) {
      Files.writeString(base, refusing);
    }
    try (Stream<Path> old = Files.list(dir)) {
      for (Path stale : old.filter(p -> !written.contains(p)).collect(Collectors.toList())) {
        Files.delete(stale);
      }
    }
    if (!mavenIsQuiet(System.getenv("MAVEN_CMD_LINE_ARGS"))) {
      System.out.println("GenerateWrappers: " + LEAVES.size() + " classes, " + lines
          + " lines in " + dir);
    }
  }

  /**
   * Whether the Maven that runs this was told {@code -q} / {@code --quiet}: the {@code mvn} script
   * exports its command line as {@code MAVEN_CMD_LINE_ARGS}, and a quiet build prints nothing of
   * ours. Run by hand (no such variable), it reports what it wrote.
   */
  static boolean mavenIsQuiet(String commandLine) {
    if (commandLine == null) {
      return false;
    }
    for (String arg : commandLine.trim().split("\\s+")) {
      if (arg.equals("-q") || arg.equals("--quiet")) {
        return true;
      }
    }
    return false;
  }

  private void collect(CompilationUnitTree home, List<? extends Tree> trees) {
    for (Tree tree : trees) {
      if (tree instanceof ClassTree) {
        ClassTree type = (ClassTree) tree;
        classes.put(type.getSimpleName().toString(), type);
        homes.put(type.getSimpleName().toString(), home);
        collect(home, type.getMembers());
      }
    }
  }

  /** The first class a file declares: the one its name says. */
  private static String topLevel(CompilationUnitTree file) {
    return file.getTypeDecls().stream().filter(t -> t instanceof ClassTree)
        .map(t -> ((ClassTree) t).getSimpleName().toString()).findFirst().orElseThrow();
  }

  /** The source of {@code leaf}. */
  private String write(Leaf leaf) {
    ClassTree base = classes.get(leaf.base());
    if (base == null) {
      throw fail(leaf.base() + " must be a class of " + unit.getSourceFile().getName()
          + " or a file beside it, but was not found");
    }
    CompilationUnitTree home = homes.get(leaf.base());
    Map<String, MethodTree> handWritten = handWritten(base);
    TypeElement iface = elements.getTypeElement(leaf.iface());
    StringBuilder out = new StringBuilder();
    out.append("// Generated by driver/src/build/java/GenerateWrappers.java from ")
        .append(Path.of(home.getSourceFile().getName()).getFileName()).append(": do not edit.\n")
        .append("package ").append(unit.getPackageName()).append(";\n\n");
    for (ImportTree anImport : home.getImports()) {
      if (!anImport.isStatic()) {
        out.append("import ").append(anImport.getQualifiedIdentifier()).append(";\n");
      }
    }
    if (!classes.containsKey(ALIKE_HOME)) {
      throw fail(ALIKE_HOME + " must be a class of a file beside "
          + unit.getSourceFile().getName() + ", but was not found");
    }
    String outer = ALIKE_HOME; // the statics every wrapper calls
    String homeClass = topLevel(home);
    String superclass = leaf.base().equals(homeClass) ? homeClass
        : homeClass + "." + leaf.base();
    out.append("\n/**\n * The {@link ").append(iface.getSimpleName()).append("} Sluice hands out: ")
        .append("what {@link ").append(superclass).append("}\n")
        .append(" * intercepts, and every other method passed on to the driver's object.\n */\n")
        .append("final class ").append(leaf.name()).append(" extends ").append(superclass)
        .append(" {\n");
    for (Tree member : base.getMembers()) {
      if (member instanceof MethodTree && ((MethodTree) member).getName().contentEquals("<init>")) {
        constructor(out, leaf, (MethodTree) member);
      }
    }
    int delegated = 0;
    for (ExecutableElement method : methodsOf(iface)) {
      MethodTree own = handWritten.get(key(method));
      Gate gate = gateOf(method);
      if (gate != null) {
        if (own != null) {
          throw fail(leaf.base() + "." + key(method) + " is written by hand and listed in GATED:"
              + " it must be one or the other");
        }
        gated(out, leaf, method, gate);
      } else if (own == null && ALIKE.containsKey(key(method))) {
        signature(out, method);
        out.append(" {\n    return ").append(outer).append('.').append(ALIKE.get(key(method)))
            .append(";\n  }\n");
      } else if (own == null) {
        delegate(out, leaf, method);
        delegated++;
      } else if (!own.getModifiers().getFlags().contains(Modifier.FINAL)) {
        throw fail(leaf.base() + "." + key(method) + " must be final, so that no generated"
            + " method can replace it, but was not");
      }
    }
    if (!handWritten.containsKey("toString()")) {
      out.append("\n  @Override\n  public String toString() {\n    return ").append(outer)
          .append(".describe(this, delegate);\n  }\n");
    }
    if (delegated == 0) {
      throw fail(leaf.name() + " must delegate something, but " + leaf.base()
          + " writes every method of " + iface.getSimpleName());
    }
    return out.append("}\n").toString();
  }

  /** The methods with a body in {@code base} and the classes of this file it extends. */
  private Map<String, MethodTree> handWritten(ClassTree base) {
    Map<String, MethodTree> methods = new LinkedHashMap<>();
    for (ClassTree type = base; type != null; type = superclassOf(type)) {
      for (Tree member : type.getMembers()) {
        if (member instanceof MethodTree) {
          MethodTree method = (MethodTree) member;
          if (method.getBody() != null
              && !method.getModifiers().getFlags().contains(Modifier.STATIC)) {
            methods.putIfAbsent(key(method), method);
          }
        }
      }
    }
    return methods;
  }

  private ClassTree superclassOf(ClassTree type) {
    Tree parent = type.getExtendsClause();
    return parent == null ? null : classes.get(simpleName(parent));
  }

  /**
   * Every instance method of {@code iface} and the interfaces it extends, once each: those of
   * {@code iface} first, then each super-interface's, each group sorted by name and parameters so
   * that every JDK writes the same file (the order of {@code --release} class files varies).
   */
  private List<ExecutableElement> methodsOf(TypeElement iface) {
    List<TypeElement> owners = new ArrayList<>(List.of(iface));
    for (int i = 0; i < owners.size(); i++) {
      for (TypeMirror parent : owners.get(i).getInterfaces()) {
        TypeElement type = (TypeElement) ((DeclaredType) parent).asElement();
        if (!owners.contains(type)) {
          owners.add(type);
        }
      }
    }
    List<ExecutableElement> methods = new ArrayList<>();
    for (Element member : elements.getAllMembers(iface)) {
      if (member.getKind() == ElementKind.METHOD
          && owners.contains(member.getEnclosingElement())
          && !member.getModifiers().contains(Modifier.STATIC)
          && !member.getModifiers().contains(Modifier.PRIVATE)) {
        methods.add((ExecutableElement) member);
      }
    }
    methods.sort(Comparator.comparingInt((ExecutableElement m) ->
        owners.indexOf(m.getEnclosingElement())).thenComparing(this::key));
    return methods;
  }

  private void constructor(StringBuilder out, Leaf leaf, MethodTree constructor) {
    out.append("  ").append(leaf.name()).append('(').append(constructor.getParameters().stream()
        .map(p -> p.getType() + " " + p.getName()).collect(Collectors.joining(", ")))
        .append(") {\n    super(").append(constructor.getParameters().stream()
        .map(p -> p.getName().toString()).collect(Collectors.joining(", ")))
        .append(");\n  }\n");
  }

  private void delegate(StringBuilder out, Leaf leaf, ExecutableElement method) {
    if (recordsParameter(leaf, method)) {
      recordParameter(out, leaf, method);
      return;
    }
    signature(out, method);
    out.append(" {\n    ");
    if (method.getReturnType().getKind() == TypeKind.VOID) {
      out.append(call(leaf, method));
    } else {
      out.append("return ").append(call(leaf, method));
    }
    out.append(";\n  }\n");
  }

  /** {@code @Override public T m(A a0) throws E}, and the blank line before it. */
  private void signature(StringBuilder out, ExecutableElement method) {
    out.append('\n');
    if (elements.isDeprecated(method)) {
      out.append("  @Deprecated\n");
    }
    out.append("  @Override\n  public ");
    if (!method.getTypeParameters().isEmpty()) {
      out.append(method.getTypeParameters().stream().map(this::typeParameter)
          .collect(Collectors.joining(", ", "<", "> ")));
    }
    out.append(method.getReturnType()).append(' ').append(method.getSimpleName()).append('(')
        .append(method.getParameters().stream().map(p -> p.asType() + " " + name(method, p))
        .collect(Collectors.joining(", "))).append(')');
    if (!method.getThrownTypes().isEmpty()) {
      out.append(method.getThrownTypes().stream().map(TypeMirror::toString)
          .collect(Collectors.joining(", ", " throws ", "")));
    }
  }

  /**
   * {@code delegate.m(a0, a1)}, or {@code wrap(delegate.m(a0, a1))} when it returns one of
   * {@link #WRAPPED}.
   */
  private String call(Leaf leaf, ExecutableElement method) {
    String call = leaf.delegate() + "." + method.getSimpleName() + "("
        + method.getParameters().stream().map(p -> name(method, p))
        .collect(Collectors.joining(", ")) + ")";
    String returned = types.erasure(method.getReturnType()).toString();
    if (PREPARED_FROM_TEXT.contains(returned)) {
      return "wrap(a0, " + call + ")";
    }
    return WRAPPED.contains(returned) ? "wrap(" + call + ")" : call;
  }

  // --- the gated execute family: one list, one template ----------------------------------------

  /** What a gated method tells the connection of its SQL. */
  enum Sql {
    /**
     * The SQL comes as text, the first argument: {@code beforeStatement(a0)}, which ends a
     * transaction the text ends ({@code COMMIT}...); its latency samples are shaped by that text.
     */
    ARGUMENT,
    /** None: {@code beforeStatement()}; its samples have no shape ({@code null}). */
    NONE,
    /**
     * None as an argument: {@code beforeStatement()}; its samples are shaped by the SQL the
     * statement was prepared with ({@code PreparedStatementWrapper.sql}).
     */
    PREPARED
  }

  /** Every overload of {@code name} that {@code iface} itself declares is gated. */
  record Gate(String iface, String name, Sql sql) {}

  /**
   * The gated {@code execute*} family: each runs only if the limiter admits it. Inherited by the
   * interfaces below (a {@code PreparedStatement}'s {@code execute(String)} is gated as a
   * {@code Statement}'s). The two {@code executeQuery} and {@code PreparedStatement.execute()}
   * are not listed: {@code StatementWrapper} and {@code PreparedStatementWrapper} write them by
   * hand, since they may answer a read instead of refusing it (a method is hand-written or listed
   * here, never both: the build fails).
   */
  static final List<Gate> GATED = List.of(
      new Gate("java.sql.Statement", "executeUpdate", Sql.ARGUMENT),
      new Gate("java.sql.Statement", "execute", Sql.ARGUMENT),
      new Gate("java.sql.Statement", "executeLargeUpdate", Sql.ARGUMENT),
      new Gate("java.sql.Statement", "executeBatch", Sql.NONE),
      new Gate("java.sql.Statement", "executeLargeBatch", Sql.NONE),
      new Gate("java.sql.PreparedStatement", "executeUpdate", Sql.PREPARED),
      new Gate("java.sql.PreparedStatement", "executeLargeUpdate", Sql.PREPARED));

  /**
   * The body of every gated method: report before the driver runs it (a refusal throws there,
   * and the driver never sees the call), then report back exactly once on every way out — with
   * the failure on a {@code SQLException} (which returns {@code 0}, so the {@code finally} does
   * nothing more), else in the {@code finally}, {@code Error}s included. {@code connection} and
   * {@code sql} are fields of {@code StatementWrapper} and {@code PreparedStatementWrapper};
   * {@code running()} closes an answer of the statement's earlier read, which the driver's new
   * execution replaces; the field is read here, so that without one no call is made.
   */
  static final String GATED_BODY = """
       {
          int held = connection.BEFORE;
          try {
            if (resultSet != null) {
              running();
            }
            return CALL;
          } catch (java.sql.SQLException e) {
            held = connection.afterStatement(held, SHAPE, e);
            throw e;
          } finally {
            connection.afterStatement(held, SHAPE, null);
          }
        }
      """;

  private final Set<Gate> matched = new HashSet<>();

  /** The entry of {@link #GATED} that lists {@code method}, or {@code null}. */
  private Gate gateOf(ExecutableElement method) {
    String owner = ((TypeElement) method.getEnclosingElement()).getQualifiedName().toString();
    for (Gate gate : GATED) {
      if (gate.iface().equals(owner) && method.getSimpleName().contentEquals(gate.name())) {
        return gate;
      }
    }
    return null;
  }

  /** Writes {@code method} from {@link #GATED_BODY}. */
  private void gated(StringBuilder out, Leaf leaf, ExecutableElement method, Gate gate) {
    List<? extends VariableElement> parameters = method.getParameters();
    boolean text = !parameters.isEmpty()
        && types.erasure(parameters.get(0).asType()).toString().equals("java.lang.String");
    if (gate.sql() == Sql.ARGUMENT ? !text : !parameters.isEmpty()) {
      throw fail(gate + " must list methods " + (gate.sql() == Sql.ARGUMENT
          ? "whose first parameter is the SQL text" : "without parameters") + ", but "
          + gate.iface() + "." + key(method) + " is not one");
    }
    if (method.getReturnType().getKind() == TypeKind.VOID) {
      throw fail(gate + " must list methods that return something, but " + key(method)
          + " returns void");
    }
    matched.add(gate);
    String shape = gate.sql() == Sql.ARGUMENT ? "a0" : gate.sql() == Sql.PREPARED ? "sql" : "null";
    signature(out, method);
    out.append(GATED_BODY
        .replace("BEFORE", gate.sql() == Sql.ARGUMENT ? "beforeStatement(a0)"
            : gate.sql() == Sql.PREPARED ? "beforePrepared(sql, parameters)" : "beforeStatement()")
        .replace("CALL", call(leaf, method))
        .replace("SHAPE", shape));
  }

  /**
   * The methods of a {@code ResultSet} that change rows: on an answered result, refused as on a
   * read-only one (with every {@code update*}), with the SQLState pgjdbc gives, {@code 24000}.
   */
  static final Set<String> ROW_CHANGES = Set.of("cancelRowUpdates", "deleteRow", "insertRow",
      "moveToCurrentRow", "moveToInsertRow", "refreshRow");

  /**
   * {@code internal.answer.ResultSetBase}: every {@code ResultSet} method refusing, what changes a
   * row as on a read-only result ({@code update*}, {@link #ROW_CHANGES}), the rest as not
   * supported. {@code AnsweredResultSet} extends it and overrides what an answer does.
   */
  private String refusingResultSet() {
    StringBuilder out = new StringBuilder()
        .append("// Generated by driver/src/build/java/GenerateWrappers.java: do not edit.\n")
        .append("package dev.sluice.internal.answer;\n\n")
        .append("/**\n * Every {@code ResultSet} method refusing: updates as on a read-only result,")
        .append(" the rest as not\n * supported. {@link AnsweredResultSet} overrides what an")
        .append(" answered result does.\n */\n")
        .append("@SuppressWarnings(\"deprecation\")\n")
        .append("abstract class ResultSetBase implements java.sql.ResultSet {\n\n")
        .append("  static java.sql.SQLException readOnly() {\n")
        .append("    return new java.sql.SQLException(\"An answered result is read-only")
        .append(" (CONCUR_READ_ONLY)\", \"24000\");\n  }\n\n")
        .append("  static java.sql.SQLException unsupported(String method) {\n")
        .append("    return new java.sql.SQLFeatureNotSupportedException(method + \" is not")
        .append(" supported on an answered\"\n        + \" result (forward-only, read-only, kept")
        .append(" values only)\", \"0A000\");\n  }\n");
    for (ExecutableElement method : methodsOf(elements.getTypeElement("java.sql.ResultSet"))) {
      String name = method.getSimpleName().toString();
      signature(out, method);
      out.append(" {\n    throw ").append(name.startsWith("update") || ROW_CHANGES.contains(name)
          ? "readOnly()" : "unsupported(\"" + name + "\")").append(";\n  }\n");
    }
    return out.append("}\n").toString();
  }

  /** A gate that matched no method would leave what it names ungated: a typo fails the build. */
  private void checkEveryGateMatched() {
    for (Gate gate : GATED) {
      if (!matched.contains(gate)) {
        throw fail(gate + " must name methods that " + gate.iface() + " declares, but"
            + " matched none");
      }
    }
  }

  // --- the rest -------------------------------------------------------------------------------

  private String typeParameter(TypeParameterElement parameter) {
    List<String> bounds = parameter.getBounds().stream().map(TypeMirror::toString)
        .filter(b -> !b.equals("java.lang.Object")).collect(Collectors.toList());
    return parameter.getSimpleName()
        + (bounds.isEmpty() ? "" : " extends " + String.join(" & ", bounds));
  }

  /** The class files of {@code --release} carry no parameter names: a0, a1... */
  private static String name(ExecutableElement method, VariableElement parameter) {
    return "a" + method.getParameters().indexOf(parameter);
  }

  /** {@code name(ErasedSimpleType,...)}: what the syntax tree and the interface agree on. */
  private String key(ExecutableElement method) {
    return method.getSimpleName() + method.getParameters().stream()
        .map(p -> erasedName(p.asType())).collect(Collectors.joining(",", "(", ")"));
  }

  private static String key(MethodTree method) {
    return method.getName() + method.getParameters().stream()
        .map(VariableTree::getType).map(GenerateWrappers::simpleName)
        .collect(Collectors.joining(",", "(", ")"));
  }

  private String erasedName(TypeMirror type) {
    TypeMirror erased = types.erasure(type);
    if (erased.getKind() == TypeKind.ARRAY) {
      return erasedName(((ArrayType) erased).getComponentType()) + "[]";
    }
    if (erased.getKind() == TypeKind.DECLARED) {
      return ((DeclaredType) erased).asElement().getSimpleName().toString();
    }
    return erased.toString();
  }

  /** The erased simple name a type is written with: {@code Map<String,Object>} gives Map. */
  private static String simpleName(Tree type) {
    switch (type.getKind()) {
      case PARAMETERIZED_TYPE:
        return simpleName(((ParameterizedTypeTree) type).getType());
      case ARRAY_TYPE:
        return simpleName(((ArrayTypeTree) type).getType()) + "[]";
      case ANNOTATED_TYPE:
        return simpleName(((AnnotatedTypeTree) type).getUnderlyingType());
      case MEMBER_SELECT:
        return ((MemberSelectTree) type).getIdentifier().toString();
      case IDENTIFIER:
        return ((IdentifierTree) type).getName().toString();
      case PRIMITIVE_TYPE:
        return type.toString();
      default:
        throw fail("a parameter type must be a class, an array or a primitive, but was " + type);
    }
  }

  // --- answers instead of refusals: the prepared statement's setters record its parameters ---

  /** The class whose parameter setters record what they set (a callable statement never does). */
  static final String PARAMETERS_LEAF = "GeneratedPreparedStatement";

  /**
   * What each setter of {@code java.sql.PreparedStatement} records in the statement's
   * {@code Parameters} ({@code p}), by the method's key: the value with its setter, for a read's
   * identity. Any other {@code set*} method of the interface (streams, LOBs, arrays, {@code REF},
   * {@code URL}, {@code ROWID}, {@code SQLXML}, {@code SQLType} targets, and any setter a later
   * JDBC adds) marks the statement ineligible: a setter never recorded could make two different
   * reads look identical, so unknown means not answerable.
   */
  static final Map<String, String> PARAMETER_SETTERS = Map.ofEntries(
      Map.entry("setNull(int,int)", "p.setNull(a0, a1)"),
      Map.entry("setNull(int,int,String)", "p.setNull(a0, a1)"),
      Map.entry("setBoolean(int,boolean)", "p.set(a0, Setter.BOOLEAN, a1)"),
      Map.entry("setByte(int,byte)", "p.set(a0, Setter.BYTE, a1)"),
      Map.entry("setShort(int,short)", "p.set(a0, Setter.SHORT, a1)"),
      Map.entry("setInt(int,int)", "p.set(a0, Setter.INT, a1)"),
      Map.entry("setLong(int,long)", "p.set(a0, Setter.LONG, a1)"),
      Map.entry("setFloat(int,float)", "p.set(a0, Setter.FLOAT, a1)"),
      Map.entry("setDouble(int,double)", "p.set(a0, Setter.DOUBLE, a1)"),
      Map.entry("setBigDecimal(int,BigDecimal)", "p.set(a0, Setter.BIG_DECIMAL, a1)"),
      Map.entry("setString(int,String)", "p.set(a0, Setter.STRING, a1)"),
      Map.entry("setNString(int,String)", "p.set(a0, Setter.NSTRING, a1)"),
      Map.entry("setBytes(int,byte[])", "p.set(a0, Setter.BYTES, a1)"),
      Map.entry("setDate(int,Date)", "p.set(a0, Setter.DATE, a1)"),
      Map.entry("setDate(int,Date,Calendar)", "p.set(a0, Setter.DATE, a1, a2)"),
      Map.entry("setTime(int,Time)", "p.set(a0, Setter.TIME, a1)"),
      Map.entry("setTime(int,Time,Calendar)", "p.set(a0, Setter.TIME, a1, a2)"),
      Map.entry("setTimestamp(int,Timestamp)", "p.set(a0, Setter.TIMESTAMP, a1)"),
      Map.entry("setTimestamp(int,Timestamp,Calendar)", "p.set(a0, Setter.TIMESTAMP, a1, a2)"),
      Map.entry("setObject(int,Object)", "p.setObject(a0, a1, Integer.MIN_VALUE, 0)"),
      Map.entry("setObject(int,Object,int)", "p.setObject(a0, a1, a2, 0)"),
      Map.entry("setObject(int,Object,int,int)", "p.setObject(a0, a1, a2, a3)"),
      Map.entry("clearParameters()", "p.clear()"));

  /** Whether {@code method} is a parameter setter (or {@code clearParameters}) to record. */
  private boolean recordsParameter(Leaf leaf, ExecutableElement method) {
    String name = method.getSimpleName().toString();
    return leaf.name().equals(PARAMETERS_LEAF)
        && ((TypeElement) method.getEnclosingElement()).getQualifiedName()
            .contentEquals("java.sql.PreparedStatement")
        && (name.startsWith("set") || name.equals("clearParameters"))
        && method.getReturnType().getKind() == TypeKind.VOID;
  }

  /**
   * The template of a recording setter: the driver's call first; then, when the statement
   * records ({@code parameters} not {@code null}), what {@link #PARAMETER_SETTERS} says, or
   * ineligible. A driver that throws leaves its value unknown: ineligible too.
   */
  private void recordParameter(StringBuilder out, Leaf leaf, ExecutableElement method) {
    String record = PARAMETER_SETTERS.getOrDefault(key(method), "p.unsupported()");
    String parameters = method.getParameters().stream()
        .map(p -> p.asType() + " " + name(method, p)).collect(Collectors.joining(", "));
    String arguments = method.getParameters().stream().map(p -> name(method, p))
        .collect(Collectors.joining(", "));
    String thrown = method.getThrownTypes().stream().map(TypeMirror::toString)
        .collect(Collectors.joining(", "));
    out.append('\n');
    if (elements.isDeprecated(method)) {
      out.append("  @Deprecated\n");
    }
    out.append("  @Override\n  public void ").append(method.getSimpleName()).append('(')
        .append(parameters).append(')')
        .append(thrown.isEmpty() ? "" : " throws " + thrown).append(" {\n")
        .append("    try {\n")
        .append("      ").append(leaf.delegate()).append('.').append(method.getSimpleName())
        .append('(').append(arguments).append(");\n")
        .append("    } catch (java.sql.SQLException | RuntimeException e) {\n")
        .append("      if (parameters != null) {\n")
        .append("        parameters.unsupported();\n")
        .append("      }\n")
        .append("      throw e;\n")
        .append("    }\n")
        .append("    dev.sluice.internal.answer.Parameters p = parameters;\n")
        .append("    if (p != null) {\n")
        .append("      ").append(record.replace("Setter.",
            "dev.sluice.internal.answer.Parameters.Setter.")).append(";\n")
        .append("    }\n")
        .append("  }\n");
  }

  private static IllegalStateException fail(String message) {
    return new IllegalStateException("GenerateWrappers: " + message);
  }
}
