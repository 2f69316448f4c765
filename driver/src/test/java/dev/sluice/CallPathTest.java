package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The path of one call, measured rather than told: one {@code executeQuery} from
 * {@code getConnection()} to the bucket and back, with the flag open, on a driver of proxies that
 * records the stack wherever the library hands it a call, and a clock that records the stack when
 * the bucket reads it. The source files of the library's frames are the path; they must be the
 * ones {@code docs/architecture.md} lists, in its order, and at most four of them hand-written.
 * Run it to see them: {@code mvn -pl driver -am test -Dtest=CallPathTest} prints the list.
 */
class CallPathTest {
  private static final Path ARCHITECTURE = Path.of("..", "docs", "architecture.md");
  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final String BEGIN = "<!-- call-path:begin (checked by CallPathTest) -->";
  private static final String END = "<!-- call-path:end -->";

  /** The stacks recorded while {@link #on}, and the files of their library frames, in order. */
  private final Set<String> files = new LinkedHashSet<>();
  private final Set<String> generated = new TreeSet<>();
  private boolean on;
  private boolean bucketSeen;

  @Test
  void oneExecuteQuery_passesThroughTheFilesArchitectureMdLists() throws Exception {
    List<String> path = measure();
    System.out.println("The path of one executeQuery, getConnection() to the bucket and back:");
    path.forEach(f -> System.out.println("  " + f));
    System.out.println("  generated (constructors and plain delegation only): " + generated);

    assertThat(bucketSeen).as("the bucket read its clock on the way").isTrue();
    assertThat(path).as("hand-written files on the path").hasSizeLessThanOrEqualTo(8)
        .allSatisfy(f -> assertThat(Path.of("..", f)).exists());
    assertThat(path).as("the path docs/architecture.md lists").isEqualTo(documentedPath());
  }

  @Test
  void everySourceFileArchitectureMdNames_exists() throws IOException {
    Matcher m = Pattern.compile("`((?:driver|benchmarks|src-it|spring-boot-starter|examples)"
        + "/[\\w./-]+\\.java)`").matcher(Files.readString(ARCHITECTURE));
    List<String> named = new ArrayList<>();
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named).as("source files named in docs/architecture.md").hasSizeGreaterThan(10)
        .allSatisfy(f -> assertThat(Path.of("..", f)).as(f).isRegularFile());
  }

  private List<String> measure() throws SQLException {
    DataSource driver = recordingDriver();
    BreakerFlag open = () -> record(false) || true;
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(driver).name("path")
        .budget(1_000).burst(10).breakerFlag(open).ticker(this::tick).build()) {
      on = true;
      try (Connection connection = ds.getConnection();
          PreparedStatement statement = connection.prepareStatement("select 1");
          ResultSet rows = statement.executeQuery()) {
        returned(connection);
        returned(statement);
        returned(rows);
      } finally {
        on = false;
      }
    }
    return new ArrayList<>(files);
  }

  private long tick() {
    bucketSeen |= on && record(true);
    return System.nanoTime();
  }

  /** Records the library's frames of the calling stack; returns whether it was recording. */
  private boolean record(boolean atTheBucket) {
    if (!on) {
      return false;
    }
    for (StackTraceElement frame : new Throwable().getStackTrace()) {
      String type = frame.getClassName();
      if (type.startsWith("dev.sluice.") && !type.startsWith(CallPathTest.class.getName())) {
        file(type, frame.getFileName());
      }
    }
    return atTheBucket;
  }

  /** The class of an object handed back is on the path too: its constructor ran. */
  private void returned(Object wrapper) {
    for (Class<?> type = wrapper.getClass(); type.getName().startsWith("dev.sluice.");
        type = type.getSuperclass()) {
      Class<?> top = type;
      while (top.getEnclosingClass() != null) {
        top = top.getEnclosingClass();
      }
      file(top.getName(), top.getSimpleName() + ".java");
    }
  }

  private void file(String type, String fileName) {
    String dir = type.substring(0, type.lastIndexOf('.')).replace('.', '/');
    Path source = SOURCES.resolve(dir).resolve(fileName);
    if (Files.exists(source)) {
      files.add("driver/" + source.toString().replace('\\', '/'));
    } else {
      generated.add(fileName);
    }
  }

  private static List<String> documentedPath() throws IOException {
    String text = Files.readString(ARCHITECTURE);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("docs/architecture.md has the call-path block").isNotNegative();
    assertThat(end).isGreaterThan(begin);
    List<String> listed = new ArrayList<>();
    Matcher m = Pattern.compile("`([\\w./-]+\\.java)`")
        .matcher(text.substring(begin, end));
    while (m.find()) {
      listed.add(m.group(1));
    }
    return listed;
  }

  /** A driver of proxies: each call the library hands it records the stack. */
  private DataSource recordingDriver() {
    Object rows = proxy(ResultSet.class, null);
    Object statement = proxy(PreparedStatement.class, rows);
    Object connection = proxy(Connection.class, statement);
    return (DataSource) proxy(DataSource.class, connection);
  }

  private Object proxy(Class<?> type, Object made) {
    return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, method, args) -> {
          record(false);
          Class<?> returns = method.getReturnType();
          if (made != null && returns.isInstance(made)) {
            return made;
          }
          if (returns == boolean.class) {
            return method.getName().equals("getAutoCommit");
          }
          if (returns == int.class || returns == long.class) {
            return 0;
          }
          return method.getName().equals("toString") ? type.getSimpleName() : null;
        });
  }
}
