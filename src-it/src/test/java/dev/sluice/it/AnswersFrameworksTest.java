package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.it.support.Causes;
import dev.sluice.it.support.Servers;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.jooq.DSLContext;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Answers instead of refusals ({@code sluice.stale.max-age}) through the frameworks, over
 * PostgreSQL, in decorator mode: Hibernate ({@code find} and a JPQL query), Spring's
 * {@code JdbcTemplate}, jOOQ's {@code fetch} and MyBatis (which read through
 * {@code PreparedStatement.execute()} and {@code getResultSet()}) read through an answered result
 * exactly what the live database returns (entities equal field by field); a read inside a
 * transaction is never answered, nor is a locking read. The budget is 2 permits/s with a burst of
 * 1, on the real clock: each framework read is tried until one is answered
 * ({@code stats().answered()} grew by it), the refused tries in between being what turns
 * recording on.
 */
class AnswersFrameworksTest {
  private static HikariDataSource pool;
  private static RateLimitedDataSource sluice;
  private static final BreakerFlag.Manual FLAG = BreakerFlag.manual();
  private static EntityManagerFactory hibernate;

  /** A MyBatis mapper of the Hibernate entity's table. */
  public interface AccountMapper {
    @Select("select id, owner, balance from it_account where id = #{id}")
    Account byId(@Param("id") long id);
  }

  @BeforeAll
  static void start() {
    HikariConfig config = new HikariConfig();
    config.setPoolName("it-answers");
    config.setJdbcUrl(Servers.postgres().jdbcUrl());
    config.setMaximumPoolSize(4);
    config.setAutoCommit(true);
    pool = new HikariDataSource(config);
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "60s");
    p.setProperty("sluice.recovery.settle", "0");
    sluice = RateLimitedDataSource.builder(pool).name("it-answers").budget(2).burst(1)
        .breakerFlag(FLAG).properties(p).build();
    hibernate = Orm.JPA.start(sluice); // creates it_account, the flag closed
  }

  @AfterAll
  static void stop() throws Exception {
    FLAG.reset();
    if (hibernate != null) {
      hibernate.close();
    }
    if (sluice != null) {
      sluice.close(); // and the pool
    }
  }

  @BeforeEach
  void rows() throws SQLException {
    FLAG.reset();
    sluice.stats(); // limiting ends: the kept results go
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("delete from it_account");
      s.execute("insert into it_account(id, owner, balance) values (1, 'ada', 100),"
          + " (2, 'bob', 200), (3, 'cy', 300)");
    }
    FLAG.trip();
  }

  @Test
  void hibernate_findAndJpql_answeredEntitiesEqualTheLiveOnes() throws Exception {
    Account live = liveAccount(2);
    Account found = answered(() -> {
      EntityManager em = hibernate.createEntityManager();
      try {
        return em.find(Account.class, 2L);
      } finally {
        em.close();
      }
    });
    assertSame(found, live);

    List<Account> queried = answered(() -> {
      EntityManager em = hibernate.createEntityManager();
      try {
        return em.createQuery("select a from Account a where a.owner = :owner order by a.id",
            Account.class).setParameter("owner", "bob").getResultList();
      } finally {
        em.close();
      }
    });
    assertThat(queried).hasSize(1);
    assertSame(queried.get(0), live);
  }

  /** jOOQ reads with {@code execute()} and {@code getResultSet()}. */
  @Test
  void jooqFetch_answeredRecordsEqualTheLiveOnes() throws Exception {
    DSLContext ctx = DSL.using(sluice, SQLDialect.POSTGRES);
    DSLContext direct = DSL.using(pool, SQLDialect.POSTGRES);
    var id = DSL.field(DSL.name("id"), Long.class);
    var owner = DSL.field(DSL.name("owner"), String.class);
    var balance = DSL.field(DSL.name("balance"), Long.class);
    var table = DSL.table(DSL.name("it_account"));
    Result<Record3<Long, String, Long>> live = direct.select(id, owner, balance).from(table)
        .where(id.le(2L)).orderBy(id).fetch();

    Result<Record3<Long, String, Long>> answered = answered(() -> ctx.select(id, owner, balance)
        .from(table).where(id.le(2L)).orderBy(id).fetch());

    assertThat(answered).isEqualTo(live);
    assertThat(answered.intoMaps()).isEqualTo(live.intoMaps());
  }

  @Test
  void jdbcTemplate_answeredRowsEqualTheLiveOnes() throws Exception {
    String sql = "select id, owner, balance from it_account where balance >= ? order by id";
    List<java.util.Map<String, Object>> live = new JdbcTemplate(pool).queryForList(sql, 200);

    List<java.util.Map<String, Object>> answered = answered(() ->
        new JdbcTemplate(sluice).queryForList(sql, 200));

    assertThat(answered).isEqualTo(live).hasSize(2);
    Account viaMapper = answered(() -> new JdbcTemplate(sluice).queryForObject(
        "select id, owner, balance from it_account where id = ?",
        (rs, n) -> new Account(rs.getLong("id"), rs.getString("owner"), rs.getLong("balance")),
        3));
    assertSame(viaMapper, liveAccount(3));
  }

  /** MyBatis reads with {@code execute()} and {@code getResultSet()}. */
  @Test
  void myBatisSelect_answeredObjectEqualsTheLiveOne() throws Exception {
    Configuration configuration = new Configuration(
        new Environment("it", new JdbcTransactionFactory(), sluice));
    configuration.addMapper(AccountMapper.class);
    SqlSessionFactory factory = new SqlSessionFactoryBuilder().build(configuration);

    Account answered = answered(() -> {
      try (SqlSession session = factory.openSession(true)) {
        return session.getMapper(AccountMapper.class).byId(1);
      }
    });

    assertSame(answered, liveAccount(1));
  }

  @Test
  void insideATransaction_aReadIsNeverAnswered() throws Exception {
    String sql = "select owner from it_account where id = ?";
    // the same read kept outside a transaction
    answered(() -> new JdbcTemplate(sluice).queryForObject(sql, String.class, 1));
    rename(1, "ada lovelace");
    TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(sluice));
    long before = sluice.stats().answered();
    int live = 0;

    for (int i = 0; i < 40; i++) {
      try {
        String owner = tx.execute(status ->
            new JdbcTemplate(sluice).queryForObject(sql, String.class, 1));
        assertThat(owner).as("a transaction reads the database").isEqualTo("ada lovelace");
        live++;
      } catch (RuntimeException e) {
        assertThat(Causes.isRejection(e)).as(Causes.describe(e)).isTrue(); // refused at its door
      }
      LockSupport.parkNanos(20_000_000L);
    }

    assertThat(sluice.stats().answered()).as("nothing answered in a transaction")
        .isEqualTo(before);
    assertThat(live).as("some transactions admitted").isPositive();
  }

  @Test
  void aLockingRead_isNeverAnswered() throws Exception {
    String locking = "select owner from it_account where id = ? for update";
    JdbcTemplate jdbc = new JdbcTemplate(sluice);
    long before = sluice.stats().answered();
    int refused = 0;

    for (int i = 0; i < 40; i++) {
      try {
        assertThat(jdbc.queryForObject(locking, String.class, 2)).isEqualTo("bob");
      } catch (RuntimeException e) {
        assertThat(Causes.isRejection(e)).as(Causes.describe(e)).isTrue();
        refused++;
      }
      LockSupport.parkNanos(20_000_000L);
    }

    assertThat(refused).as("refused, as without answers").isPositive();
    assertThat(sluice.stats().answered()).isEqualTo(before);
  }

  /**
   * Runs {@code read} until one run of it was answered instead of refused, and returns what that
   * run returned; a refused run is tried again 20 ms later.
   */
  /**
   * A loop over keys through one {@code PreparedStatement} prepared before the flag opened (a
   * long-lived statement, jOOQ's {@code keepStatement}, MyBatis' reuse executor) is answered, as
   * a fresh statement per call is, with the live rows. In 0.3 its parameters were never
   * recorded: nothing it read was kept, nothing answered.
   */
  @Test
  void oneReusedPreparedStatement_isAnswered_likeAFreshStatementPerCall() throws Exception {
    FLAG.reset();
    sluice.stats(); // not limiting: nothing kept
    String byId = "select id, owner, balance from it_account where id = ?";
    try (Connection c = sluice.getConnection();
        java.sql.PreparedStatement reused = c.prepareStatement(byId)) {
      assertThat(row(reused, 1)).isEqualTo(liveRow(1)); // used before the flag opens
      FLAG.trip();
      for (long id = 1; id <= 3; id++) {
        long key = id;
        assertThat(answered(() -> row(reused, key))).as("reused, id " + key)
            .isEqualTo(liveRow(key));
      }
      FLAG.reset();
      sluice.stats();
      FLAG.trip();
      for (long id = 1; id <= 3; id++) {
        long key = id;
        assertThat(answered(() -> {
          try (java.sql.PreparedStatement fresh = c.prepareStatement(byId)) {
            return row(fresh, key);
          }
        })).as("fresh, id " + key).isEqualTo(liveRow(key));
      }
    }
  }

  private static String row(java.sql.PreparedStatement ps, long id) throws SQLException {
    ps.setLong(1, id);
    try (java.sql.ResultSet rs = ps.executeQuery()) {
      StringBuilder rows = new StringBuilder();
      while (rs.next()) { // read to its end: only then is a result kept
        rows.append(rs.getLong(1)).append(':').append(rs.getString(2)).append(':')
            .append(rs.getLong(3)).append(' ');
      }
      return rows.toString();
    }
  }

  private static String liveRow(long id) throws SQLException {
    try (Connection c = pool.getConnection();
        java.sql.PreparedStatement ps = c.prepareStatement(
            "select id, owner, balance from it_account where id = ?")) {
      return row(ps, id);
    }
  }

  private static <T> T answered(Callable<T> read) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      long before = sluice.stats().answered();
      try {
        T got = read.call();
        if (sluice.stats().answered() > before) {
          return got;
        }
      } catch (Exception e) {
        if (!Causes.isRejection(e)) {
          throw e;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("no run was answered in 30 s; " + sluice.stats());
      }
      LockSupport.parkNanos(20_000_000L);
    }
  }

  private static Account liveAccount(long id) {
    return new JdbcTemplate(pool).queryForObject(
        "select id, owner, balance from it_account where id = ?",
        (rs, n) -> new Account(rs.getLong("id"), rs.getString("owner"), rs.getLong("balance")),
        id);
  }

  private static void rename(long id, String owner) {
    assertThat(new JdbcTemplate(pool).update("update it_account set owner = ? where id = ?",
        owner, id)).isEqualTo(1);
  }

  private static void assertSame(Account got, Account live) {
    assertThat(got).isNotNull();
    assertThat(got.getId()).isEqualTo(live.getId());
    assertThat(got.getOwner()).isEqualTo(live.getOwner());
    assertThat(got.getBalance()).isEqualTo(live.getBalance());
  }
}
