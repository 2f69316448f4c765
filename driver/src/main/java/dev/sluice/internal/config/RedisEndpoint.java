package dev.sluice.internal.config;

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
 *   <li>{@code redis-cluster://[[user:]password@]host[:port][,host[:port]...]} — a Redis Cluster,
 *       found through any of the listed nodes (port 6379 by default). No database index: a cluster
 *       has only database 0.
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
 * @param nodes the cluster nodes to start from as {@code host:port}, empty unless a cluster
 */
public record RedisEndpoint(String host, int port, String user, String password, int database,
    boolean tls, String master, List<String> sentinels, List<String> nodes) {

  /** Redis' well-known port. */
  public static final int DEFAULT_PORT = 6379;
  /** Sentinel's well-known port. */
  public static final int DEFAULT_SENTINEL_PORT = 26379;

  /**
   * The key whose value is a Redis URI, {@code sluice.redis}: {@link Keys#REDIS} is declared with
   * this name and {@link #FORMS}, and this parser's messages name it, so that a URI checked
   * alone fails as the key does.
   */
  static final String KEY = "sluice.redis";
  /** What a Redis URI looks like, completing "{@code sluice.redis must ...}". */
  static final String FORMS = "be a URI `redis://[user:password@]host:port[/db]` or"
      + " `rediss://...` or `redis-sentinel://[user:password@]host:port[,host:port...]/master[/db]`"
      + " or `redis-cluster://[user:password@]host:port[,host:port...]`";

  private static final String CLUSTER_SCHEME = "redis-cluster://";
  private static final String CLUSTER_FORM =
      "`redis-cluster://[user:password@]host:port[,host:port...]`";

  /** Copies the lists of Sentinels and nodes. */
  public RedisEndpoint {
    sentinels = List.copyOf(sentinels);
    nodes = List.copyOf(nodes);
  }

  /** One server, or a master found through Sentinel. */
  public RedisEndpoint(String host, int port, String user, String password, int database,
      boolean tls, String master, List<String> sentinels) {
    this(host, port, user, password, database, tls, master, sentinels, List.of());
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
      if (lower.startsWith(CLUSTER_SCHEME)) {
        return cluster(text);
      }
      if (lower.startsWith("redis://") || lower.startsWith("rediss://")) {
        return server(text);
      }
    } catch (ClusterUriException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw bad(text);
    }
    throw bad(text);
  }

  /**
   * The parser of {@code sluice.redis}: returns {@code text} if it is a usable Redis URI.
   *
   * @throws IllegalArgumentException naming the key if it is not
   */
  static String check(String text) {
    parse(text);
    return text;
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

  /**
   * {@code redis-cluster://login@h1:p1,h2:p2}. Its own messages say what is wrong: a cluster URI
   * is new to most users, and "no database index" is not something they would guess.
   */
  private static RedisEndpoint cluster(String text) {
    String rest = text.substring(CLUSTER_SCHEME.length());
    int at = rest.lastIndexOf('@');
    String[] login = login(at < 0 ? null
        : URI.create("x://" + rest.substring(0, at + 1) + "h").getUserInfo());
    String hosts = rest.substring(at + 1);
    int slash = hosts.indexOf('/');
    if (slash >= 0) {
      if (slash < hosts.length() - 1) {
        throw clusterBad(text, "have no database index (a Redis Cluster has only database 0)");
      }
      hosts = hosts.substring(0, slash);
    }
    if (hosts.isEmpty()) {
      throw clusterBad(text, "name at least one cluster node");
    }
    List<String> nodes = new ArrayList<>();
    for (String hostPort : hosts.split(",", -1)) {
      nodes.add(clusterNode(text, hostPort));
    }
    URI first = URI.create("x://" + nodes.get(0));
    return new RedisEndpoint(first.getHost(), first.getPort(), login[0], login[1], 0, false,
        null, List.of(), nodes);
  }

  /** One {@code host[:port]} of a cluster URI, as {@code host:port}. */
  private static String clusterNode(String text, String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    boolean hasPort = colon > hostPort.lastIndexOf(']');
    String host = hasPort ? hostPort.substring(0, colon) : hostPort;
    if (host.isEmpty()) {
      throw clusterBad(text, "name each cluster node as host:port");
    }
    int port = hasPort ? clusterPort(text, hostPort.substring(colon + 1)) : DEFAULT_PORT;
    URI one = URI.create("x://" + host + ":" + port);
    if (one.getHost() == null || one.getRawPath().length() > 0) {
      throw clusterBad(text, "name each cluster node as host:port");
    }
    return one.getHost() + ":" + port;
  }

  private static int clusterPort(String text, String port) {
    if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)
        || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
      throw clusterBad(text, "give each cluster node a port from 1 to 65535");
    }
    return Integer.parseInt(port);
  }

  /** {@code sluice.redis must be a URI redis-cluster://... and <what>, but was "..."}. */
  private static IllegalArgumentException clusterBad(String text, String what) {
    return new ClusterUriException(KEY + " must be a URI " + CLUSTER_FORM + " and " + what
        + ", but was \"" + Secrets.mask(text) + "\"");
  }

  /** A bad cluster URI whose message says exactly what is wrong; {@link #parse} keeps it. */
  private static final class ClusterUriException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    ClusterUriException(String message) {
      super(message);
    }
  }

  /**
   * Returns this endpoint with {@code newPassword}.
   *
   * @param newPassword the password
   * @return a copy with that password
   */
  public RedisEndpoint withPassword(String newPassword) {
    return new RedisEndpoint(host, port, user, newPassword, database, tls, master, sentinels,
        nodes);
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

  /** {@code sluice.redis must be a URI ..., but was "..."}, as {@link Key#invalid} says it. */
  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException(KEY + " must " + FORMS + ", but was \""
        + Secrets.mask(text) + "\"");
  }

  /** Whether the master is found through Sentinel. */
  public boolean viaSentinel() {
    return master != null;
  }

  /** Whether this is a Redis Cluster. */
  public boolean cluster() {
    return !nodes.isEmpty();
  }

  /** The server (or the Sentinels and master, or the cluster nodes) without the login. */
  public String address() {
    if (cluster()) {
      return "cluster " + String.join(",", nodes);
    }
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
    if (cluster()) {
      return CLUSTER_SCHEME + login + String.join(",", nodes);
    }
    if (viaSentinel()) {
      return "redis-sentinel://" + login + String.join(",", sentinels) + "/" + master + "/"
          + database;
    }
    return (tls ? "rediss://" : "redis://") + login + address() + "/" + database;
  }
}
