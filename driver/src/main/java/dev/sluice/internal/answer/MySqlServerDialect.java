package dev.sluice.internal.answer;

import dev.sluice.internal.sql.Lexer;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's side of a dialect for MariaDB or MySQL, whichever driver asks: the text read with
 * {@link Lexer#MYSQL}, names as written, the transaction from the driver's status flags and the
 * functions, their bodies and the views from {@link MariaDbCatalog}. {@link MariaDbDialect} and
 * {@link MySqlDialect} add their driver's getters.
 */
abstract class MySqlServerDialect extends Dialect {
  private final String name;
  /** The driver's way from its connection to the server's status flags. */
  private final List<ClassValue<Method>> statusPath;

  MySqlServerDialect(String name, List<ClassValue<Method>> statusPath) {
    this.name = name;
    this.statusPath = statusPath;
  }

  @Override
  final String name() {
    return name;
  }

  @Override
  final int syntax() {
    return Lexer.MYSQL;
  }

  @Override
  final boolean foldsToUpper() {
    return false;
  }

  @Override
  final boolean inTransaction(Connection connection) {
    return MariaDbCatalog.inTransaction(connection, statusPath);
  }

  /** The server's status flags as the driver last heard them; {@code -1}: unknown. */
  final int statusFlags(Connection connection) {
    return MariaDbCatalog.statusFlags(connection, statusPath);
  }

  @Override
  final void judgeFunctions(Connection connection, Set<String> names,
      Map<String, Boolean> verdicts) throws SQLException {
    MariaDbCatalog.judgeFunctions(connection, names, verdicts);
  }

  @Override
  final Map<String, List<String>> functionBodies(Connection connection, Set<String> names)
      throws SQLException {
    return MariaDbCatalog.functionBodies(connection, names);
  }

  @Override
  final Map<String, List<String>> views(Connection connection, Set<String> names)
      throws SQLException {
    return MariaDbCatalog.views(connection, names);
  }
}
