package dev.sluice.internal.jdbc;

import java.sql.CallableStatement;

/**
 * A callable statement handed out by a {@link ConnectionWrapper}: a
 * {@link PreparedStatementWrapper}; nothing of {@code CallableStatement} itself is gated.
 */
abstract class CallableStatementWrapper extends PreparedStatementWrapper
    implements CallableStatement {
  CallableStatementWrapper(ReportingConnection connection, String sql,
      CallableStatement delegate) {
    super(connection, sql, delegate);
  }

  /** The driver's statement, as the type this wrapper was made for. */
  final CallableStatement callable() {
    return (CallableStatement) delegate;
  }
}
