package dev.sluice.internal.answer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a MariaDB (or MySQL) session is, through MariaDB Connector/J, for {@code SessionBase}: the
 * driver's URL (its options decide how values are read), the server ({@code @@hostname},
 * {@code @@port}, {@code @@server_id}, its version), the default database ({@code USE} or the
 * URL's), the user, the account and the role, every session variable
 * ({@code information_schema.SESSION_VARIABLES}: {@code time_zone}, {@code sql_mode}, the
 * character sets and collations, {@code div_precision_increment}…, less the per-connection
 * counters in {@link #PER_CONNECTION}) and every user variable
 * ({@code information_schema.USER_VARIABLES}: a function may read one) — digested. With it, the
 * catalog the write fences need: views (they read other tables), tables with triggers or that
 * cascading foreign keys reference (their writes reach others), and stored functions (anything).
 *
 * <p>A session with temporary tables is not known (one may hide a table of the same name): the
 * server lists them in {@code information_schema.TABLES} from MariaDB 11.2 on; before that
 * Sluice cannot see a temporary table made before it followed the session — a limit
 * {@code docs/answers.md} states. A database without {@code USER_VARIABLES} (MySQL) makes the
 * query fail: the session is not known.
 *
 * <p>Its queries change what the session's {@code FOUND_ROWS()}, {@code ROW_COUNT()} and
 * {@code SHOW WARNINGS} report next, as any statement does: Sluice reads a session only at an
 * admitted read while limiting, before the read runs.
 *
 * <p>Three queries on the session's own connection, once per physical connection per episode of
 * limiting and after a change Sluice could not read. Threadsafe (no state).
 */
final class MariaDbSession {
  /** Session variables that differ per connection or per statement, and say nothing of reads. */
  static final Set<String> PER_CONNECTION = Set.of("PSEUDO_THREAD_ID", "RAND_SEED1",
      "RAND_SEED2", "TIMESTAMP", "LAST_INSERT_ID", "INSERT_ID", "IDENTITY", "WARNING_COUNT",
      "ERROR_COUNT", "LAST_GTID", "GTID_SEQ_NO", "IN_TRANSACTION", "THREAD_ID");

  static final String IDENTITY = "SELECT DATABASE(), USER(), CURRENT_USER(), CURRENT_ROLE(),"
      + " @@hostname, @@port, @@server_id, VERSION(),"
      + " (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_TYPE LIKE '%TEMPORARY%')";

  /** The user variables ({@code u}), views, tables whose writes reach others, functions. */
  static final String LISTS = "SELECT 'u', CONCAT(VARIABLE_NAME, '=',"
      + " COALESCE(VARIABLE_VALUE, '<null>')) FROM information_schema.USER_VARIABLES"
      + " UNION ALL SELECT 'v', LOWER(TABLE_NAME) FROM information_schema.VIEWS"
      + " UNION ALL SELECT 'w', LOWER(EVENT_OBJECT_TABLE) FROM information_schema.TRIGGERS"
      + " UNION ALL SELECT 'w', LOWER(REFERENCED_TABLE_NAME)"
      + " FROM information_schema.REFERENTIAL_CONSTRAINTS"
      + " WHERE DELETE_RULE NOT IN ('RESTRICT', 'NO ACTION')"
      + " OR UPDATE_RULE NOT IN ('RESTRICT', 'NO ACTION')"
      + " UNION ALL SELECT 'f', LOWER(ROUTINE_NAME) FROM information_schema.ROUTINES"
      + " WHERE ROUTINE_TYPE = 'FUNCTION' ORDER BY 1, 2";

  static final String VARIABLES = "SELECT VARIABLE_NAME, VARIABLE_VALUE"
      + " FROM information_schema.SESSION_VARIABLES ORDER BY VARIABLE_NAME";

  private MariaDbSession() {}

  /** What was read: the session's text, to be digested, and the fences' catalog. */
  record Read(String text, TableReach reach) {}

  /** The session as read, or {@code null}: temporary tables. */
  static Read read(Connection connection, String url) throws SQLException {
    StringBuilder text = new StringBuilder(8192).append(url).append('\0');
    List<String> views = new ArrayList<>();
    List<String> reach = new ArrayList<>();
    List<String> functions = new ArrayList<>();
    try (Statement s = connection.createStatement()) {
      try (ResultSet r = s.executeQuery(IDENTITY)) {
        if (!r.next() || r.getLong(9) != 0) {
          return null;
        }
        for (int c = 1; c <= 8; c++) {
          text.append(r.getString(c)).append('\0');
        }
      }
      try (ResultSet r = s.executeQuery(LISTS)) {
        while (r.next()) {
          switch (r.getString(1)) {
            case "u" -> text.append("@").append(r.getString(2)).append('\n');
            case "v" -> views.add(r.getString(2));
            case "w" -> reach.add(r.getString(2));
            default -> functions.add(r.getString(2));
          }
        }
      }
      try (ResultSet r = s.executeQuery(VARIABLES)) {
        while (r.next()) {
          if (!PER_CONNECTION.contains(r.getString(1))) {
            text.append(r.getString(1)).append('=').append(r.getString(2)).append('\n');
          }
        }
      }
    }
    return new Read(text.toString(), TableReach.of(String.join(",", views),
        String.join(",", reach), String.join(",", functions)));
  }
}
