package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.it.support.Causes;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.PoolAssert;
import dev.sluice.it.support.PoolState;
import dev.sluice.it.support.Rig;
import java.util.ArrayList;
import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.TransactionException;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * MyBatis 3.5 over HikariCP over PostgreSQL, Sluice in decorator and driver mode. MyBatis has no
 * exception translator of its own: it wraps every failure in its unchecked
 * {@link PersistenceException}, ours kept as the cause.
 */
class MyBatisTest {

  /** A mapper as applications write them. */
  public interface ItemMapper {
    @Update("create table if not exists it_mybatis_item(id int primary key, label text)")
    void createTable();

    @Update("truncate it_mybatis_item")
    void truncate();

    @Insert("insert into it_mybatis_item(id, label) values (#{id}, #{label})")
    int insert(@Param("id") int id, @Param("label") String label);

    @Select("select label from it_mybatis_item where id = #{id}")
    String label(@Param("id") int id);

    @Select("select count(*) from it_mybatis_item")
    int count();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagClosed_mapperInsertAndSelectWork(Mode mode) {
    try (Rig rig = Rig.of(mode, "mybatis", 1, 1, Scope.STATEMENT, 4)) {
      SqlSessionFactory factory = factory(rig);
      PoolState before = rig.state();
      reset(factory);
      try (SqlSession session = factory.openSession()) {
        ItemMapper mapper = session.getMapper(ItemMapper.class);
        for (int i = 1; i <= 10; i++) {
          mapper.insert(i, "item-" + i);
        }
        session.commit();
      }
      try (SqlSession session = factory.openSession(true)) {
        ItemMapper mapper = session.getMapper(ItemMapper.class);
        assertThat(mapper.count()).isEqualTo(10);
        assertThat(mapper.label(4)).isEqualTo("item-4");
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  /**
   * Under auto-commit the statement is refused: MyBatis wraps ours directly in its
   * {@link PersistenceException} ("### Error querying database. Cause: ...").
   */
  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagOpen_refusedSelect_surfacesAsPersistenceExceptionCausedByOurs(Mode mode) {
    try (Rig rig = Rig.of(mode, "mybatis", 2, 1, Scope.STATEMENT, 4)) {
      SqlSessionFactory factory = factory(rig);
      reset(factory);
      PoolState before = rig.state();
      rig.openFlag();
      List<PersistenceException> failures = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        try (SqlSession session = factory.openSession(true)) {
          session.getMapper(ItemMapper.class).count();
        } catch (PersistenceException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("selects refused by a 2/s budget").hasSizeGreaterThan(10);
      for (PersistenceException e : failures) {
        assertThat(e.getClass()).as(Causes.describe(e)).isEqualTo(PersistenceException.class);
        assertThat(e.getCause()).isInstanceOf(RateLimitExceededException.class);
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  /**
   * A manual-commit session is refused where MyBatis turns auto-commit off, before its first
   * statement: MyBatis reports that as a {@link TransactionException} ("Error configuring
   * AutoCommit") inside its {@link PersistenceException}; nothing of the session is written.
   */
  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagOpen_refusedSession_surfacesAsTransactionExceptionAndWritesNothing(Mode mode) {
    try (Rig rig = Rig.of(mode, "mybatis", 2, 1, Scope.STATEMENT, 4)) {
      SqlSessionFactory factory = factory(rig);
      reset(factory);
      PoolState before = rig.state();
      rig.openFlag();
      List<PersistenceException> failures = new ArrayList<>();
      for (int i = 1; i <= 20; i++) {
        try (SqlSession session = factory.openSession()) {
          ItemMapper mapper = session.getMapper(ItemMapper.class);
          mapper.insert(i, "a");
          mapper.insert(100 + i, "b");
          session.commit();
        } catch (PersistenceException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("sessions refused by a 2/s budget").hasSizeGreaterThan(10);
      for (PersistenceException e : failures) {
        assertThat(Causes.find(e, TransactionException.class)).as(Causes.describe(e)).isNotNull();
        assertThat(Causes.isRejection(e)).as(Causes.describe(e)).isTrue();
      }
      try (SqlSession session = factory.openSession(true)) {
        assertThat(session.getMapper(ItemMapper.class).count()).as("whole sessions only")
            .isEqualTo(2 * (20 - failures.size()));
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  private static SqlSessionFactory factory(Rig rig) {
    Configuration config = new Configuration(
        new Environment("sluice-it", new JdbcTransactionFactory(), rig.dataSource()));
    config.addMapper(ItemMapper.class);
    return new SqlSessionFactoryBuilder().build(config);
  }

  private static void reset(SqlSessionFactory factory) {
    try (SqlSession session = factory.openSession(true)) {
      ItemMapper mapper = session.getMapper(ItemMapper.class);
      mapper.createTable();
      mapper.truncate();
    }
  }
}
