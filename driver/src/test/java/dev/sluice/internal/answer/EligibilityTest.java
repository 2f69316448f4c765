package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Answers#eligible}: the database's own knowledge, its cache and its cost, on an embedded
 * PostgreSQL and on H2, on a fake clock. The attacks themselves run in src-it
 * ({@code AnswerTruthTest}).
 */
class EligibilityTest {
  private static EmbeddedPostgres postgres;
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AtomicInteger catalogQueries = new AtomicInteger();

  @BeforeAll
  static void start() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stop() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  private Answers answers() {
    return Answers.create("b", new AnswerSettings(Duration.ofSeconds(5), Duration.ofMillis(50),
        1000, 1 << 20), now::get, (budget, age, joined) -> new SQLWarning("stale"));
  }

  /** The connection, counting the statements Sluice makes on it (its catalog queries). */
  private Connection counting(Connection c) {
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
          if (method.getName().equals("prepareStatement")
              || method.getName().equals("createStatement")) {
            catalogQueries.incrementAndGet();
          }
          try {
            return method.invoke(c, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void postgres_aFunctionRedefined_isJudgedByItsNewDefinitionWithinTheSecond()
      throws SQLException {
    Answers answers = answers();
    try (Connection raw = postgres.getPostgresDatabase().getConnection();
        Statement s = raw.createStatement()) {
      s.execute("CREATE OR REPLACE FUNCTION it_f() RETURNS int IMMUTABLE LANGUAGE sql"
          + " AS $$ SELECT 1 $$");
      Connection c = counting(raw);
      assertThat(answers.eligible("SELECT it_f()", c)).isTrue();
      int asked = catalogQueries.get();
      assertThat(asked).as("one query for the functions (no relation named)").isEqualTo(1);

      s.execute("CREATE OR REPLACE FUNCTION it_f() RETURNS int VOLATILE LANGUAGE sql"
          + " AS $$ SELECT 1 $$");
      now.addAndGet(Catalog.TTL_NANOS - 1);
      assertThat(answers.eligible("SELECT it_f()", c)).as("within the second: cached").isTrue();
      assertThat(catalogQueries.get()).isEqualTo(asked);
      now.addAndGet(1);
      assertThat(answers.eligible("SELECT it_f()", c)).as("after it: asked again").isFalse();
      s.execute("DROP FUNCTION it_f()");
    }
  }

  @Test
  void postgres_insideATransactionHoweverBegun_nothingIsEligible() throws SQLException {
    Answers answers = answers();
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      String read = "SELECT 1";
      assertThat(answers.eligible(read, c)).isTrue();
      s.execute("BEGIN");
      assertThat(answers.eligible(read, c)).as("BEGIN as text").isFalse();
      s.execute("COMMIT");
      assertThat(answers.eligible(read, c)).isTrue();
      c.setAutoCommit(false);
      s.execute("SELECT 2");
      assertThat(answers.eligible(read, c)).as("setAutoCommit(false), then a statement")
          .isFalse();
      c.rollback();
      c.setAutoCommit(true);
    }
  }

  /**
   * With a warm cache: no catalog query, and the cost of one call (the driver's transaction
   * state, the database's URL, one look-up of the text), printed as a figure.
   */
  @Test
  void postgres_warmCache_asksNothing_andCostsLittle() throws SQLException {
    Answers answers = answers();
    String sql = "SELECT id, name, now() FROM items WHERE id IN (?, ?) AND lower(name) = ?";
    try (Connection raw = postgres.getPostgresDatabase().getConnection()) {
      Connection c = counting(raw);
      assertThat(answers.eligible(sql, c)).isTrue();
      int asked = catalogQueries.get();
      long[] rounds = new long[21];
      int calls = 20_000;
      boolean all = true;
      for (int r = 0; r < rounds.length; r++) {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
          all &= answers.eligible(sql, raw);
        }
        rounds[r] = (System.nanoTime() - start) / calls;
      }
      Arrays.sort(rounds);
      System.out.printf("[figures] eligibility with a warm cache (pgjdbc, embedded PostgreSQL):"
          + " median %d ns a call, fastest round %d ns (%d rounds of %d)%n",
          rounds[rounds.length / 2], rounds[0], rounds.length, calls);
      assertThat(all).isTrue();
      assertThat(catalogQueries.get()).as("no catalog query with a warm cache").isEqualTo(asked);
      assertThat(rounds[0]).as("the fastest round, ns a call").isLessThan(20_000);
    }
  }

  @Test
  void h2_routinesViewsAndTransactions() throws SQLException {
    Answers answers = answers();
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:eligibility;DB_CLOSE_DELAY=-1");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT, name VARCHAR(10))");
      s.execute("CREATE VIEW drawn AS SELECT RAND() AS r FROM t");
      s.execute("CREATE VIEW lowered AS SELECT LOWER(name) AS n FROM t");
      assertThat(answers.eligible("SELECT LOWER(name), COUNT(*) FROM t WHERE id IN (1, 2)"
          + " GROUP BY name", c)).isTrue();
      assertThat(answers.eligible("SELECT n FROM lowered", c)).isTrue();
      assertThat(answers.eligible("SELECT RAND()", c)).as("not on the allow-list").isFalse();
      assertThat(answers.eligible("SELECT r FROM drawn", c)).as("a view over RAND()").isFalse();
      assertThat(answers.eligible("SELECT 1 // RAND()", c)).as("H2's comment").isFalse();
      s.execute("BEGIN");
      assertThat(answers.eligible("SELECT LOWER(name) FROM t", c)).as("after BEGIN").isFalse();
      s.execute("COMMIT");
      assertThat(answers.eligible("SELECT LOWER(name) FROM t", c)).isTrue();
    }
  }

  /**
   * The first sight of a text as every thread reads at once: one caller asks the catalog, the
   * others wait for its verdict (not eligible if it takes longer than the wait) without asking;
   * afterwards everyone has the verdict. Then, as the verdict is refreshed after its second, the others keep the old one.
   */
  @Test
  void aTextSeenByManyAtOnce_isJudgedByOneWhileTheOthersGoOn() throws Exception {
    Answers answers = answers();
    CountDownLatch asking = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (Connection raw = postgres.getPostgresDatabase().getConnection();
        Connection other = postgres.getPostgresDatabase().getConnection()) {
      Connection held = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {Connection.class}, (proxy, method, args) -> {
            if (method.getName().equals("prepareStatement")
                || method.getName().equals("createStatement")) {
              catalogQueries.incrementAndGet();
              asking.countDown();
              assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            }
            try {
              return method.invoke(raw, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
      String sql = "SELECT lower(v), now() FROM (VALUES ('A')) x(v)";
      CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(
          () -> answers.eligible(sql, held));
      assertThat(asking.await(30, TimeUnit.SECONDS)).as("the first caller asks").isTrue();
      Connection counted = counting(other);
      for (int i = 0; i < 3; i++) {
        assertThat(answers.eligible(sql, counted)).as("not judged within the wait").isFalse();
      }
      assertThat(catalogQueries.get()).as("only the first caller asked").isEqualTo(1);
      release.countDown();
      assertThat(first.get(30, TimeUnit.SECONDS)).isTrue();
      int asked = catalogQueries.get(); // its functions, then its names
      assertThat(answers.eligible(sql, counted)).as("judged: everyone's").isTrue();
      assertThat(catalogQueries.get()).isEqualTo(asked);

      now.addAndGet(Catalog.TTL_NANOS); // the verdict is a second old: the next caller asks
      CountDownLatch asking2 = new CountDownLatch(1);
      CountDownLatch release2 = new CountDownLatch(1);
      Connection held2 = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {Connection.class}, (proxy, method, args) -> {
            if (method.getName().equals("prepareStatement")
                || method.getName().equals("createStatement")) {
              catalogQueries.incrementAndGet();
              asking2.countDown();
              assertThat(release2.await(30, TimeUnit.SECONDS)).isTrue();
            }
            try {
              return method.invoke(raw, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
      CompletableFuture<Boolean> refresh = CompletableFuture.supplyAsync(
          () -> answers.eligible(sql, held2));
      assertThat(asking2.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(answers.eligible(sql, counted)).as("the old verdict, while refreshed").isTrue();
      assertThat(catalogQueries.get()).isEqualTo(asked + 1);
      release2.countDown();
      assertThat(refresh.get(30, TimeUnit.SECONDS)).isTrue();
    }
  }
}
