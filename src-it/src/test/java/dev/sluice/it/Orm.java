package dev.sluice.it;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceConfiguration;
import javax.sql.DataSource;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.jpa.HibernatePersistenceProvider;

/** The two ways an application starts Hibernate ORM 7, both over the data source under test. */
enum Orm {
  /** Hibernate's own bootstrap: {@code StandardServiceRegistry} and {@code MetadataSources}. */
  NATIVE {
    @Override
    EntityManagerFactory start(DataSource dataSource) {
      StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
          .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
          .applySetting(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "drop-and-create")
          .build();
      try {
        return new MetadataSources(registry).addAnnotatedClass(Account.class)
            .buildMetadata().buildSessionFactory();
      } catch (RuntimeException e) {
        StandardServiceRegistryBuilder.destroy(registry);
        throw e;
      }
    }
  },
  /** Plain JPA: {@code PersistenceConfiguration}, no persistence.xml. */
  JPA {
    @Override
    EntityManagerFactory start(DataSource dataSource) {
      return new PersistenceConfiguration("sluice-it")
          .provider(HibernatePersistenceProvider.class.getName())
          .managedClass(Account.class)
          .property(PersistenceConfiguration.SCHEMAGEN_DATABASE_ACTION, "drop-and-create")
          .property(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
          .createEntityManagerFactory();
    }
  };

  abstract EntityManagerFactory start(DataSource dataSource);
}
