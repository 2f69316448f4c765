package dev.sluice.examples.jooq;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.sluice.examples.cacheaside.User;
import dev.sluice.examples.cacheaside.UserDao;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * jOOQ over Sluice: {@code DSL.using(rateLimitedDataSource, dialect)}, and nothing else changes.
 * jOOQ wraps a rejection in its {@code DataAccessException}; the cause chain holds Sluice's
 * {@code RateLimitExceededException}.
 *
 * <p>This class is threadsafe, as a {@link DSLContext} over a data source is.
 */
public final class JooqUsers implements UserDao {
  private static final Table<?> USERS = table(name("USERS"));
  private static final Field<Integer> ID = field(name("ID"), Integer.class);
  private static final Field<String> NAME = field(name("NAME"), String.class);

  private final DSLContext sql;

  /**
   * Creates the reader.
   *
   * @param dataSource the rate-limited data source
   */
  public JooqUsers(DataSource dataSource) {
    this.sql = DSL.using(dataSource, SQLDialect.H2);
  }

  @Override
  public User find(int id) {
    Record2<Integer, String> row = sql.select(ID, NAME).from(USERS).where(ID.eq(id)).fetchOne();
    return row == null ? null : new User(row.value1(), row.value2());
  }
}
