package dev.sluice.internal.answer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Locale;

/**
 * What a session is, read from the database once Sluice starts following it: the server and
 * database, the session's user and role, every setting a session may change (the search path,
 * the time zone, the date style…), and the custom settings that row-level security policies,
 * views and functions read ({@code current_setting('app.tenant')}) — digested into one string,
 * part of each key of the session's reads. With it, the catalog the write fences need
 * ({@link TableReach}).
 *
 * <p>PostgreSQL: one query on the session's own connection (about 45 ms on a loaded machine),
 * once per physical connection per episode of limiting, and again after a change Sluice could
 * not read; only for an admitted read, never for a refused one. MariaDB Connector/J and MySQL
 * Connector/J: {@link MariaDbSession}, as often. H2: its URL, user and schema, no
 * query (also for a refused read's connection). Any other database: none (nothing is kept for
 * it anyway).
 *
 * <p>Threadsafe (no state).
 */
final class SessionBase {
  private SessionBase() {}

  /** A session's identity, and the catalog read with it. */
  record Base(String digest, TableReach catalog) {}

  static final String POSTGRES = """
      select current_database(), pg_postmaster_start_time()::text,
        (select oid from pg_database where datname = current_database())::text,
        session_user::text, current_user::text,
        (select string_agg(name || '=' || setting, chr(10) order by name) from pg_settings
          where context in ('user', 'superuser') and name <> 'application_name'),
        (select string_agg(n || '=' || coalesce(current_setting(n, true), '<unset>'), chr(10)
            order by n)
          from (select distinct m[1] as n from (
            select regexp_matches(coalesce(pg_get_expr(polqual, polrelid), '') || ' '
              || coalesce(pg_get_expr(polwithcheck, polrelid), ''),
              'current_setting\\(''([^'']+)''', 'g') as m from pg_policy
            union all select regexp_matches(prosrc, 'current_setting\\(''([^'']+)''', 'g')
              from pg_proc where pronamespace not in ('pg_catalog'::regnamespace,
                'information_schema'::regnamespace)
            union all select regexp_matches(definition, 'current_setting\\(''([^'']+)''', 'g')
              from pg_views where schemaname not in ('pg_catalog', 'information_schema')) x) y),
        exists (select 1 from pg_class where relnamespace = pg_my_temp_schema()),
        (select string_agg(distinct lower(relname), ',') from pg_class c
          where c.relnamespace not in ('pg_catalog'::regnamespace,
              'information_schema'::regnamespace)
            and (c.relkind in ('v', 'm', 'f') or c.relrowsecurity)),
        (select string_agg(distinct lower(relname), ',') from pg_class c
          where c.relkind in ('r', 'p') and c.relnamespace not in ('pg_catalog'::regnamespace,
              'information_schema'::regnamespace)
            and (c.relkind = 'p' or c.relispartition or c.relhasrules
              or exists (select 1 from pg_inherits i
                  where i.inhrelid = c.oid or i.inhparent = c.oid)
              or exists (select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal)
              or exists (select 1 from pg_constraint k where k.confrelid = c.oid
                  and k.contype = 'f' and (k.confdeltype in ('c', 'n', 'd')
                    or k.confupdtype in ('c', 'n', 'd'))))),
        (select string_agg(distinct lower(proname), ',') from pg_proc
          where pronamespace not in ('pg_catalog'::regnamespace,
            'information_schema'::regnamespace)),
        (select string_agg(distinct lower(proname), ',') from pg_proc
          where pronamespace not in ('pg_catalog'::regnamespace,
            'information_schema'::regnamespace) and provolatile = 'v')
      """;

  /**
   * Reads the session of {@code connection} (the driver's own, not Sluice's: the query is
   * neither admitted nor noted); a database that needs a query for it is read only when
   * {@code mayQuery}.
   *
   * @return its base, or {@code null}: a session Sluice cannot know (temporary tables that may
   *     hide a table's name; a database it reads no session of)
   */
  static Base read(Connection connection, boolean mayQuery) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    String product = String.valueOf(meta.getDatabaseProductName()).toLowerCase(Locale.ROOT);
    if (product.contains("postgres")) {
      return mayQuery ? postgres(connection) : null;
    }
    String driver = String.valueOf(meta.getDriverName());
    if (driver.toLowerCase(Locale.ROOT).contains("mariadb") || MySqlDialect.isDriver(driver)) {
      MariaDbSession.Read read = mayQuery ? MariaDbSession.read(connection, meta.getURL()) : null;
      return read == null ? null : new Base(digest(read.text()), read.reach());
    }
    if (product.equals("h2")) {
      return new Base(digest(meta.getURL() + '\0' + meta.getUserName() + '\0'
          + connection.getSchema() + '\0' + connection.getCatalog()), TableReach.UNKNOWN);
    }
    return null;
  }

  private static Base postgres(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(POSTGRES)) {
      if (!r.next() || r.getBoolean(8)) {
        return null; // temporary relations may hide a table of the same name
      }
      StringBuilder text = new StringBuilder();
      for (int c = 1; c <= 7; c++) {
        text.append(r.getString(c)).append('\0');
      }
      return new Base(digest(text.toString()),
          TableReach.of(r.getString(9), r.getString(10), r.getString(11), r.getString(12)));
    }
  }

  /** SHA-256, in Base64: 44 characters for any length of session. */
  static String digest(String text) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return Base64.getEncoder().encodeToString(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is in every JDK", e);
    }
  }
}
