package dev.sluice.examples.cacheaside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.Scope;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The four branches, checked against one framework: each example's test extends this and says
 * how it reads a user through a data source.
 */
public abstract class CachedUsersContract {

  private final BreakerFlag.Manual breaker = BreakerFlag.manual();
  private final Map<Integer, User> redis = new ConcurrentHashMap<>();
  private final Map<Integer, User> local = new ConcurrentHashMap<>();
  private final AtomicInteger databaseReads = new AtomicInteger();
  private ExampleDatabase db;
  private RateLimitedDataSource ds;
  private AutoCloseable dao;
  private CachedUsers users;

  /** Builds the framework's reader over {@code dataSource}; closed after each test. */
  protected abstract UserDao reader(DataSource dataSource) throws Exception;

  /** A budget of one read in 1,000 s: the first read while limiting passes, later ones do not. */
  private void start(Scope scope) throws Exception {
    db = ExampleDatabase.create();
    ds = RateLimitedDataSource.builder(db.pool()).name("contract").budget(0.001).burst(1)
        .scope(scope).breakerFlag(breaker).build();
    UserDao reader = reader(ds);
    dao = reader instanceof AutoCloseable ? (AutoCloseable) reader : () -> { };
    users = new CachedUsers(redis, local, breaker, id -> {
      User user = reader.find(id);
      databaseReads.incrementAndGet(); // counts reads that came back from the database
      return user;
    });
  }

  @AfterEach
  void stop() throws Exception {
    if (dao != null) {
      dao.close();
    }
    if (ds != null) {
      ds.close();
    }
    if (db != null) {
      db.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Scope.class)
  void find_cacheUp_missReadsTheDatabaseOnceThenTheCacheAnswers(Scope scope) throws Exception {
    start(scope);

    assertThat(users.find(1)).contains(new User(1, "Ada"));
    assertThat(users.find(1)).contains(new User(1, "Ada"));

    assertThat(databaseReads).hasValue(1);
    assertThat(redis).containsKey(1);
    assertThat(ds.stats().admitted()).isZero(); // the flag was closed: nothing charged
  }

  @ParameterizedTest
  @EnumSource(Scope.class)
  void find_cacheDown_localCopyAnswersWithoutTheDatabase(Scope scope) throws Exception {
    start(scope);
    users.find(2);
    breaker.trip();

    assertThat(users.find(2)).contains(new User(2, "Grace"));

    assertThat(databaseReads).hasValue(1);
    assertThat(ds.stats().admitted()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Scope.class)
  void find_cacheDownWithinBudget_theDatabaseAnswersForOnePermit(Scope scope) throws Exception {
    start(scope);
    breaker.trip();

    assertThat(users.find(3)).contains(new User(3, "Edsger"));

    assertThat(databaseReads).hasValue(1);
    assertThat(ds.stats().admitted()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Scope.class)
  void find_cacheDownBudgetSpent_503AtOnceWithRetryAfter(Scope scope) throws Exception {
    start(scope);
    breaker.trip();
    users.find(1);

    ServiceUnavailableException e = assertThrows(ServiceUnavailableException.class,
        () -> users.find(2));

    assertThat(e.retryAfterMillis()).isPositive();
    assertThat(CachedUsers.rejection(e)).isPresent();
    assertThat(databaseReads).hasValue(1);
    assertThat(ds.stats().rejected()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Scope.class)
  void find_unknownUser_isEmpty(Scope scope) throws Exception {
    start(scope);

    assertThat(users.find(99)).isEmpty();
    assertThat(redis).doesNotContainKey(99);
  }
}
