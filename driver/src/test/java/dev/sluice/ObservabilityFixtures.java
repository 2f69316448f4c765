package dev.sluice;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import javax.sql.DataSource;

/** A data source of stub connections, for the JMX and Micrometer tests. */
final class ObservabilityFixtures {
  private ObservabilityFixtures() {}

  /** A data source whose connections answer every call with a neutral value. */
  static DataSource stubDataSource() {
    return (DataSource) Proxy.newProxyInstance(ObservabilityFixtures.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getConnection": return stubConnection();
            case "toString": return "stub-data-source";
            case "hashCode": return System.identityHashCode(proxy);
            case "equals": return proxy == args[0];
            default: return neutral(method.getReturnType());
          }
        });
  }

  private static Connection stubConnection() {
    return (Connection) Proxy.newProxyInstance(ObservabilityFixtures.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getAutoCommit": return true;
            case "isValid": return true;
            case "toString": return "stub-connection";
            case "hashCode": return System.identityHashCode(proxy);
            case "equals": return proxy == args[0];
            default: return neutral(method.getReturnType());
          }
        });
  }

  private static Object neutral(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    return null;
  }

  /**
   * A data source in {@code CONNECTION} scope that admits one checkout in 1,000 s: the first
   * checkout while limiting is admitted, every later one rejected, whatever the machine's speed.
   */
  static RateLimitedDataSource oneCheckout(String name, BreakerFlag flag) {
    return RateLimitedDataSource.builder(stubDataSource()).name(name).budget(0.001).burst(1)
        .scope(Scope.CONNECTION).breakerFlag(flag).build();
  }
}
