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
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring JDBC 6.2 ({@code JdbcTemplate}, {@code DataSourceTransactionManager} with
 * {@code TransactionTemplate}, {@code queryForStream}) over HikariCP over PostgreSQL, Sluice in
 * decorator and driver mode, with Spring's default exception translation.
 */
class SpringJdbcTest {

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagClosed_templateTransactionAndStreamWork(Mode mode) {
    try (Rig rig = Rig.of(mode, "spring", 1, 1, Scope.STATEMENT, 4)) {
      Spring spring = new Spring(rig);
      PoolState before = rig.state();
      spring.createTable();
      spring.tx.executeWithoutResult(status -> {
        for (int i = 1; i <= 10; i++) {
          spring.jdbc.update("insert into it_spring_item(id, label) values (?, ?)", i, "item-" + i);
        }
      });

      assertThat(spring.count()).isEqualTo(10);
      try (Stream<String> labels = spring.jdbc.queryForStream(
          "select label from it_spring_item order by id", (rs, n) -> rs.getString(1))) {
        assertThat(labels.limit(3)).containsExactly("item-1", "item-2", "item-3");
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagOpen_refusedStatement_surfacesAsTransientDataAccessResourceException(Mode mode) {
    try (Rig rig = Rig.of(mode, "spring", 2, 1, Scope.STATEMENT, 4)) {
      Spring spring = new Spring(rig);
      spring.createTable();
      PoolState before = rig.state();
      rig.openFlag();
      List<DataAccessException> failures = new ArrayList<>();
      int streamed = 0;
      for (int i = 0; i < 20; i++) {
        try {
          spring.count();
        } catch (DataAccessException e) {
          failures.add(e);
        }
        try (Stream<Integer> ids = spring.jdbc.queryForStream("select id from it_spring_item",
            (rs, n) -> rs.getInt(1))) {
          streamed += (int) ids.count() + 1;
        } catch (DataAccessException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("statements refused by a 2/s budget").hasSizeGreaterThan(30);
      assertThat(streamed + failures.size()).isGreaterThanOrEqualTo(20);
      for (DataAccessException e : failures) {
        assertThat(e).as(Causes.describe(e))
            .isInstanceOf(TransientDataAccessResourceException.class);
        assertThat(e.getCause()).isInstanceOf(RateLimitExceededException.class);
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagOpen_refusedTransactionStart_surfacesAsCannotCreateTransactionException(Mode mode) {
    try (Rig rig = Rig.of(mode, "spring", 2, 1, Scope.STATEMENT, 4)) {
      Spring spring = new Spring(rig);
      spring.createTable();
      PoolState before = rig.state();
      rig.openFlag();
      List<RuntimeException> failures = new ArrayList<>();
      for (int i = 1; i <= 20; i++) {
        int id = i;
        try {
          spring.tx.executeWithoutResult(status -> {
            spring.jdbc.update("insert into it_spring_item(id, label) values (?, 'a')", id);
            spring.jdbc.update("update it_spring_item set label = 'b' where id = ?", id);
          });
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("transactions refused by a 2/s budget").hasSizeGreaterThan(10);
      for (RuntimeException e : failures) {
        assertThat(e).as(Causes.describe(e)).isInstanceOf(CannotCreateTransactionException.class);
        assertThat(e.getCause()).isInstanceOf(RateLimitExceededException.class);
      }
      assertThat(spring.jdbc.queryForObject(
          "select count(*) from it_spring_item where label = 'b'", Integer.class))
          .as("admitted transactions ran whole").isEqualTo(20 - failures.size());
      assertThat(spring.count()).isEqualTo(20 - failures.size());
      PoolAssert.undisturbed(rig, before);
    }
  }

  /**
   * {@code CONNECTION} scope exists in decorator mode only: in a {@code jdbc:sluice:} URL the
   * driver refuses it, since under a pool it would see physical connections opened, not
   * checkouts.
   */
  @ParameterizedTest
  @EnumSource(value = Mode.class, names = "DECORATOR")
  void connectionScope_refusedCheckout_surfacesAsCannotGetJdbcConnectionException(Mode mode) {
    try (Rig rig = Rig.of(mode, "spring", 2, 1, Scope.CONNECTION, 4)) {
      Spring spring = new Spring(rig);
      spring.createTable();
      PoolState before = rig.state();
      rig.openFlag();
      List<RuntimeException> plain = new ArrayList<>();
      List<RuntimeException> transactional = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        try {
          spring.count();
        } catch (RuntimeException e) {
          plain.add(e);
        }
        try {
          spring.tx.executeWithoutResult(status -> spring.count());
        } catch (RuntimeException e) {
          transactional.add(e);
        }
      }
      rig.closeFlag();

      assertThat(plain.size() + transactional.size()).isGreaterThan(30);
      for (RuntimeException e : plain) {
        assertThat(e).as(Causes.describe(e)).isInstanceOf(CannotGetJdbcConnectionException.class);
        assertThat(e.getCause()).isInstanceOf(RateLimitExceededException.class);
      }
      for (RuntimeException e : transactional) {
        assertThat(e).as(Causes.describe(e)).isInstanceOf(CannotCreateTransactionException.class);
        assertThat(e.getCause()).isInstanceOf(RateLimitExceededException.class);
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  /** What a Spring application builds from one data source. */
  private static final class Spring {
    final JdbcTemplate jdbc;
    final TransactionTemplate tx;

    Spring(Rig rig) {
      this.jdbc = new JdbcTemplate(rig.dataSource());
      this.tx = new TransactionTemplate(new DataSourceTransactionManager(rig.dataSource()));
    }

    void createTable() {
      jdbc.execute("drop table if exists it_spring_item");
      jdbc.execute("create table it_spring_item(id int primary key, label text)");
    }

    int count() {
      return jdbc.queryForObject("select count(*) from it_spring_item", Integer.class);
    }
  }
}
