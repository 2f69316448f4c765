package dev.sluice.internal.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The metadata of a {@link ConnectionWrapper} ({@code getURL()} is delegated unchanged, so
 * tools that detect the database from it keep working): {@code getConnection()} returns the
 * connection wrapper and every result set returned is wrapped. Metadata queries are not gated.
 * It holds no state of its own beyond its two references.
 */
abstract class DatabaseMetaDataWrapper implements DatabaseMetaData {
  private final ReportingConnection connection;
  /** The driver's metadata. */
  final DatabaseMetaData delegate;

  DatabaseMetaDataWrapper(ReportingConnection connection, DatabaseMetaData delegate) {
    this.connection = connection;
    this.delegate = delegate;
  }

  /** Wraps a result set of a metadata query; the generated {@code getTables}... call it. */
  final ResultSet wrap(ResultSet raw) {
    return raw == null ? null : new GeneratedResultSet(connection, null, raw);
  }

  @Override
  public final Connection getConnection() throws SQLException {
    return connection;
  }

}
