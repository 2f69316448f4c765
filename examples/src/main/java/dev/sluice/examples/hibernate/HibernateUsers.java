package dev.sluice.examples.hibernate;

import dev.sluice.examples.cacheaside.User;
import dev.sluice.examples.cacheaside.UserDao;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;

/**
 * Hibernate over Sluice: the session factory gets the {@code RateLimitedDataSource} as its data
 * source, and nothing else changes.
 *
 * <p>Each read runs in a transaction. In Sluice's default {@code STATEMENT} scope the transaction
 * is admitted at its start ({@code setAutoCommit(false)}), so a rejection surfaces from
 * {@code beginTransaction()} — never half-way through, where Hibernate would mark the transaction
 * rollback-only (and on PostgreSQL {@code Session.find} would return {@code null} for the failed
 * read, which looks like "not found").
 *
 * <p>This class is threadsafe, as its {@link SessionFactory} is.
 */
public final class HibernateUsers implements UserDao, AutoCloseable {
  private final SessionFactory sessions;

  /**
   * Builds a session factory over {@code dataSource}.
   *
   * @param dataSource the rate-limited data source
   */
  public HibernateUsers(DataSource dataSource) {
    StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
        .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
        .build();
    this.sessions = new MetadataSources(registry).addAnnotatedClass(UserEntity.class)
        .buildMetadata().buildSessionFactory();
  }

  @Override
  public User find(int id) {
    return sessions.fromTransaction(session -> {
      UserEntity entity = session.find(UserEntity.class, id);
      return entity == null ? null : new User(entity.getId(), entity.getName());
    });
  }

  @Override
  public void close() {
    sessions.close();
  }
}
