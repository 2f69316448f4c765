package dev.sluice.internal.jdbc;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Wrapper;

/** What every JDBC wrapper does alike: {@code unwrap}, {@code toString}, wrapping a statement. */
final class Wrappers {
  private Wrappers() {}

  /**
   * The {@code unwrap} of every wrapper: the wrapper itself for the interfaces it implements (a
   * caller asking for a {@code Connection} keeps a limited one), else the driver's object.
   */
  static <T> T unwrap(Wrapper wrapper, Wrapper delegate, Class<T> iface) throws SQLException {
    if (iface.isInstance(wrapper)) {
      return iface.cast(wrapper);
    }
    if (iface.isInstance(delegate)) {
      return iface.cast(delegate);
    }
    return delegate.unwrap(iface);
  }

  /** The {@code isWrapperFor} of every wrapper: true exactly when {@link #unwrap} succeeds. */
  static boolean isWrapperFor(Wrapper wrapper, Wrapper delegate, Class<?> iface)
      throws SQLException {
    return iface.isInstance(wrapper) || iface.isInstance(delegate) || delegate.isWrapperFor(iface);
  }

  /** Wraps a statement the driver reports, with the wrapper of its kind. */
  static Statement statement(ConnectionWrapper connection, Statement raw) {
    if (raw instanceof CallableStatement) {
      return CallableStatementWrapper.of(connection, (CallableStatement) raw);
    }
    if (raw instanceof PreparedStatement) {
      return PreparedStatementWrapper.of(connection, (PreparedStatement) raw);
    }
    return StatementWrapper.of(connection, raw);
  }

  static String describe(Wrapper wrapper, Object delegate) {
    return "Sluice " + wrapper.getClass().getSimpleName() + " over " + delegate;
  }

  /** Closes {@code raw} after {@code failure}, keeping any close failure as suppressed. */
  static void closeAfterFailure(AutoCloseable raw, Exception failure) {
    try {
      raw.close();
    } catch (Exception e) {
      failure.addSuppressed(e);
    }
  }
}
