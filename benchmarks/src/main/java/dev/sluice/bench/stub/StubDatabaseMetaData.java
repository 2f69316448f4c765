package dev.sluice.bench.stub;

import java.sql.Connection;

/** Metadata that names the stub's URL and connection (P6Spy reads the URL on every checkout). */
final class StubDatabaseMetaData extends NeutralDatabaseMetaData {
  private final Connection connection;

  StubDatabaseMetaData(Connection connection) {
    this.connection = connection;
  }

  @Override
  public String getURL() {
    return StubDriver.PREFIX + "bench";
  }

  @Override
  public String getDatabaseProductName() {
    return "stub";
  }

  @Override
  public Connection getConnection() {
    return connection;
  }
}
