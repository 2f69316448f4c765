package dev.sluice.testing;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** A data source whose connections do nothing: for tests that only exercise the limiter. */
public final class StubDataSource implements DataSource {

  @Override
  public Connection getConnection() {
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          Class<?> type = method.getReturnType();
          if (type == boolean.class) {
            return method.getName().equals("getAutoCommit");
          }
          if (type == int.class || type == long.class) {
            return 0;
          }
          if (method.getName().equals("toString")) {
            return "StubConnection";
          }
          return null;
        });
  }

  @Override
  public Connection getConnection(String user, String password) {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() {
    return Logger.getGlobal();
  }

  @Override
  public <T> T unwrap(Class<T> iface) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
