package dev.sluice.it.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;

/**
 * A PostgreSQL server for the tests: an embedded one on a free port, or the one that
 * {@code IT_SLUICE_PG_URL} names. Only an embedded server can be stopped and restarted.
 *
 * <p>This class is threadsafe.
 */
public final class Postgres implements AutoCloseable {
  /** Names an existing server, as a JDBC URL with {@code user} and {@code password} parameters. */
  public static final String URL_VARIABLE = "IT_SLUICE_PG_URL";

  private final String jdbcUrl;
  private final int port;
  private final Path dataDirectory;
  private EmbeddedPostgres embedded;

  private Postgres(String jdbcUrl, int port, Path dataDirectory, EmbeddedPostgres embedded) {
    this.jdbcUrl = jdbcUrl;
    this.port = port;
    this.dataDirectory = dataDirectory;
    this.embedded = embedded;
  }

  /** Returns the server {@code IT_SLUICE_PG_URL} names, or else starts an embedded one. */
  static Postgres fromEnvironmentOrEmbedded() {
    String url = System.getenv(URL_VARIABLE);
    if (url != null && !url.isBlank()) {
      return new Postgres(url.trim(), -1, null, null);
    }
    return startEmbedded();
  }

  /** Starts an embedded server on a free port, with a data directory of its own. */
  public static synchronized Postgres startEmbedded() {
    try {
      Path dir = Files.createTempDirectory("sluice-it-pg");
      int port = Ports.free();
      EmbeddedPostgres pg = start(port, dir);
      String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres&password=postgres";
      return new Postgres(url, port, dir, pg);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL", e);
    }
  }

  /** Never cleaned by the library, which would delete the data on stop: {@link #close} does. */
  private static EmbeddedPostgres start(int port, Path dir) throws IOException {
    return EmbeddedPostgres.builder()
        .setPort(port)
        .setDataDirectory(dir)
        .setCleanDataDirectory(false)
        .setServerConfig("max_connections", "300")
        .setServerConfig("fsync", "off")
        .setServerConfig("synchronous_commit", "off")
        .setServerConfig("full_page_writes", "off")
        .start();
  }

  /** The JDBC URL of the server, credentials included as parameters. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** The same server behind the {@code jdbc:sluice:} prefix, with extra {@code params} appended. */
  public String sluiceUrl(String params) {
    String rest = jdbcUrl.substring("jdbc:".length());
    return "jdbc:sluice:" + rest + (rest.contains("?") ? "&" : "?") + params;
  }

  /** Opens a plain connection, bypassing every pool and every limiter. */
  public Connection admin() throws SQLException {
    return DriverManager.getConnection(jdbcUrl);
  }

  /** Runs DDL or DML through a plain connection. */
  public void execute(String... sql) {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (String each : sql) {
        s.execute(each);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("admin SQL failed: " + e.getMessage(), e);
    }
  }

  /** Returns one number from a query run through a plain connection. */
  public long queryLong(String sql) {
    try (Connection c = admin(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("admin SQL failed: " + e.getMessage(), e);
    }
  }

  /** The backend PIDs serving the connections whose application name is {@code applicationName}. */
  public Set<Integer> backendPids(String applicationName) {
    Set<Integer> pids = new TreeSet<>();
    String sql = "select pid from pg_stat_activity where application_name = ?";
    try (Connection c = admin(); var ps = c.prepareStatement(sql)) {
      ps.setString(1, applicationName);
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          pids.add(r.getInt(1));
        }
      }
      return pids;
    } catch (SQLException e) {
      throw new IllegalStateException("could not read pg_stat_activity: " + e.getMessage(), e);
    }
  }

  /** Whether this server was started here, so that it can be stopped and restarted. */
  public boolean isEmbedded() {
    return dataDirectory != null;
  }

  /** Stops an embedded server (fast shutdown: sessions are ended). */
  public synchronized void stop() {
    requireEmbedded();
    try {
      if (embedded != null) {
        embedded.close();
        embedded = null;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop embedded PostgreSQL", e);
    }
  }

  /** Starts a stopped embedded server again, on the same port and data. */
  public synchronized void start() {
    requireEmbedded();
    try {
      if (embedded == null) {
        embedded = start(port, dataDirectory);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not restart embedded PostgreSQL", e);
    }
  }

  private void requireEmbedded() {
    if (!isEmbedded()) {
      throw new IllegalStateException("only an embedded PostgreSQL can be stopped or started");
    }
  }

  @Override
  public synchronized void close() {
    if (embedded != null) {
      try {
        embedded.close();
      } catch (IOException e) {
        // the JVM is exiting; nothing is left to do with a server that will not stop
      }
      embedded = null;
    }
    if (dataDirectory != null) {
      deleteQuietly(dataDirectory);
    }
  }

  /** Deletes what it can: a shutting-down server may still remove files of its own meanwhile. */
  private static void deleteQuietly(Path dir) {
    for (int attempt = 0; attempt < 3 && Files.exists(dir); attempt++) {
      try {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            file.toFile().delete();
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) {
            d.toFile().delete();
            return FileVisitResult.CONTINUE;
          }
        });
      } catch (IOException e) {
        // a temporary directory left behind is not worth failing a test run for
      }
    }
  }


  @Override
  public String toString() {
    return isEmbedded() ? "embedded PostgreSQL on port " + port : "PostgreSQL from " + URL_VARIABLE;
  }
}
