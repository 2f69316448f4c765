package dev.sluice.internal.answer;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What MariaDB knows of a session and of the functions a read calls, for {@link MariaDbDialect}
 * and {@link MySqlDialect} (the server's side, whichever driver asks).
 *
 * <ul>
 *   <li>The transaction: the server's status flags the driver keeps from every OK packet, reached
 *       by {@code unwrap} and reflection (the library does not need the driver); any other driver,
 *       or a wrapper that does not unwrap to it, is taken to be in a transaction.
 *   <li>Stored functions ({@code information_schema.ROUTINES}): MariaDB holds a function to none of
 *       its declarations, so one is eligible only when declared {@code DETERMINISTIC} and not
 *       writing <em>and</em> its body is one {@code RETURN} of an eligible expression
 *       ({@link #functionBodies}).
 *   <li>Built-in functions, which the catalog does not list: only those on {@link #BUILT_INS} (pure
 *       ones, the clock's {@link #TIME_LIKE}, keywords before a parenthesis).
 *   <li>Views: {@code VIEW_DEFINITION}, read as a read's text is; unreadable is ineligible.
 * </ul>
 *
 * <p>This class is threadsafe (no state but the methods it found, in {@link ClassValue}s). The
 * long form, with what is not eligible and the tests: docs/answers.md#what-the-server-knows.
 */
final class MariaDbCatalog {
  /** The clock's built-ins: the statement's start, in the session's zone (in the key). */
  static final Set<String> TIME_LIKE = Set.of("now", "current_timestamp", "localtime",
      "localtimestamp", "curdate", "current_date", "curtime", "current_time", "utc_date",
      "utc_time", "utc_timestamp", "unix_timestamp");

  /** Pure built-ins, and the keywords that may stand before a parenthesis. */
  static final Set<String> BUILT_INS = Set.of("select", "from", "where", "and", "or", "not",
      "in", "exists", "values", "as", "on", "using", "join", "any", "all", "some", "row", "case",
      "when", "then", "else", "union", "except", "intersect", "with", "by", "having", "limit",
      "offset", "distinct", "over", "partition", "cast", "convert", "coalesce", "nullif",
      "ifnull", "if", "isnull", "greatest", "least", "interval", "count", "sum", "min", "max",
      "avg", "group_concat", "json_arrayagg", "json_objectagg", "bit_and", "bit_or", "bit_xor",
      "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
      "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
      "first_value", "last_value", "nth_value", "lower", "lcase", "upper", "ucase", "length",
      "char_length", "character_length", "octet_length", "bit_length", "substring", "substr",
      "mid", "trim", "ltrim", "rtrim", "concat", "concat_ws", "replace", "position", "locate",
      "instr", "left", "right", "lpad", "rpad", "repeat", "reverse", "space", "strcmp", "field",
      "find_in_set", "elt", "format", "hex", "unhex", "ascii", "ord", "char", "md5", "sha1",
      "sha2", "crc32", "to_base64", "from_base64", "quote", "soundex", "abs", "ceil", "ceiling",
      "floor", "round", "truncate", "mod", "div", "sign", "sqrt", "pow", "power", "exp", "ln",
      "log", "log2", "log10", "pi", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "cot",
      "degrees", "radians", "conv", "bin", "oct", "date", "time", "year", "month", "day",
      "dayofmonth", "dayofweek", "dayofyear", "weekday", "week", "yearweek", "quarter", "hour",
      "minute", "second", "microsecond", "date_format", "time_format", "str_to_date",
      "date_add", "date_sub", "adddate", "subdate", "addtime", "subtime", "datediff",
      "timediff", "timestampdiff", "timestampadd", "extract", "last_day", "makedate",
      "maketime", "dayname", "monthname", "to_days", "from_days", "to_seconds",
      "sec_to_time", "time_to_sec", "period_add", "period_diff", "json_extract",
      "json_unquote", "json_value", "json_query", "json_contains", "json_contains_path",
      "json_length", "json_keys", "json_type", "json_valid", "json_object", "json_array",
      "json_quote", "json_search", "json_depth", "inet_aton", "inet_ntoa", "inet6_aton",
      "inet6_ntoa", "binary", "collate", "varchar", "decimal", "signed", "unsigned",
      "integer", "int", "double", "float", "match", "against", "regexp", "regexp_replace",
      "regexp_substr", "regexp_instr", "rlike", "like", "between", "is", "null", "true",
      "false");

  /**
   * Built-ins that read or change the session or the server, draw, wait or lock: never eligible,
   * not even when a stored function of the same name is.
   */
  static final Set<String> NEVER = Set.of("get_lock", "release_lock", "release_all_locks",
      "is_free_lock", "is_used_lock", "last_insert_id", "rand", "uuid", "uuid_short", "sys_guid",
      "sleep", "benchmark", "found_rows", "row_count", "connection_id", "database", "schema",
      "user", "current_user", "session_user", "system_user", "current_role", "nextval",
      "lastval", "setval", "sysdate", "load_file", "master_pos_wait", "master_gtid_wait",
      "source_pos_wait", "random_bytes", "version", "name_const", "charset",
      "collation", "coercibility", "default", "get_format", "password",
      "encrypt", "des_encrypt", "aes_encrypt", "kdf", "wsrep_last_seen_gtid",
      "wsrep_last_written_gtid", "wsrep_sync_wait_upto_gtid", "json_table");

  private static final String FUNCTIONS = "SELECT LOWER(ROUTINE_NAME), IS_DETERMINISTIC,"
      + " SQL_DATA_ACCESS FROM information_schema.ROUTINES WHERE ROUTINE_TYPE = 'FUNCTION'";

  private static final String BODIES = "SELECT LOWER(ROUTINE_NAME), ROUTINE_DEFINITION"
      + " FROM information_schema.ROUTINES WHERE ROUTINE_TYPE = 'FUNCTION'";

  private static final String VIEWS = "SELECT LOWER(TABLE_NAME), VIEW_DEFINITION"
      + " FROM information_schema.VIEWS";

  /** Text that is never eligible: a view whose definition the user may not read. */
  static final String UNREADABLE = "@ view definition not readable";

  /** MariaDB Connector/J's way to the status flags: {@code getContext().getServerStatus()}. */
  static final List<ClassValue<Method>> MARIADB_STATUS = List.of(method("getContext"),
      method("getServerStatus"));
  /** MySQL Connector/J's: {@code getSession().getServerSession().getStatusFlags()}. */
  static final List<ClassValue<Method>> MYSQL_STATUS = List.of(method("getSession"),
      method("getServerSession"), method("getStatusFlags"));
  /** The most wrappers unwrapped to reach the driver's connection. */
  private static final int WRAPPERS = 8;
  private static final int IN_TRANSACTION = 1;
  private static final int AUTOCOMMIT = 2;

  private MariaDbCatalog() {}

  private static ClassValue<Method> method(String name) {
    return new ClassValue<>() {
      @Override
      protected Method computeValue(Class<?> type) {
        try {
          return type.getMethod(name);
        } catch (NoSuchMethodException | SecurityException e) {
          return null;
        }
      }
    };
  }

  /** Whether the server says the session is in a transaction, or will be; unknown: yes. */
  static boolean inTransaction(Connection connection) {
    return inTransaction(connection, MARIADB_STATUS);
  }

  /**
   * As {@link #inTransaction(Connection)}, the flags read from the driver's connection through
   * {@code path}, one public getter after another.
   */
  static boolean inTransaction(Connection connection, List<ClassValue<Method>> path) {
    int flags = statusFlags(connection, path);
    return flags < 0 || (flags & IN_TRANSACTION) != 0 || (flags & AUTOCOMMIT) == 0;
  }

  /**
   * The server's status flags as the driver last heard them, read through {@code path}, one
   * public getter after another; {@code -1} when they cannot be read.
   */
  static int statusFlags(Connection connection, List<ClassValue<Method>> path) {
    try {
      Object o = driversOwn(connection);
      for (ClassValue<Method> step : path) {
        Method getter = o == null ? null : step.get(o.getClass());
        o = getter == null ? null : getter.invoke(o);
      }
      return o instanceof Number status ? status.intValue() & 0xFFFF : -1;
    } catch (ReflectiveOperationException | SQLException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * The driver's own connection under {@code connection}, unwrapped through every wrapper that
   * says it wraps one (a pool's over a tracing library's, say: each unwraps one level), at most
   * {@value #WRAPPERS} deep.
   */
  static Connection driversOwn(Connection connection) throws SQLException {
    Connection c = connection;
    for (int i = 0; i < WRAPPERS && c.isWrapperFor(Connection.class); i++) {
      Connection inner = c.unwrap(Connection.class);
      if (inner == null || inner == c) {
        break;
      }
      c = inner;
    }
    return c;
  }

  /** Whether one stored function may stand behind an answer. */
  static boolean eligible(String deterministic, String dataAccess) {
    return "YES".equals(deterministic)
        && ("NO SQL".equals(dataAccess) || "READS SQL DATA".equals(dataAccess));
  }

  /** A built-in's verdict, by its lower-case name. */
  static boolean builtInEligible(String name) {
    return !NEVER.contains(name) && (BUILT_INS.contains(name) || TIME_LIKE.contains(name));
  }

  static void judgeFunctions(Connection connection, Set<String> names,
      Map<String, Boolean> verdicts) throws SQLException {
    Map<String, Boolean> stored = new HashMap<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(FUNCTIONS)) {
      while (rs.next()) {
        stored.merge(rs.getString(1), eligible(rs.getString(2), rs.getString(3)),
            Boolean::logicalAnd);
      }
    }
    for (String name : names) {
      String lower = name.toLowerCase(Locale.ROOT); // MySQL's function names ignore case
      Boolean routine = stored.get(lower);
      // A stored function named as a built-in is not what an unqualified call runs: the
      // built-in is. So a name of the session's or side effects' built-ins is never eligible.
      verdicts.put(name, routine != null ? routine && !NEVER.contains(lower)
          : builtInEligible(lower));
    }
  }

  /**
   * The bodies of the stored functions among {@code names}, each as the read it is when it is
   * one {@code RETURN} of an expression ({@code SELECT <expression>}), else as
   * {@link #UNREADABLE}.
   */
  static Map<String, List<String>> functionBodies(Connection connection, Set<String> names)
      throws SQLException {
    return definitions(connection, BODIES, names, MariaDbCatalog::returned);
  }

  /**
   * A function's body as the read it is: {@code RETURN x * 2} is {@code SELECT x * 2};
   * anything else (statements, or nothing readable) is {@link #UNREADABLE}.
   */
  static String returned(String body) {
    String text = body == null ? "" : body.strip();
    if (text.length() < 7 || !text.regionMatches(true, 0, "return", 0, 6)
        || !(Character.isWhitespace(text.charAt(6)) || text.charAt(6) == '(')) {
      return UNREADABLE;
    }
    return "SELECT " + text.substring(6);
  }

  static Map<String, List<String>> views(Connection connection, Set<String> names)
      throws SQLException {
    return definitions(connection, VIEWS, names,
        definition -> definition == null || definition.isBlank() ? UNREADABLE : definition);
  }

  /** Each name's definitions by {@code query} (its name, then its text), read by {@code read}. */
  private static Map<String, List<String>> definitions(Connection connection, String query,
      Set<String> names, UnaryOperator<String> read) throws SQLException {
    Map<String, List<String>> found = new HashMap<>();
    Map<String, String> wanted = new HashMap<>();
    for (String name : names) {
      wanted.put(name.toLowerCase(Locale.ROOT), name);
    }
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(query)) {
      while (rs.next()) {
        String name = wanted.get(rs.getString(1));
        if (name != null) {
          found.computeIfAbsent(name, v -> new ArrayList<>()).add(read.apply(rs.getString(2)));
        }
      }
    }
    return found;
  }
}
