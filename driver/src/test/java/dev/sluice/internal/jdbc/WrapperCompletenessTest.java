package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.WrapperFixture;
import dev.sluice.internal.jdbc.StubJdbc.Recorder;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
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
 * Every JDBC 4.3 method, default methods included, is implemented by the wrapper handed out (a
 * class generated at build time) or the hand-written class it extends in
 * {@code ConnectionWrapper.java}: a method left to the interface's default would skip the driver
 * (P6Spy #540: {@code executeLargeUpdate} and {@code setObject(..., SQLType)} threw instead of
 * reaching it).
 */
class WrapperCompletenessTest {
  /** The classes handed out, in the order of {@link Kinds#INTERFACES}. */
  private static final List<Class<?>> WRAPPERS = List.of(GeneratedConnection.class,
      GeneratedStatement.class, GeneratedPreparedStatement.class,
      GeneratedCallableStatement.class, GeneratedResultSet.class,
      GeneratedDatabaseMetaData.class);
  /** What they extend: the methods Sluice intercepts, written by hand. */
  private static final List<Class<?>> INTERCEPTORS = List.of(ConnectionWrapper.class,
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
        Method own = wrapper.getMethod(method.getName(), method.getParameterTypes());
        Class<?> owner = own.getDeclaringClass();
        if (owner.isInterface() || !(WRAPPERS.contains(owner) || INTERCEPTORS.contains(owner))) {
          missing.add(Kinds.describe(method) + " (left to " + own.getDeclaringClass() + ")");
        } else if (own.isSynthetic() || own.isBridge()) {
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
    assertThat(GeneratedConnection.class.getDeclaredMethod("beginRequest").isDefault()).isFalse();
    long defaults = Kinds.INTERFACES.stream().flatMap(i -> Kinds.methodsOf(i).stream())
        .filter(Method::isDefault).count();
    assertThat(defaults).isGreaterThan(20);
  }

  @Test
  void wrappersHandedOut_areTheClassesCheckedAbove() throws SQLException {
    Connection connection = Connections.wrap(StubJdbc.connection(new Recorder(), true),
        new WrapperFixture().gate());
    assertThat(Kinds.wrappersOf(connection).stream().map(Object::getClass))
        .containsExactlyElementsOf(WRAPPERS);
  }

  /** A generated method can never replace an intercepted one: the build fails instead. */
  @ParameterizedTest(name = "{1}")
  @MethodSource("kinds")
  void interceptedMethods_areFinal(Class<?> iface, Class<?> wrapper) {
    List<String> overridable = new ArrayList<>();
    for (Method method : Kinds.methodsOf(iface)) {
      for (Class<?> type = wrapper.getSuperclass(); INTERCEPTORS.contains(type);
          type = type.getSuperclass()) {
        try {
          Method own = type.getDeclaredMethod(method.getName(), method.getParameterTypes());
          if (!Modifier.isFinal(own.getModifiers())) {
            overridable.add(type.getSimpleName() + "." + Kinds.describe(method));
          }
        } catch (NoSuchMethodException e) {
          continue; // delegated: the generated class declares it
        }
      }
    }
    assertThat(overridable).isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("kinds")
  void wrapper_isFinalOrSealedAndHoldsNoMonitor(Class<?> iface, Class<?> wrapper) {
    assertThat(Modifier.isFinal(wrapper.getModifiers()) || wrapper.isSealed()).isTrue();
    List<String> synchronizedMethods = Stream.of(wrapper.getDeclaredMethods())
        .filter(m -> Modifier.isSynchronized(m.getModifiers()))
        .map(Method::getName).collect(Collectors.toList());
    assertThat(synchronizedMethods).isEmpty();
  }

  /**
   * No {@code synchronized} anywhere: on Java 21 to 23 a virtual thread that blocks inside one
   * pins its carrier (JEP 491 lifts that only from Java 24). Locks are {@code ReentrantLock}.
   */
  @Test
  void mainSources_useSynchronizedNowhere() throws IOException {
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
    assertThat(uses).isEmpty();
  }

  /** The file without its comments and string literals. */
  private static String codeOf(Path file) {
    try {
      return Files.readString(file)
          .replaceAll("(?s)/\\*.*?\\*/", " ")
          .replaceAll("//[^\\n]*", " ")
          // unrolled ("[^"\\]*" then escapes), so a long string literal does not overflow the stack
          .replaceAll("\"[^\"\\\\]*(?:\\\\.[^\"\\\\]*)*\"", "\"\"");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
