package dev.sluice.examples.cacheaside;

/** Reads a user from the database: Hibernate, jOOQ or plain JDBC, always through Sluice. */
@FunctionalInterface
public interface UserDao {

  /**
   * Reads one user.
   *
   * @param id the primary key
   * @return the user, or {@code null} if there is none
   * @throws Exception as the framework reports a failure; a rejection by Sluice is somewhere in
   *     its cause chain
   */
  User find(int id) throws Exception;
}
