package dev.sluice.internal.redis;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.RedisUri;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where Redis is and how to log in, parsed from one of:
 *
 * <ul>
 *   <li>{@code redis://[[user:]password@]host[:port][/db]} — one server;
 *   <li>{@code rediss://...} — the same over TLS;
 *   <li>{@code redis-sentinel://[[user:]password@]host[:port][,host[:port]...]/master[/db]} — the
 *       master named {@code master}, found through the listed Sentinels (port 26379 by default).
 *       The login is the master's; the Sentinels are asked without one.
 * </ul>
 *
 * <p>As in {@code redis-cli -u}, a user-info without a colon is a password. {@link #toString()}
 * masks the password.
 *
 * @param host the server's host (for Sentinel: the first Sentinel's)
 * @param port the server's port, 6379 when the URI gives none (for Sentinel: the first's)
 * @param user the ACL user, or {@code null} for the default user
 * @param password the password, or {@code null}
 * @param database the database index, 0 when the URI gives none
 * @param tls whether to connect with TLS ({@code rediss://})
 * @param master the Sentinel master name, or {@code null} for one server
 * @param sentinels the Sentinels as {@code host:port}, empty for one server
 */
public record RedisEndpoint(String host, int port, String user, String password, int database,
    boolean tls, String master, List<String> sentinels) {

  /** Redis' well-known port. */
  public static final int DEFAULT_PORT = 6379;
  /** Sentinel's well-known port. */
  public static final int DEFAULT_SENTINEL_PORT = 26379;

  /** Copies the list of Sentinels. */
  public RedisEndpoint {
    sentinels = List.copyOf(sentinels);
  }

  /** One server, no Sentinel. */
  public RedisEndpoint(String host, int port, String user, String password, int database,
      boolean tls) {
    this(host, port, user, password, database, tls, null, List.of());
  }

  /**
   * Parses a Redis URI.
   *
   * @param text the URI
   * @return the endpoint
   * @throws IllegalArgumentException if it is not a Redis URI (the message masks the password)
   */
  public static RedisEndpoint parse(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    try {
      if (lower.startsWith("redis-sentinel://")) {
        return sentinel(text);
      }
      if (lower.startsWith("redis://") || lower.startsWith("rediss://")) {
        return server(text);
      }
    } catch (IllegalArgumentException e) {
      throw bad(text);
    }
    throw bad(text);
  }

  private static RedisEndpoint server(String text) {
    URI uri = URI.create(text);
    if (uri.getHost() == null || uri.getPort() > 65535) {
      throw bad(text);
    }
    String[] login = login(uri.getUserInfo());
    String path = uri.getPath() == null ? "" : uri.getPath();
    return new RedisEndpoint(uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
        login[0], login[1], database(path.isEmpty() ? "" : path.substring(1)),
        uri.getScheme().equalsIgnoreCase("rediss"));
  }

  /** {@code redis-sentinel://login@h1:p1,h2:p2/master/db}: java.net.URI cannot hold host lists. */
  private static RedisEndpoint sentinel(String text) {
    String rest = text.substring("redis-sentinel://".length());
    int slash = rest.indexOf('/');
    if (slash < 0) {
      throw bad(text);
    }
    String authority = rest.substring(0, slash);
    String[] path = rest.substring(slash + 1).split("/", -1);
    int at = authority.lastIndexOf('@');
    String[] login = login(at < 0 ? null
        : URI.create("x://" + authority.substring(0, at + 1) + "h").getUserInfo());
    List<String> sentinels = new ArrayList<>();
    for (String hostPort : authority.substring(at + 1).split(",", -1)) {
      URI one = URI.create("x://" + hostPort);
      if (one.getHost() == null || one.getPort() > 65535 || one.getRawPath().length() > 0) {
        throw bad(text);
      }
      int port = one.getPort() < 0 ? DEFAULT_SENTINEL_PORT : one.getPort();
      sentinels.add(one.getHost() + ":" + port);
    }
    if (path.length > 2 || path[0].isEmpty()) {
      throw bad(text);
    }
    URI first = URI.create("x://" + sentinels.get(0));
    return new RedisEndpoint(first.getHost(), first.getPort(), login[0], login[1],
        database(path.length == 2 ? path[1] : ""), false, path[0], sentinels);
  }

  /** {@code {user, password}} from a decoded user-info; either may be null. */
  private static String[] login(String info) {
    if (info == null) {
      return new String[2];
    }
    int colon = info.indexOf(':');
    String user = colon > 0 ? info.substring(0, colon) : null;
    String password = colon >= 0 ? info.substring(colon + 1) : info;
    return new String[] {user, password.isEmpty() ? null : password};
  }

  private static int database(String text) {
    if (text.isEmpty()) {
      return 0;
    }
    if (!text.chars().allMatch(Character::isDigit) || text.length() > 9) {
      throw new IllegalArgumentException("db");
    }
    return Integer.parseInt(text);
  }

  private static IllegalArgumentException bad(String text) {
    return Keys.REDIS.invalid(RedisUri.mask(text));
  }

  /** Whether the master is found through Sentinel. */
  public boolean viaSentinel() {
    return master != null;
  }

  /** The server (or the Sentinels and master) without the login, safe to log. */
  public String address() {
    return viaSentinel() ? master + " via " + String.join(",", sentinels) : hostPort(host, port);
  }

  static String hostPort(String host, int port) {
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
    if (viaSentinel()) {
      return "redis-sentinel://" + login + String.join(",", sentinels) + "/" + master + "/"
          + database;
    }
    return (tls ? "rediss://" : "redis://") + login + address() + "/" + database;
  }
}
