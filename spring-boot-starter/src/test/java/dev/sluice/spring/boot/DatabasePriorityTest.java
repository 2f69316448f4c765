package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BreakerFlag;
import dev.sluice.Priority;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Stats;
import java.io.IOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

/** {@link DatabasePriority} on Spring beans, with and without {@code @Transactional}. */
class DatabasePriorityTest {

  private final ApplicationContextRunner runner = Fixtures.runner()
      .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class,
          SluiceAutoConfigurationTest.ManualFlag.class)
      .withPropertyValues("sluice.budget=500", "sluice.recovery.settle=0");

  /** Sheddable but for {@link #pay}, which says otherwise. */
  @DatabasePriority(Priority.SHEDDABLE)
  static class Payments {
    private final JdbcTemplate jdbc;
    Priority seen;

    Payments(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @DatabasePriority(Priority.CRITICAL)
    @Transactional
    public void pay() {
      seen = Priority.current();
      jdbc.execute("select 1");
    }

    @Transactional
    public void browse() {
      seen = Priority.current();
      jdbc.execute("select 1");
    }

    public Priority seen() {
      return seen; // a CGLIB proxy has fields of its own: read through the target
    }
  }

  /** No {@code @Transactional}, no {@code @EnableTransactionManagement}: the starter proxies. */
  static class Prefetch {
    Priority seen;

    @DatabasePriority(Priority.SHEDDABLE)
    public void warm() {
      seen = Priority.current();
    }

    public void plain() {
      seen = Priority.current();
    }

    public Priority seen() {
      return seen;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableTransactionManagement
  static class Transactions {
    @Bean
    DataSourceTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    Payments payments(DataSource dataSource) {
      return new Payments(new JdbcTemplate(dataSource));
    }
  }

  @Test
  void transactional_priorityInForceAtTheDoor_methodWinsOverClass() {
    runner.withUserConfiguration(Transactions.class).run(context -> {
      context.getBean(BreakerFlag.Manual.class).trip(); // limiting: decisions are counted
      Payments payments = context.getBean(Payments.class);
      RateLimitedDataSource sluice = Fixtures.sluice(context);

      payments.pay();

      assertThat(payments.seen()).isEqualTo(Priority.CRITICAL);
      Stats stats = sluice.stats();
      assertThat(stats.admitted(Priority.CRITICAL)).as("the transaction's door").isEqualTo(1);
      assertThat(stats.admitted(Priority.NORMAL)).isZero();
      assertThat(Priority.current()).as("restored after the call").isEqualTo(Priority.NORMAL);
    });
  }

  /** The application's service alone: Boot's auto-configurations bring the transactions. */
  @Configuration(proxyBeanMethods = false)
  static class PaymentsOnly {
    @Bean
    Payments payments(DataSource dataSource) {
      return new Payments(new JdbcTemplate(dataSource));
    }
  }

  @Test
  void bootsTransactionAutoConfiguration_priorityInForceAtTheDoor() {
    runner.withUserConfiguration(PaymentsOnly.class)
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class,
            TransactionAutoConfiguration.class))
        .run(context -> {
          context.getBean(BreakerFlag.Manual.class).trip();

          context.getBean(Payments.class).pay();

          Stats stats = Fixtures.sluice(context).stats();
          assertThat(stats.admitted(Priority.CRITICAL)).isEqualTo(1);
          assertThat(stats.admitted(Priority.NORMAL)).isZero();
        });
  }

  @Test
  void transactional_methodWithoutItsOwn_classPriority() {
    runner.withUserConfiguration(Transactions.class).run(context -> {
      context.getBean(BreakerFlag.Manual.class).trip();
      Payments payments = context.getBean(Payments.class);

      payments.browse();

      assertThat(payments.seen()).isEqualTo(Priority.SHEDDABLE);
      assertThat(Fixtures.sluice(context).stats()
          .admitted(Priority.SHEDDABLE)).isEqualTo(1);
    });
  }

  @Test
  void noTransactionManagement_beanStillProxied_onlyAnnotatedMethodsChanged() {
    runner.withBean(Prefetch.class).run(context -> {
      Prefetch prefetch = context.getBean(Prefetch.class);
      assertThat(AopUtils.isAopProxy(prefetch)).isTrue();

      prefetch.warm();
      assertThat(prefetch.seen()).isEqualTo(Priority.SHEDDABLE);
      prefetch.plain();
      assertThat(prefetch.seen()).isEqualTo(Priority.NORMAL);
    });
  }

  @Test
  void insideAnOuterBlock_innermostWins_unannotatedKeepsTheOuter() {
    runner.withBean(Prefetch.class).run(context -> {
      Prefetch prefetch = context.getBean(Prefetch.class);

      Priority.CRITICAL.run(prefetch::warm);
      assertThat(prefetch.seen()).isEqualTo(Priority.SHEDDABLE);
      Priority.CRITICAL.run(prefetch::plain);
      assertThat(prefetch.seen()).isEqualTo(Priority.CRITICAL);
    });
  }

  @Test
  void exceptionThrown_passesUnchanged_priorityRestored() {
    runner.withBean(Failing.class).run(context -> {
      Failing failing = context.getBean(Failing.class);

      assertThatThrownBy(failing::fail).isInstanceOf(IOException.class).hasMessage("disk");
      assertThat(Priority.current()).isEqualTo(Priority.NORMAL);
    });
  }

  @Test
  void starterOff_noProxy() {
    new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(
                SluicePriorityAutoConfiguration.class))
        .withBean(Prefetch.class)
        .run(context -> assertThat(AopUtils.isAopProxy(context.getBean(Prefetch.class)))
            .isFalse());
  }

  /** Throws a checked exception from inside its priority. */
  @DatabasePriority(Priority.CRITICAL)
  static class Failing {
    public void fail() throws IOException {
      throw new IOException("disk");
    }
  }
}
