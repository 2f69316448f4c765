package dev.sluice.internal.redis;

import dev.sluice.internal.config.RedisUri;
import java.net.URI;
import java.util.Locale;

/**
 * Where a Redis server is and how to log in: parsed from {@code redis://[[user:]password@]host
 * [:port][/db]} or {@code rediss://...} (TLS). As in {@code redis-cli -u}, a user-info without a
 * colon is a password. {@link #toString()} masks the password.
 *
 * @param host the host name or address
 * @param port the port, 6379 when the URI gives none
 * @param user the ACL user, or {@code null} for the default user
 * @param password the password, or {@code null}
 * @param database the database index, 0 when the URI gives none
 * @param tls whether to connect with TLS ({@code rediss://})
 */
public record RedisEndpoint(String host, int port, String user, String password, int database,
    boolean tls) {

  /** Redis' well-known port. */
  public static final int DEFAULT_PORT = 6379;

  /**
   * Parses a URI already checked by {@code sluice.redis}.
   *
   * @param text the URI
   * @return the endpoint
   * @throws IllegalArgumentException if it is not a Redis URI (the message masks the password)
   */
  public static RedisEndpoint parse(String text) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw bad(text);
    }
    String scheme = String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT);
    if (!scheme.equals("redis") && !scheme.equals("rediss") || uri.getHost() == null) {
      throw bad(text);
    }
    String user = null;
    String password = null;
    String info = uri.getUserInfo();
    if (info != null) {
      int colon = info.indexOf(':');
      user = colon > 0 ? info.substring(0, colon) : null;
      password = colon >= 0 ? info.substring(colon + 1) : info;
    }
    return new RedisEndpoint(uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
        user, password == null || password.isEmpty() ? null : password, database(uri, text),
        scheme.equals("rediss"));
  }

  private static int database(URI uri, String text) {
    String path = uri.getPath();
    if (path == null || path.isEmpty() || path.equals("/")) {
      return 0;
    }
    try {
      return Integer.parseInt(path.substring(1));
    } catch (NumberFormatException e) {
      throw bad(text);
    }
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException("sluice.redis must be a URI"
        + " `redis://[user:password@]host:port[/db]` or `rediss://...`, but was \""
        + RedisUri.mask(text) + "\"");
  }

  /** The address as {@code host:port}, safe to log. */
  public String address() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  @Override
  public String toString() {
    String login = user != null ? user : "";
    if (password != null) {
      login += ":****@";
    } else if (user != null) {
      login += "@";
    }
    return (tls ? "rediss://" : "redis://") + login + address() + "/" + database;
  }
}
