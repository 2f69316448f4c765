package dev.sluice.internal.jdbc;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * A stub JDBC driver made of dynamic proxies: every object records each call it receives (default
 * methods included: a proxy dispatches them to its handler, so a recorded default method reached
 * the "driver"). Objects handed out point back at their raw parents, as a real driver's do.
 */
public final class StubJdbc {
  static final Set<String> EXECUTE_FAMILY = Set.of("execute", "executeQuery", "executeUpdate",
      "executeLargeUpdate", "executeBatch", "executeLargeBatch");

  /** What one stub connection and everything made from it received. Not threadsafe. */
  public static final class Recorder {
    final List<Method> calls = new ArrayList<>();
    /** Parks this long inside every execute call: stands in for the driver's network I/O. */
    long parkNanosPerExecute;
    /** Thrown by {@code getAutoCommit}, when set. */
    SQLException autoCommitFailure;
    /**
     * Thrown, when set, by what ends a transaction: {@code commit()}, {@code rollback()} (not to
     * a savepoint), and {@code setAutoCommit(true)} from manual commit, which then stays manual
     * (as PostgreSQL's driver does when the commit inside the switch fails).
     */
    SQLException endFailure;
    /** An execute call given exactly this text throws {@link #endFailure}, when both are set. */
    String failingText;

    Method last() {
      return calls.isEmpty() ? null : calls.get(calls.size() - 1);
    }

    boolean saw(String name) {
      return calls.stream().anyMatch(m -> m.getName().equals(name));
    }
  }

  private StubJdbc() {}

  public static Connection connection(boolean autoCommit) {
    return connection(new Recorder(), autoCommit);
  }

  public static Connection connection(Recorder recorder, boolean autoCommit,
      Class<?>... vendorInterfaces) {
    Handler handler = new Handler(recorder, Connection.class, null);
    handler.autoCommit = autoCommit;
    return (Connection) handler.proxy(vendorInterfaces);
  }

  /** A connection that parks {@code parkNanos} in every execute call. */
  public static Connection slowConnection(long parkNanos) {
    Recorder recorder = new Recorder();
    recorder.parkNanosPerExecute = parkNanos;
    return connection(recorder, true);
  }

  private static final class Handler implements InvocationHandler {
    private final Recorder recorder;
    private final Class<?> type;
    /** The raw connection of a statement or metadata; the raw statement of a result set. */
    private final Object parent;
    private Object self;
    private boolean autoCommit;

    Handler(Recorder recorder, Class<?> type, Object parent) {
      this.recorder = recorder;
      this.type = type;
      this.parent = parent;
    }

    Object proxy(Class<?>... more) {
      Class<?>[] types = new Class<?>[more.length + 1];
      types[0] = type;
      System.arraycopy(more, 0, types, 1, more.length);
      self = Proxy.newProxyInstance(StubJdbc.class.getClassLoader(), types, this);
      return self;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws SQLException {
      String name = method.getName();
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, name, args);
      }
      recorder.calls.add(method);
      switch (name) {
        case "unwrap":
          if (((Class<?>) args[0]).isInstance(proxy)) {
            return proxy;
          }
          throw new SQLException("stub is not a " + args[0]);
        case "isWrapperFor":
          return ((Class<?>) args[0]).isInstance(proxy);
        case "getAutoCommit":
          if (recorder.autoCommitFailure != null) {
            throw recorder.autoCommitFailure;
          }
          return autoCommit;
        case "setAutoCommit":
          if ((Boolean) args[0] && !autoCommit && recorder.endFailure != null) {
            throw recorder.endFailure;
          }
          autoCommit = (Boolean) args[0];
          return null;
        case "commit":
        case "rollback":
          if (args == null && recorder.endFailure != null) {
            throw recorder.endFailure;
          }
          return null;
        case "getConnection":
        case "getStatement":
          return parent;
        default:
          break;
      }
      if (EXECUTE_FAMILY.contains(name) && args != null && recorder.failingText != null
          && recorder.failingText.equals(args[0])) {
        throw recorder.endFailure;
      }
      if (EXECUTE_FAMILY.contains(name) && recorder.parkNanosPerExecute > 0) {
        LockSupport.parkNanos(recorder.parkNanosPerExecute);
      }
      return answer(method.getReturnType());
    }

    private Object answer(Class<?> returned) {
      if (returned == Statement.class || returned == PreparedStatement.class
          || returned == CallableStatement.class) {
        return new Handler(recorder, returned, self).proxy();
      }
      if (returned == ResultSet.class) {
        Object statement = type == DatabaseMetaData.class
            ? new Handler(recorder, Statement.class, parent).proxy() // a driver's internal one
            : self;
        return new Handler(recorder, ResultSet.class, statement).proxy();
      }
      if (returned == DatabaseMetaData.class) {
        return new Handler(recorder, DatabaseMetaData.class, self).proxy();
      }
      return defaultOf(returned);
    }

    private Object objectMethod(Object proxy, String name, Object[] args) {
      switch (name) {
        case "equals":
          return proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        default:
          return "stub " + type.getSimpleName();
      }
    }
  }

  /** A harmless value of {@code type}: zero, false, an empty array, a string, or null. */
  static Object defaultOf(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 1;
    }
    if (type == long.class) {
      return 1L;
    }
    if (type == short.class) {
      return (short) 1;
    }
    if (type == byte.class) {
      return (byte) 1;
    }
    if (type == double.class) {
      return 1.0;
    }
    if (type == float.class) {
      return 1.0f;
    }
    if (type == String.class) {
      return "stub";
    }
    if (type == Class.class) {
      return String.class;
    }
    if (type.isArray()) {
      return Array.newInstance(type.getComponentType(), 0);
    }
    return null;
  }

  /** Arguments of harmless values for {@code method}. */
  static Object[] argumentsFor(Method method) {
    Class<?>[] types = method.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      args[i] = defaultOf(types[i]);
    }
    return args;
  }
}
