package dev.sluice.internal.answer;

import java.lang.reflect.Method;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What PostgreSQL knows of a session and of the functions a read calls, for
 * {@link PostgresDialect}.
 *
 * <ul>
 *   <li><b>The transaction</b>: pgjdbc's own state ({@code BaseConnection#getTransactionState()},
 *       read from the server's every {@code ReadyForQuery}: idle, open or failed), reached by
 *       {@code unwrap} and reflection, so that the library does not need pgjdbc. Any other
 *       driver, or a wrapper that does not unwrap to it: unknown, so in a transaction.
 *   <li><b>Functions</b>: {@code pg_proc.provolatile} of every function of that name, in every
 *       schema (not only the search path's: the verdict is the same for every session). One
 *       name is eligible when each of them is {@code IMMUTABLE}, or {@code STABLE} and one of
 *       {@code pg_catalog}'s that read only the clock and the time zone ({@link #TIME_LIKE}:
 *       {@code now()} and its kin, whose staleness {@code max-age} bounds); {@code VOLATILE}, or
 *       {@code STABLE} and reading the session ({@code current_setting}, the privilege checks),
 *       or of the application's own: ineligible. A name no function has calls nothing
 *       (PostgreSQL would refuse the call): a keyword before a parenthesis, an alias's columns.
 *   <li><b>Views</b>: a view's definition as the server prints it ({@code pg_get_viewdef}),
 *       read as a read's text is (its calls and the views it reads in turn). Not
 *       {@code pg_depend}: PostgreSQL records no dependency on its own (pinned) functions, so a
 *       view over {@code nextval} shows none there.
 * </ul>
 *
 * <p>A function marked {@code IMMUTABLE} or {@code STABLE} that writes or draws anyway is taken
 * at its word, as PostgreSQL's planner takes it. This class is threadsafe (it has no state but
 * the method it found, published through a {@link ClassValue}).
 */
final class PostgresCatalog {
  /** {@code STABLE} functions of {@code pg_catalog} that read only the clock and the time zone. */
  static final Set<String> TIME_LIKE = Set.of("now", "transaction_timestamp",
      "statement_timestamp", "date_part", "extract", "date_trunc", "age");

  private static final String FUNCTIONS = "SELECT p.proname::text, n.nspname::text,"
      + " p.provolatile::text FROM pg_catalog.pg_proc p"
      + " JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
      + " WHERE p.proname::text = ANY (?)";

  private static final String VIEWS = "SELECT c.relname::text,"
      + " pg_catalog.pg_get_viewdef(c.oid) FROM pg_catalog.pg_class c"
      + " WHERE c.relkind = 'v' AND c.relname::text = ANY (?)";

  /** pgjdbc's {@code getTransactionState()} on a connection's class; {@code null}: none. */
  private static final ClassValue<Method> TRANSACTION_STATE = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      try {
        return type.getMethod("getTransactionState");
      } catch (NoSuchMethodException | SecurityException e) {
        return null;
      }
    }
  };

  private PostgresCatalog() {}

  /** Whether pgjdbc says the session is in a transaction (open or failed); unknown: yes. */
  static boolean inTransaction(Connection connection) {
    try {
      Connection driver = connection.isWrapperFor(Connection.class)
          ? connection.unwrap(Connection.class) : connection;
      Method state = TRANSACTION_STATE.get(driver.getClass());
      if (state == null) {
        return true;
      }
      Object value = state.invoke(driver);
      return !(value instanceof Enum<?> e && e.name().equals("IDLE"));
    } catch (ReflectiveOperationException | SQLException | RuntimeException e) {
      return true;
    }
  }

  /** Whether one function row may stand behind an answer. */
  static boolean eligible(String name, String schema, String volatility) {
    switch (volatility) {
      case "i":
        return true;
      case "s":
        return "pg_catalog".equals(schema) && TIME_LIKE.contains(name);
      default:
        return false;
    }
  }

  static void judgeFunctions(Connection connection, Set<String> names,
      Map<String, Boolean> verdicts) throws SQLException {
    for (String name : names) {
      verdicts.put(name, true); // no function of that name: nothing is called
    }
    try (PreparedStatement s = connection.prepareStatement(FUNCTIONS)) {
      Array array = connection.createArrayOf("text", names.toArray());
      s.setArray(1, array);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (!eligible(rs.getString(1), rs.getString(2), rs.getString(3))) {
            verdicts.put(rs.getString(1), false);
          }
        }
      } finally {
        array.free();
      }
    }
  }

  static Map<String, List<String>> views(Connection connection, Set<String> names)
      throws SQLException {
    Map<String, List<String>> views = new HashMap<>();
    try (PreparedStatement s = connection.prepareStatement(VIEWS)) {
      Array array = connection.createArrayOf("text", names.toArray());
      s.setArray(1, array);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          views.computeIfAbsent(rs.getString(1), v -> new ArrayList<>()).add(rs.getString(2));
        }
      } finally {
        array.free();
      }
    }
    return views;
  }
}
