package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Priority;
import dev.sluice.Scope;
import dev.sluice.Stats;
import dev.sluice.it.support.Causes;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.Rig;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/**
 * Issue 13: Spring's {@code @Transactional(readOnly = true)} marks its connection read-only, so
 * its calls are {@code SHEDDABLE} with no code at all. Under a flood of read-only service calls on
 * real PostgreSQL (HikariCP, decorator and driver mode), read-write transactions arriving at
 * random (Poisson) at the reserve's part of the share still get through, and the database's own
 * row count says how many did.
 */
class SpringReadOnlyPriorityTest {
  private static final double BUDGET = 20; // burst 20: NORMAL sees 16, SHEDDABLE 12
  private static final int FLOOD_THREADS = 4;
  private static final long RUN_MILLIS = 6_000;

  /** A service as an application writes it: the annotations are all it says about priority. */
  public static class Orders {
    private final JdbcTemplate jdbc;

    public Orders(DataSource dataSource) {
      this.jdbc = new JdbcTemplate(dataSource);
    }

    @Transactional(readOnly = true)
    public int count() {
      return jdbc.queryForObject("select count(*) from it_prio_order", Integer.class);
    }

    @Transactional
    public void place(int id) {
      jdbc.update("insert into it_prio_order(id) values (?)", id);
      jdbc.update("update it_prio_order set placed = true where id = ?", id);
    }
  }

  @Configuration
  @EnableTransactionManagement
  static class App {
    static DataSource dataSource;

    @Bean
    DataSource dataSource() {
      return dataSource;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    Orders orders(DataSource dataSource) {
      return new Orders(dataSource);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void readOnlyFlood_readWriteTransactionsStillGetThrough(Mode mode) throws Exception {
    try (Rig rig = Rig.of(mode, "prio", BUDGET, 20, Scope.STATEMENT, FLOOD_THREADS + 2)) {
      JdbcTemplate setup = new JdbcTemplate(rig.dataSource());
      setup.execute("drop table if exists it_prio_order");
      setup.execute("create table it_prio_order(id int primary key, placed boolean default false)");
      App.dataSource = rig.dataSource();
      try (AnnotationConfigApplicationContext context =
               new AnnotationConfigApplicationContext(App.class)) {
        Orders orders = context.getBean(Orders.class);
        rig.openFlag();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger readsRefused = new AtomicInteger();
        AtomicInteger readsServed = new AtomicInteger();
        AtomicInteger otherFailures = new AtomicInteger();
        List<Thread> flood = new ArrayList<>();
        for (int t = 0; t < FLOOD_THREADS; t++) {
          Thread reader = new Thread(() -> {
            while (!stop.get()) {
              try {
                orders.count();
                readsServed.incrementAndGet();
              } catch (RuntimeException e) {
                (Causes.isRejection(e) ? readsRefused : otherFailures).incrementAndGet();
              }
            }
          });
          reader.start();
          flood.add(reader);
        }
        int[] writes = placeOrdersAtRandom(orders, BUDGET * 0.2, RUN_MILLIS);
        stop.set(true);
        for (Thread reader : flood) {
          reader.join();
        }
        rig.closeFlag();

        int placed = setup.queryForObject(
            "select count(*) from it_prio_order where placed", Integer.class);
        int rows = setup.queryForObject("select count(*) from it_prio_order", Integer.class);
        assertThat(otherFailures).as("failures other than refusals").hasValue(0);
        assertThat(rows).as("admitted transactions ran whole").isEqualTo(placed);
        assertThat(placed).as("the database counts the writes that were served")
            .isEqualTo(writes[0] - writes[1]);
        assertThat(writes[0]).as("Poisson writes at 4/s for 6 s").isGreaterThan(10);
        assertThat(writes[1]).as("write transactions refused, of " + writes[0])
            .isLessThanOrEqualTo(writes[0] / 20);
        assertThat(readsRefused.get()).as("the flood of read-only calls took the refusals")
            .isGreaterThan(100);
        Stats stats = mode == Mode.DECORATOR
            ? ((dev.sluice.RateLimitedDataSource) rig.dataSource()).stats() : rig.driverStats();
        assertThat(stats.rejected(Priority.SHEDDABLE)).isGreaterThanOrEqualTo(readsRefused.get());
        assertThat(stats.rejected(Priority.NORMAL)).isEqualTo(writes[1]);
        assertThat(stats.admitted(Priority.NORMAL)).isEqualTo(placed);
        System.out.printf("%s: %d writes, %d refused; reads %d served, %d refused (%s)%n", mode,
            writes[0], writes[1], readsServed.get(), readsRefused.get(), stats);
      }
    }
  }

  /** Places orders at Poisson arrivals of {@code perSecond}: returns {tried, refused}. */
  private static int[] placeOrdersAtRandom(Orders orders, double perSecond, long millis)
      throws InterruptedException {
    Random random = new Random(13);
    long end = System.nanoTime() + millis * 1_000_000;
    int tried = 0;
    int refused = 0;
    while (System.nanoTime() < end) {
      Thread.sleep((long) (-Math.log(1 - random.nextDouble()) / perSecond * 1000));
      tried++;
      try {
        orders.place(tried);
      } catch (RuntimeException e) {
        assertThat(Causes.isRejection(e)).as(Causes.describe(e)).isTrue();
        refused++;
      }
    }
    return new int[] {tried, refused};
  }
}
