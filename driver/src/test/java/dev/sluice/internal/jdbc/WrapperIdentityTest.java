package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.WrapperFixture;
import dev.sluice.internal.jdbc.StubJdbc.Recorder;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Wrapper;
import org.junit.jupiter.api.Test;

/** The identity rules: back-references, unwrap, close, equality, nulls. */
class WrapperIdentityTest {
  /** Stands in for a vendor interface such as {@code PGConnection}. */
  interface VendorConnection {
    void copyIn();
  }

  private final Recorder recorder = new Recorder();
  private final Connection raw = StubJdbc.connection(recorder, true, VendorConnection.class);

  private Connection wrapped() throws SQLException {
    return Connections.wrap(raw, new WrapperFixture().gate());
  }

  @Test
  void statements_getConnection_returnTheConnectionWrapper() throws SQLException {
    Connection connection = wrapped();
    assertThat(connection).isNotSameAs(raw).isInstanceOf(ConnectionWrapper.class);
    assertThat(connection.createStatement().getConnection()).isSameAs(connection);
    assertThat(connection.prepareStatement("x").getConnection()).isSameAs(connection);
    assertThat(connection.prepareCall("x").getConnection()).isSameAs(connection);
    assertThat(connection.createStatement(1, 1).getConnection()).isSameAs(connection);
  }

  @Test
  void resultSets_getStatement_returnTheStatementWrapperTheyCameFrom() throws SQLException {
    Connection connection = wrapped();
    for (Statement statement : new Statement[] {connection.createStatement(),
        connection.prepareStatement("x"), connection.prepareCall("x")}) {
      assertThat(statement.executeQuery("x").getStatement()).isSameAs(statement);
      assertThat(statement.getResultSet().getStatement()).isSameAs(statement);
      assertThat(statement.getGeneratedKeys().getStatement()).isSameAs(statement);
    }
    PreparedStatement prepared = connection.prepareStatement("x");
    assertThat(prepared.executeQuery().getStatement()).isSameAs(prepared);
  }

  @Test
  void metaData_getConnection_returnsTheConnectionWrapper() throws SQLException {
    Connection connection = wrapped();
    DatabaseMetaData metaData = connection.getMetaData();
    assertThat(metaData).isInstanceOf(DatabaseMetaDataWrapper.class);
    assertThat(metaData.getConnection()).isSameAs(connection);
  }

  @Test
  void metaDataResultSets_areWrapped_andTheirStatementLeadsBackToTheWrapper() throws SQLException {
    Connection connection = wrapped();
    ResultSet tables = connection.getMetaData().getTables(null, null, "%", null);
    assertThat(tables).isInstanceOf(ResultSetWrapper.class);
    Statement statement = tables.getStatement();
    assertThat(statement).isInstanceOf(StatementWrapper.class);
    assertThat(tables.getStatement()).isSameAs(statement);
    assertThat(statement.getConnection()).isSameAs(connection);
  }

  @Test
  void nullFromTheDriver_staysNull() throws SQLException {
    assertThat(Connections.wrap(null, new WrapperFixture().gate())).isNull();
    ConnectionWrapper connection = (ConnectionWrapper) wrapped(); // the makers of the wrappers
    assertThat(connection.wrap((Statement) null)).isNull();
    assertThat(connection.wrap(null, (PreparedStatement) null)).isNull();
    assertThat(connection.wrap(null, (CallableStatement) null)).isNull();
    assertThat(connection.statement(null)).isNull();
    StatementWrapper statement = (StatementWrapper) connection.createStatement();
    assertThat(statement.wrap(null)).isNull();
    statement.executeQuery("x");
    assertThat(statement.wrap(null)).isNull(); // after a result set of its own
    assertThat(((DatabaseMetaDataWrapper) connection.getMetaData()).wrap(null)).isNull();
  }

  @Test
  void unwrap_ownInterface_returnsTheWrapper() throws SQLException {
    Connection connection = wrapped();
    assertThat(connection.unwrap(Connection.class)).isSameAs(connection);
    assertThat(connection.unwrap(Wrapper.class)).isSameAs(connection);
    assertThat(connection.unwrap(AutoCloseable.class)).isSameAs(connection);
    assertThat(connection.isWrapperFor(Connection.class)).isTrue();
    Statement statement = connection.prepareCall("x");
    assertThat(statement.unwrap(Statement.class)).isSameAs(statement);
    assertThat(statement.unwrap(CallableStatement.class)).isSameAs(statement);
    ResultSet resultSet = statement.executeQuery("x");
    assertThat(resultSet.unwrap(ResultSet.class)).isSameAs(resultSet);
    DatabaseMetaData metaData = connection.getMetaData();
    assertThat(metaData.unwrap(DatabaseMetaData.class)).isSameAs(metaData);
  }

  @Test
  void unwrap_vendorInterface_returnsTheDriversObject() throws SQLException {
    Connection connection = wrapped();
    assertThat(connection.isWrapperFor(VendorConnection.class)).isTrue();
    assertThat(connection.unwrap(VendorConnection.class)).isSameAs(raw);
  }

  @Test
  void unwrap_somethingNeitherIs_asksTheDriverAndAgreesWithIsWrapperFor() throws SQLException {
    Connection connection = wrapped();
    assertThat(connection.isWrapperFor(Runnable.class)).isFalse();
    assertThrows(SQLException.class, () -> connection.unwrap(Runnable.class));
    assertThat(recorder.saw("unwrap")).isTrue();
  }

  @Test
  void close_twice_closesTheConnectionOnceAndLeavesTheRestToTheDriver() throws SQLException {
    Connection connection = wrapped();
    Statement statement = connection.createStatement();
    ResultSet resultSet = statement.executeQuery("x");
    for (AutoCloseableSql closeable : new AutoCloseableSql[] {
        resultSet::close, statement::close, connection::close}) {
      closeable.close();
      closeable.close();
    }
    // the connection wrapper closes once (a pool's close returns the connection); statements and
    // result sets pass each close on, which JDBC makes a no-op once they are closed
    assertThat(recorder.calls.stream().filter(m -> m.getName().equals("close"))).hasSize(5);
    connection.isClosed();
    assertThat(recorder.last().getName()).isEqualTo("isClosed");
  }

  @Test
  void equality_isTheWrappersIdentity() throws SQLException {
    Connection connection = wrapped();
    Connection other = wrapped();
    assertThat(connection).isEqualTo(connection).isNotEqualTo(other).isNotEqualTo(raw);
    assertThat(connection.hashCode()).isEqualTo(System.identityHashCode(connection));
    assertThat(connection.toString()).contains("ConnectionWrapper").contains("stub Connection");
  }

  @Test
  void wrap_callsNothingOnTheDriver() {
    Recorder recorder = new Recorder();
    Connection connection = Connections.wrap(StubJdbc.connection(recorder, true),
        new WrapperFixture().gate());
    assertThat(connection).isInstanceOf(ConnectionWrapper.class);
    assertThat(recorder.calls).isEmpty();
  }

  @Test
  void execute_autoCommitUnreadableWhileLimiting_failsWithTheDriversErrorAndReachesNothing()
      throws SQLException {
    Recorder failing = new Recorder();
    failing.autoCommitFailure = new SQLException("connection lost");
    WrapperFixture limiter = new WrapperFixture();
    Statement statement = Connections.wrap(StubJdbc.connection(failing, true),
        limiter.gate()).createStatement();
    limiter.trip();
    SQLException thrown = assertThrows(SQLException.class, () -> statement.execute("x"));
    assertThat(thrown.getMessage()).isEqualTo("connection lost");
    assertThat(failing.saw("execute")).isFalse();
    assertThat(limiter.stats().admitted() + limiter.stats().rejected()).isZero();
  }

  interface AutoCloseableSql {
    void close() throws SQLException;
  }
}
