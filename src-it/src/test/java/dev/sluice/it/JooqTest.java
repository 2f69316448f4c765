package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.it.support.Causes;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.PoolAssert;
import dev.sluice.it.support.PoolState;
import dev.sluice.it.support.Rig;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** jOOQ 3.19 over HikariCP over PostgreSQL, Sluice in decorator and driver mode. */
class JooqTest {
  private static final Table<Record> ITEM = table(name("it_jooq_item"));
  private static final Field<Integer> ID = field(name("id"), Integer.class);
  private static final Field<String> LABEL = field(name("label"), String.class);

  static {
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagClosed_dslQueriesAndTransactionWork(Mode mode) {
    try (Rig rig = Rig.of(mode, "jooq", 1, 1, Scope.STATEMENT, 4)) {
      DSLContext ctx = DSL.using(rig.dataSource(), SQLDialect.POSTGRES);
      PoolState before = rig.state();
      createTable(ctx);
      for (int i = 1; i <= 10; i++) {
        ctx.insertInto(ITEM, ID, LABEL).values(i, "item-" + i).execute();
      }
      ctx.transaction(cfg -> DSL.using(cfg).update(ITEM).set(LABEL, "changed").where(ID.eq(3))
          .execute());

      assertThat(ctx.fetchCount(ITEM)).isEqualTo(10);
      assertThat(ctx.select(LABEL).from(ITEM).where(ID.eq(3)).fetchOne(LABEL))
          .isEqualTo("changed");
      PoolAssert.undisturbed(rig, before);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagOpen_refusedQuery_surfacesAsDataAccessExceptionCausedByOurs(Mode mode) {
    try (Rig rig = Rig.of(mode, "jooq", 2, 1, Scope.STATEMENT, 4)) {
      DSLContext ctx = DSL.using(rig.dataSource(), SQLDialect.POSTGRES);
      createTable(ctx);
      PoolState before = rig.state();
      rig.openFlag();
      List<DataAccessException> failures = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        try {
          ctx.fetchCount(ITEM);
        } catch (DataAccessException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("queries refused by a 2/s budget").hasSizeGreaterThan(10);
      for (DataAccessException e : failures) {
        assertThat(e.getCause()).as(Causes.describe(e))
            .isInstanceOf(RateLimitExceededException.class);
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void flagOpen_refusedTransaction_surfacesAsDataAccessExceptionAndWritesNothing(Mode mode) {
    try (Rig rig = Rig.of(mode, "jooq", 2, 1, Scope.STATEMENT, 4)) {
      DSLContext ctx = DSL.using(rig.dataSource(), SQLDialect.POSTGRES);
      createTable(ctx);
      PoolState before = rig.state();
      rig.openFlag();
      List<DataAccessException> failures = new ArrayList<>();
      for (int i = 1; i <= 20; i++) {
        int id = i;
        try {
          ctx.transaction(cfg -> {
            DSL.using(cfg).insertInto(ITEM, ID, LABEL).values(id, "a").execute();
            DSL.using(cfg).update(ITEM).set(LABEL, "b").where(ID.eq(id)).execute();
          });
        } catch (DataAccessException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("transactions refused by a 2/s budget").hasSizeGreaterThan(10);
      for (DataAccessException e : failures) {
        assertThat(e.getCause()).as(Causes.describe(e))
            .isInstanceOf(RateLimitExceededException.class);
      }
      assertThat(ctx.fetchCount(ITEM, LABEL.eq("b"))).as("admitted transactions ran whole")
          .isEqualTo(20 - failures.size());
      assertThat(ctx.fetchCount(ITEM)).isEqualTo(20 - failures.size());
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
  void connectionScope_refusedCheckout_surfacesAsDataAccessExceptionCausedByOurs(Mode mode) {
    try (Rig rig = Rig.of(mode, "jooq", 2, 1, Scope.CONNECTION, 4)) {
      DSLContext ctx = DSL.using(rig.dataSource(), SQLDialect.POSTGRES);
      createTable(ctx);
      PoolState before = rig.state();
      rig.openFlag();
      List<DataAccessException> failures = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        try {
          ctx.fetchCount(ITEM);
        } catch (DataAccessException e) {
          failures.add(e);
        }
      }
      rig.closeFlag();

      assertThat(failures).as("checkouts refused by a 2/s budget").hasSizeGreaterThan(10);
      for (DataAccessException e : failures) {
        assertThat(e.getCause()).as(Causes.describe(e))
            .isInstanceOf(RateLimitExceededException.class);
      }
      PoolAssert.undisturbed(rig, before);
    }
  }

  private static void createTable(DSLContext ctx) {
    ctx.dropTableIfExists(ITEM).execute();
    ctx.createTable(ITEM).column(ID).column(LABEL).primaryKey(ID).execute();
  }
}
