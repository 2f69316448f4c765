package dev.sluice.internal.driver;

import dev.sluice.internal.config.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * What the driver needs to know about a database URL without parsing it the way its driver does:
 * a form safe to show, and a budget name made of its host, port and database.
 *
 * <p>This class is stateless and threadsafe.
 */
public final class JdbcUrls {

  private static final Set<String> HOST_KEYS = Set.of("host", "servername", "server");
  private static final Set<String> PORT_KEYS = Set.of("port", "portnumber");
  private static final Set<String> DATABASE_KEYS = Set.of("database", "databasename", "dbname",
      "service_name", "sid");
  private static final Pattern KEY_VALUE = Pattern.compile("([A-Za-z_]+)\\s*=\\s*([^()=,;&?]*)");
  private static final int MAX_NAME = 64;

  private JdbcUrls() {}

  /**
   * Returns {@code url} with every password replaced by {@code ****}: {@code password=} values in
   * either parameter style, {@code user:pass@} and Oracle's {@code user/pass@}; the same as
   * {@link Secrets#mask}.
   *
   * @param url a database URL, or {@code null}
   * @return the URL safe for messages and logs
   */
  public static String mask(String url) {
    return Secrets.mask(url);
  }

  /**
   * Derives a budget name from the URL's host, port and database, never from its user, password
   * or other parameters: {@code jdbc:postgresql://db:5432/app?user=x} gives {@code db-5432-app}.
   * Two URLs to one database share a name; URLs to different databases do not.
   *
   * @param url the URL for the real driver, {@code sluice.*} tokens removed
   * @return a valid {@code sluice.name}, or an empty string when nothing fits
   */
  public static String defaultName(String url) {
    int start = UrlParameters.parametersStart(url);
    String head = start < 0 ? url : url.substring(0, start);
    List<String> params = start < 0 ? List.of()
        : UrlParameters.tokens(url, start + 1, url.charAt(start) == '?' ? '&' : ';', true);
    String body = head.startsWith("jdbc:") ? head.substring(5) : head;
    int slashes = body.indexOf("//");
    String host;
    String database;
    if (slashes >= 0) {
      String afterSlashes = body.substring(slashes + 2);
      int path = pathStart(afterSlashes);
      host = hostOf(path < 0 ? afterSlashes : afterSlashes.substring(0, path));
      database = path < 0 ? "" : afterSlashes.substring(path + 1);
    } else {
      String afterProtocol = body.substring(body.indexOf(':') + 1);
      host = hostOf(afterProtocol);
      database = "";
    }
    if (host.isEmpty()) {
      host = valueOf(params, HOST_KEYS) + " " + valueOf(params, PORT_KEYS);
    }
    if (database.isEmpty()) {
      database = valueOf(params, DATABASE_KEYS);
    }
    return fitted(sanitized(host + "-" + database));
  }

  /** The index of the {@code /} that ends the authority (outside parentheses), or -1. */
  private static int pathStart(String afterSlashes) {
    int depth = 0;
    for (int i = 0; i < afterSlashes.length(); i++) {
      char c = afterSlashes.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && depth > 0) {
        depth--;
      } else if (c == '/' && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The host and port of an authority: after its last {@code @} (dropping credentials), and of
   * {@code key=value} forms (MySQL's {@code address=(host=..)(port=..)}, Oracle's descriptors)
   * only the host, port and service values.
   */
  private static String hostOf(String authority) {
    String hosts = authority.substring(authority.lastIndexOf('@') + 1);
    if (hosts.indexOf('=') < 0) {
      return hosts;
    }
    StringBuilder kept = new StringBuilder();
    Matcher m = KEY_VALUE.matcher(hosts);
    while (m.find()) {
      String key = m.group(1).toLowerCase(Locale.ROOT);
      if (HOST_KEYS.contains(key) || PORT_KEYS.contains(key) || DATABASE_KEYS.contains(key)) {
        kept.append(m.group(2).trim()).append(' ');
      }
    }
    return kept.toString().trim();
  }

  private static String valueOf(List<String> params, Set<String> keys) {
    for (String token : params) {
      int eq = token.indexOf('=');
      if (eq > 0 && keys.contains(token.substring(0, eq).trim().toLowerCase(Locale.ROOT))) {
        return token.substring(eq + 1);
      }
    }
    return "";
  }

  /** Runs of characters a name cannot hold become one {@code -}; none at the ends. */
  private static String sanitized(String raw) {
    String dashed = raw.replaceAll("[^A-Za-z0-9._]+", "-");
    return dashed.replaceAll("^[-.]+|[-.]+$", "");
  }

  /** Cuts a long name, keeping it distinct with a checksum of the whole. */
  private static String fitted(String name) {
    if (name.length() <= MAX_NAME) {
      return name;
    }
    CRC32 crc = new CRC32();
    crc.update(name.getBytes(StandardCharsets.UTF_8));
    String suffix = String.format(Locale.ROOT, "-%08x", crc.getValue());
    return name.substring(0, MAX_NAME - suffix.length()) + suffix;
  }
}
