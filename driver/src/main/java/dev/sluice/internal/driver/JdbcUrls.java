package dev.sluice.internal.driver;

import dev.sluice.internal.config.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
  /** A part the readable name can hold as it is, without the join making it ambiguous. */
  private static final Pattern PLAIN_PART = Pattern.compile("[A-Za-z0-9._]+");
  /** One host (not a list, not IPv6) and an optional numeric port. */
  private static final Pattern HOST_PORT = Pattern.compile("([^:,\\[\\]]*)(?::([0-9]+))?");

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
   * Two URLs to one database share a name.
   *
   * <p>Design note: two databases never share a derived name silently. The readable name joins
   * the parts with {@code -}; it is used as it is only when that join loses nothing, that is when
   * every part is made of {@code [A-Za-z0-9._]} alone. Otherwise (a {@code -} in a part, which the
   * join would make ambiguous, or a character a name cannot hold) the name ends in {@code -} and
   * eight hex digits of a CRC-32 of the parts themselves: {@code h2:mem:a:b} gives
   * {@code mem-a-b}, {@code h2:mem:a-b} gives {@code mem-a-b-} and a checksum. The suffix
   * depends on the URL alone, so every instance derives the same name for the same database.
   *
   * @param url the URL for the real driver, {@code sluice.*} tokens removed
   * @return a valid {@code sluice.name}, or an empty string when the URL names nothing
   */
  public static String defaultName(String url) {
    List<String> parts = parts(url);
    if (parts.isEmpty()) {
      return "";
    }
    String readable = sanitized(String.join("-", parts));
    boolean lossless = parts.stream().allMatch(part -> PLAIN_PART.matcher(part).matches());
    return fitted(lossless ? readable : (readable.isEmpty() ? "" : readable + "-")
        + checksum(String.join("\n", parts)));
  }

  /** The non-empty host, port and database parts of a URL, in that order. */
  private static List<String> parts(String url) {
    int start = UrlParameters.parametersStart(url);
    String head = start < 0 ? url : url.substring(0, start);
    List<String> params = start < 0 ? List.of()
        : UrlParameters.tokens(url, start + 1, url.charAt(start) == '?' ? '&' : ';', true);
    String body = head.startsWith("jdbc:") ? head.substring(5) : head;
    List<String> parts = new ArrayList<>();
    String database = "";
    int slashes = body.indexOf("//");
    if (slashes >= 0) {
      String afterSlashes = body.substring(slashes + 2);
      int path = pathStart(afterSlashes);
      addHostAndPort(parts, path < 0 ? afterSlashes : afterSlashes.substring(0, path));
      if (path >= 0) {
        String rest = afterSlashes.substring(path + 1);
        database = rest.substring(0, cut(rest, ':')); // DB2: app:user=x;password=y;
      }
    } else {
      // no authority (H2 mem:orders, Oracle thin:user/pass@db:1521:SID): its ':'-parts, after
      // any credentials
      String opaque = body.substring(body.indexOf(':') + 1);
      opaque = opaque.substring(opaque.lastIndexOf('@') + 1);
      if (opaque.indexOf('=') >= 0) {
        parts.addAll(keyValues(opaque));
      } else {
        parts.addAll(List.of(opaque.split(":", -1)));
      }
    }
    if (parts.stream().allMatch(String::isEmpty)) {
      parts.add(valueOf(params, HOST_KEYS));
      parts.add(valueOf(params, PORT_KEYS));
    }
    parts.add(database.isEmpty() ? valueOf(params, DATABASE_KEYS) : database);
    parts.removeIf(String::isEmpty);
    return parts;
  }

  /** The host and port of an authority, after its last {@code @} (dropping credentials). */
  private static void addHostAndPort(List<String> parts, String authority) {
    String hosts = authority.substring(authority.lastIndexOf('@') + 1);
    if (hosts.indexOf('=') >= 0) {
      parts.addAll(keyValues(hosts));
      return;
    }
    Matcher m = HOST_PORT.matcher(hosts);
    if (m.matches()) {
      parts.add(m.group(1));
      parts.add(m.group(2) == null ? "" : m.group(2));
    } else {
      parts.add(hosts); // several hosts, IPv6: one part, which the checksum keeps distinct
    }
  }

  private static int cut(String text, char at) {
    int i = text.indexOf(at);
    return i < 0 ? text.length() : i;
  }

  private static String checksum(String text) {
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(StandardCharsets.UTF_8));
    return String.format(Locale.ROOT, "%08x", crc.getValue());
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
   * Of {@code key=value} forms (MySQL's {@code address=(host=..)(port=..)}, Oracle's descriptors)
   * only the host, port and service values, in order.
   */
  private static List<String> keyValues(String text) {
    List<String> kept = new ArrayList<>();
    Matcher m = KEY_VALUE.matcher(text);
    while (m.find()) {
      String key = m.group(1).toLowerCase(Locale.ROOT);
      if (HOST_KEYS.contains(key) || PORT_KEYS.contains(key) || DATABASE_KEYS.contains(key)) {
        kept.add(m.group(2).trim());
      }
    }
    return kept;
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
    String suffix = "-" + checksum(name);
    return name.substring(0, MAX_NAME - suffix.length()) + suffix;
  }
}
