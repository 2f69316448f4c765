package dev.sluice.internal.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The six wrapped kinds and the reflection the tests use to call every method on them. */
final class Kinds {
  static final List<Class<?>> INTERFACES = List.of(Connection.class, Statement.class,
      PreparedStatement.class, CallableStatement.class, ResultSet.class, DatabaseMetaData.class);

  private Kinds() {}

  /** One wrapper of each kind, in the order of {@link #INTERFACES}, from {@code connection}. */
  static List<Object> wrappersOf(Connection connection) throws SQLException {
    Statement statement = connection.createStatement();
    return List.of(connection, statement, connection.prepareStatement("stub"),
        connection.prepareCall("stub"), statement.executeQuery("stub"), connection.getMetaData());
  }

  /** The wrapper of kind {@code iface} among {@link #wrappersOf}. */
  static Object wrapperOf(Connection connection, Class<?> iface) throws SQLException {
    return wrappersOf(connection).get(INTERFACES.indexOf(iface));
  }

  /** Every instance method of {@code iface}, inherited and default ones included, sorted. */
  static List<Method> methodsOf(Class<?> iface) {
    return Arrays.stream(iface.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .sorted((a, b) -> describe(a).compareTo(describe(b)))
        .collect(Collectors.toList());
  }

  /** A statement kind's execute family: the calls that report to the gate. */
  static boolean isExecute(Class<?> iface, Method method) {
    return Statement.class.isAssignableFrom(iface)
        && StubJdbc.EXECUTE_FAMILY.contains(method.getName());
  }

  /** Calls {@code method} on {@code target} with harmless arguments, unwrapping its failure. */
  static Object call(Object target, Method method) throws Throwable {
    try {
      return method.invoke(target, StubJdbc.argumentsFor(method));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  static String describe(Method method) {
    return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  static boolean sameSignature(Method a, Method b) {
    return a != null && b != null && a.getName().equals(b.getName())
        && Arrays.equals(a.getParameterTypes(), b.getParameterTypes());
  }
}
