package dev.sluice.examples.drivermode;

import dev.sluice.examples.cacheaside.User;
import dev.sluice.examples.cacheaside.UserDao;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Plain JDBC: reads a user through whatever data source it is given. Threadsafe. */
public final class JdbcUsers implements UserDao {
  private final DataSource dataSource;

  /**
   * Creates the reader.
   *
   * @param dataSource the pool; in driver mode its URL starts with {@code jdbc:sluice:}
   */
  public JdbcUsers(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public User find(int id) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT id, name FROM users WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new User(rs.getInt(1), rs.getString(2)) : null;
      }
    }
  }
}
