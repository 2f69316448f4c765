package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every JDBC 4.3 method, default methods included, is declared by the wrapper itself: a method
 * left to the interface's default would skip the driver (P6Spy #540: {@code executeLargeUpdate}
 * and {@code setObject(..., SQLType)} threw instead of reaching it).
 */
class WrapperCompletenessTest {
  private static final List<Class<?>> WRAPPERS = List.of(ConnectionWrapper.class,
      StatementWrapper.class, PreparedStatementWrapper.class, CallableStatementWrapper.class,
      ResultSetWrapper.class, DatabaseMetaDataWrapper.class);

  static Stream<Arguments> kinds() {
    List<Arguments> kinds = new ArrayList<>();
    for (int i = 0; i < WRAPPERS.size(); i++) {
      kinds.add(Arguments.of(Kinds.INTERFACES.get(i), WRAPPERS.get(i)));
    }
    return kinds.stream();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("kinds")
  void wrapper_everyInterfaceMethodIncludingDefaults_isDeclaredByTheWrapper(Class<?> iface,
      Class<?> wrapper) {
    List<String> missing = new ArrayList<>();
    for (Method method : Kinds.methodsOf(iface)) {
      try {
        Method own = wrapper.getDeclaredMethod(method.getName(), method.getParameterTypes());
        if (own.isSynthetic() || own.isBridge()) {
          missing.add(Kinds.describe(method) + " (only a bridge)");
        }
      } catch (NoSuchMethodException e) {
        missing.add(Kinds.describe(method));
      }
    }
    assertThat(iface.isAssignableFrom(wrapper)).isTrue();
    assertThat(missing).as("methods of %s not declared by %s", iface.getSimpleName(),
        wrapper.getSimpleName()).isEmpty();
  }

  @Test
  void interfaces_haveDefaultMethods_soTheCheckAboveCoversThem() throws Exception {
    assertThat(Connection.class.getMethod("beginRequest").isDefault()).isTrue();
    assertThat(ConnectionWrapper.class.getDeclaredMethod("beginRequest").isDefault()).isFalse();
    long defaults = Kinds.INTERFACES.stream().flatMap(i -> Kinds.methodsOf(i).stream())
        .filter(Method::isDefault).count();
    assertThat(defaults).isGreaterThan(20);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("kinds")
  void wrapper_isFinalAndHoldsNoMonitor(Class<?> iface, Class<?> wrapper) {
    assertThat(Modifier.isFinal(wrapper.getModifiers())).isTrue();
    List<String> synchronizedMethods = Stream.of(wrapper.getDeclaredMethods())
        .filter(m -> Modifier.isSynchronized(m.getModifiers()))
        .map(Method::getName).collect(Collectors.toList());
    assertThat(synchronizedMethods).isEmpty();
  }

  /**
   * No {@code synchronized} on the request path: on Java 21 to 23 a virtual thread that blocks on
   * the database inside one pins its carrier (JEP 491 lifts that only from Java 24). The one
   * allowed use is {@code TokenBucket.setRate}, which serialises rare rate changes off the request
   * path and never blocks inside.
   */
  @Test
  void mainSources_useSynchronizedNowhereButTokenBucketSetRate() throws IOException {
    Pattern keyword = Pattern.compile("^.*\\bsynchronized\\b.*$", Pattern.MULTILINE);
    List<String> uses = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Paths.get("src/main/java"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java"))
          .collect(Collectors.toList())) {
        Matcher line = keyword.matcher(codeOf(file));
        while (line.find()) {
          uses.add(file.getFileName() + ": " + line.group().trim());
        }
      }
    }
    assertThat(Paths.get("src/main/java/dev/sluice/internal/jdbc/ConnectionWrapper.java"))
        .exists();
    assertThat(uses).allMatch(
        use -> use.startsWith("TokenBucket.java: public synchronized void setRate("), "allowed");
  }

  /** The file without its comments and string literals. */
  private static String codeOf(Path file) {
    try {
      return Files.readString(file)
          .replaceAll("(?s)/\\*.*?\\*/", " ")
          .replaceAll("//[^\\n]*", " ")
          .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
