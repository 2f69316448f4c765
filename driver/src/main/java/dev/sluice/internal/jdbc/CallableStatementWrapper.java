package dev.sluice.internal.jdbc;

import java.sql.CallableStatement;

/**
 * A callable statement handed out by a {@link ConnectionWrapper}: a
 * {@link PreparedStatementWrapper}; nothing of {@code CallableStatement} itself is gated.
 */
abstract sealed class CallableStatementWrapper extends PreparedStatementWrapper
    implements CallableStatement permits GeneratedCallableStatement {
  CallableStatementWrapper(ConnectionWrapper connection, String sql,
      CallableStatement delegate) {
    super(connection, sql, delegate);
  }

  static CallableStatementWrapper of(ConnectionWrapper connection, CallableStatement raw) {
    return of(connection, null, raw);
  }

  static CallableStatementWrapper of(ConnectionWrapper connection, String sql,
      CallableStatement raw) {
    return raw == null ? null : new GeneratedCallableStatement(connection, sql, raw);
  }

  /** The driver's statement, as the type this wrapper was made for. */
  final CallableStatement callable() {
    return (CallableStatement) delegate;
  }
}
