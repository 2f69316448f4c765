package dev.sluice.spring.boot;

import io.micrometer.core.instrument.Tags;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;

/**
 * The OpenTelemetry database tags a pool's JDBC URL reveals, added to a budget's meters:
 * {@code db.system.name} (the semantic conventions' stable values {@code postgresql},
 * {@code mysql}, {@code mariadb}, {@code microsoft.sql_server}; else {@code other_sql}) and
 * {@code db.namespace} (the database named in the URL; empty where the URL names none or is not
 * read). Both are always there, so that every budget's meters have the same tag keys, as
 * Prometheus requires of one name. The URL is the pool's {@code jdbcUrl} or {@code url} bean
 * property (HikariCP, Tomcat, DBCP2, Spring's simple data sources); no connection is opened.
 *
 * <p>Stateless and threadsafe.
 */
final class DatabaseTags {
  static final String SYSTEM = "db.system.name";
  static final String NAMESPACE = "db.namespace";

  private DatabaseTags() {}

  /** The tags of the pool behind {@code bean}, the data source bean Sluice wraps. */
  static Tags of(DataSource bean) {
    String url = url(bean);
    return Tags.of(SYSTEM, system(url), NAMESPACE, namespace(url));
  }

  /** The pool's JDBC URL, or {@code null} when it has no such property or cannot say. */
  static String url(Object pool) {
    try {
      BeanWrapper properties = new BeanWrapperImpl(pool);
      for (String name : new String[] {"jdbcUrl", "url"}) {
        if (properties.isReadableProperty(name)
            && properties.getPropertyValue(name) instanceof String url) {
          return url;
        }
      }
    } catch (RuntimeException cannotSay) {
      // a pool whose getter throws: no tags to read from it
    }
    return null;
  }

  /** The stable {@code db.system.name} of {@code url}, else {@code other_sql}. */
  static String system(String url) {
    String rest = driverPart(url).toLowerCase(Locale.ROOT);
    if (rest.startsWith("postgresql:")) {
      return "postgresql";
    }
    if (rest.startsWith("mysql:")) {
      return "mysql";
    }
    if (rest.startsWith("mariadb:")) {
      return "mariadb";
    }
    return rest.startsWith("sqlserver:") ? "microsoft.sql_server" : "other_sql";
  }

  /**
   * The database {@code url} names: the path of {@code //host[:port]/database} for PostgreSQL,
   * MySQL and MariaDB, {@code databaseName=} for SQL Server; else empty.
   */
  static String namespace(String url) {
    String rest = driverPart(url);
    String system = system(url);
    if (system.equals("microsoft.sql_server")) {
      for (String part : rest.split(";")) {
        if (part.toLowerCase(Locale.ROOT).startsWith("databasename=")) {
          return part.substring("databaseName=".length());
        }
      }
      return "";
    }
    int authority = rest.indexOf("//");
    if (system.equals("other_sql") || authority < 0) {
      return "";
    }
    int slash = rest.indexOf('/', authority + 2);
    if (slash < 0) {
      return "";
    }
    String path = rest.substring(slash + 1);
    int end = path.length();
    for (char stop : new char[] {'?', ';', '/'}) {
      int at = path.indexOf(stop);
      end = at >= 0 ? Math.min(end, at) : end;
    }
    return path.substring(0, end);
  }

  /** {@code url} without {@code jdbc:} (and {@code sluice:}, for a driver-mode URL). */
  private static String driverPart(String url) {
    if (url == null) {
      return "";
    }
    String rest = url.regionMatches(true, 0, "jdbc:", 0, 5) ? url.substring(5) : url;
    return rest.regionMatches(true, 0, "sluice:", 0, 7) ? rest.substring(7) : rest;
  }
}
