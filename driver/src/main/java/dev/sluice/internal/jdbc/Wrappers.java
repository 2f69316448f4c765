package dev.sluice.internal.jdbc;

import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * What every wrapper of this package does alike: its {@code unwrap}, {@code isWrapperFor} and
 * {@code toString} are one-line calls to these, generated into each class ({@code ALIKE} in
 * {@code driver/src/build/java/GenerateWrappers.java}). It knows no wrapper class, so that every
 * class of the package may call it and none is called back.
 *
 * <p>{@code unwrap} is the one door out: it returns the wrapper for the interfaces it implements
 * ({@code unwrap(Connection.class)} stays limited) and the driver's object for anything else
 * ({@code unwrap(PGConnection.class)} works for COPY; work done on it is not limited).
 *
 * <p>Stateless.
 */
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

  /** Names the wrapper by its class here (the generated class's superclass) and the delegate. */
  static String describe(Wrapper wrapper, Object delegate) {
    return "Sluice " + wrapper.getClass().getSuperclass().getSimpleName() + " over " + delegate;
  }
}
