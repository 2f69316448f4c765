package dev.sluice.internal.answer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a MariaDB (or MySQL) session is, through MariaDB Connector/J, for {@code SessionBase}: the
 * driver's URL, the server, the default database, the user, the account and the role, every
 * session variable (less the per-connection counters in {@link #PER_CONNECTION}) and every user
 * variable, digested; and with it the catalog the write fences need (views, tables with triggers or
 * referenced by cascading foreign keys, stored functions).
 *
 * <p>A session with temporary tables is not known (one may hide a table of the same name), and the
 * server lists them only from MariaDB 11.2 on; a database without {@code USER_VARIABLES} (MySQL)
 * is not known either. Its queries change what {@code FOUND_ROWS()}, {@code ROW_COUNT()} and
 * {@code SHOW WARNINGS} report next, so a session is read only at an admitted read while limiting,
 * before the read runs: three light queries once per physical connection per episode of limiting.
 * The costly catalog is read once a second per database, account and role, by one caller while
 * the others wait for it ({@link #catalog}). Threadsafe.
 *
 * <p>The long form, with the costs and the tests: docs/answers.md#the-mariadb-session.
 */
final class MariaDbSession {
  /** Session variables that differ per connection or per statement, and say nothing of reads. */
  static final Set<String> PER_CONNECTION = Set.of("PSEUDO_THREAD_ID", "RAND_SEED1",
      "RAND_SEED2", "TIMESTAMP", "LAST_INSERT_ID", "INSERT_ID", "IDENTITY", "WARNING_COUNT",
      "ERROR_COUNT", "LAST_GTID", "GTID_SEQ_NO", "IN_TRANSACTION", "THREAD_ID");

  static final String IDENTITY = "SELECT DATABASE(), USER(), CURRENT_USER(), CURRENT_ROLE(),"
      + " @@hostname, @@port, @@server_id, VERSION()";

  /** As {@link #IDENTITY}, and the temporary tables, where the server lists them. */
  static final String IDENTITY_TEMPORARY = IDENTITY
      + ", (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_TYPE LIKE '%TEMPORARY%')";

  static final String USER_VARIABLES = "SELECT CONCAT(VARIABLE_NAME, '=',"
      + " COALESCE(VARIABLE_VALUE, '<null>')) FROM information_schema.USER_VARIABLES ORDER BY 1";

  /** Views ({@code v}), tables whose writes reach others ({@code w}), functions ({@code f}). */
  static final String LISTS = "SELECT 'v', LOWER(TABLE_NAME) FROM information_schema.VIEWS"
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

  /** How long a catalog read serves every session of its database and user. */
  static final long CATALOG_NANOS = 1_000_000_000L;
  /** The longest a session waits for the catalog another is reading; then it is not known. */
  static final long CATALOG_WAIT_MILLIS = 200;
  private static final int CATALOGS_KEPT = 64;

  /** A catalog as read, by whom it is being read, and when. */
  private record Catalog(CompletableFuture<TableReach> reach, long atNanos) {}

  /** Per database URL and user: the catalog read last. */
  private static final ConcurrentHashMap<String, Catalog> CATALOGS = new ConcurrentHashMap<>();

  /** The session as read, or {@code null}: temporary tables, or the catalog not read in time. */
  static Read read(Connection connection, String url) throws SQLException {
    StringBuilder text = new StringBuilder(8192).append(url).append('\0');
    boolean temporaryListed = listsTemporaryTables(connection);
    String user;
    try (Statement s = connection.createStatement()) {
      try (ResultSet r = s.executeQuery(temporaryListed ? IDENTITY_TEMPORARY : IDENTITY)) {
        if (!r.next() || temporaryListed && r.getLong(9) != 0) {
          return null;
        }
        for (int c = 1; c <= 8; c++) {
          text.append(r.getString(c)).append('\0');
        }
        user = r.getString(3) + '\0' + r.getString(4); // the account and its role: what it sees
      }
      try (ResultSet r = s.executeQuery(USER_VARIABLES)) {
        while (r.next()) {
          text.append("@").append(r.getString(1)).append('\n');
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
    TableReach reach = catalog(connection, url + '\0' + user, System.nanoTime());
    return reach == null ? null : new Read(text.toString(), reach);
  }

  /** Whether the server lists temporary tables in {@code information_schema.TABLES}. */
  static boolean listsTemporaryTables(Connection connection) throws SQLException {
    java.sql.DatabaseMetaData meta = connection.getMetaData();
    if (!String.valueOf(meta.getDatabaseProductVersion()).toLowerCase(java.util.Locale.ROOT)
        .contains("mariadb")) {
      return true; // not known to list none: asked, and a count of 0 believed
    }
    int major = meta.getDatabaseMajorVersion();
    return major > 11 || major == 11 && meta.getDatabaseMinorVersion() >= 2;
  }

  /**
   * The catalog of the database and user {@code key} names, read at most once a second: by one
   * caller, while the others wait for it at most {@value #CATALOG_WAIT_MILLIS} ms.
   *
   * @return it, or {@code null} when it could not be read in time (the session is then not known)
   */
  static TableReach catalog(Connection connection, String key, long now) throws SQLException {
    Catalog known = CATALOGS.get(key);
    if (known != null && now - known.atNanos() < CATALOG_NANOS) {
      return await(known.reach());
    }
    Catalog mine = new Catalog(new CompletableFuture<>(), now);
    boolean claimed = known == null ? CATALOGS.putIfAbsent(key, mine) == null
        : CATALOGS.replace(key, known, mine);
    if (!claimed) {
      Catalog other = CATALOGS.get(key);
      return other == null ? null : await(other.reach());
    }
    if (CATALOGS.size() > CATALOGS_KEPT) {
      CATALOGS.keySet().removeIf(k -> !k.equals(key));
    }
    try {
      TableReach reach = readCatalog(connection);
      mine.reach().complete(reach);
      return reach;
    } catch (SQLException | RuntimeException e) {
      mine.reach().complete(null);
      CATALOGS.remove(key, mine); // the next caller asks again
      throw e;
    }
  }

  private static TableReach await(CompletableFuture<TableReach> reach) {
    try {
      return reach.get(CATALOG_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException | TimeoutException e) {
      return null;
    }
  }

  private static TableReach readCatalog(Connection connection) throws SQLException {
    List<String> views = new ArrayList<>();
    List<String> reach = new ArrayList<>();
    List<String> functions = new ArrayList<>();
    try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(LISTS)) {
      while (r.next()) {
        switch (r.getString(1)) {
          case "v" -> views.add(r.getString(2));
          case "w" -> reach.add(r.getString(2));
          default -> functions.add(r.getString(2));
        }
      }
    }
    return TableReach.of(String.join(",", views), String.join(",", reach),
        String.join(",", functions));
  }
}
