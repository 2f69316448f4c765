package dev.sluice.examples.cacheaside;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An H2 database in memory with a {@code users} table of a few rows, and a HikariCP pool over it:
 * the "production" data source the examples decorate with Sluice.
 *
 * <p>This class is threadsafe.
 */
public final class ExampleDatabase implements AutoCloseable {
  private static final AtomicInteger NEXT = new AtomicInteger();

  private final String url;
  private final Connection keepAlive;

  private ExampleDatabase(String url, Connection keepAlive) {
    this.url = url;
    this.keepAlive = keepAlive;
  }

  /**
   * Creates a fresh database with users 1 to 3.
   *
   * @return the database
   * @throws SQLException if H2 fails
   */
  public static ExampleDatabase create() throws SQLException {
    String url = "jdbc:h2:mem:users" + NEXT.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
    Connection c = DriverManager.getConnection(url, "sa", "");
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
      s.execute("INSERT INTO users VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Edsger')");
    }
    return new ExampleDatabase(url, c);
  }

  /**
   * Returns the JDBC URL, for driver mode.
   *
   * @return an H2 URL
   */
  public String url() {
    return url;
  }

  /**
   * Returns a new HikariCP pool over the database.
   *
   * @return a pool; closing it is the caller's
   */
  public HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername("sa");
    config.setPassword("");
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    return new HikariDataSource(config);
  }

  @Override
  public void close() throws SQLException {
    try (Statement s = keepAlive.createStatement()) {
      s.execute("SHUTDOWN");
    } finally {
      keepAlive.close();
    }
  }
}
