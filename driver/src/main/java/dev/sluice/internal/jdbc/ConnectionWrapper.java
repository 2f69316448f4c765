package dev.sluice.internal.jdbc;

import dev.sluice.internal.limit.Gate;
import java.sql.Connection;
import java.sql.SQLException;

/** Placeholder: the wrappers land with the JDBC wrapper work. */
public final class ConnectionWrapper {
  private ConnectionWrapper() {}

  /** Wraps {@code raw} so that its gated calls go through {@code gate}. */
  public static Connection wrap(Connection raw, Gate gate) throws SQLException {
    return raw;
  }
}
