package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Await;
import dev.sluice.testing.LogTap;
import dev.sluice.testing.TestRedis;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice.stale.share} against a real Redis: two instances of one budget over one H2
 * database, each on a fake clock (budget 0.01/s, burst 1: the next permit 100 s of fake time
 * later). A read one instance admitted and kept answers the identical read the other refuses;
 * without sharing, or while the other is not limiting, it does not. Nothing is left running.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class AnswersSharedTest {
  private static final String BY_ID = "SELECT id, name FROM items WHERE id = ?";
  private static final Duration REFILL = Duration.ofSeconds(100);
  /** Far above a pub/sub round trip, even on a loaded machine; the wait polls, it is no timing. */
  private static final Duration DELIVERY = Duration.ofSeconds(10);
  static final String KEY = "test-share-key-0123456789abcdef0123";
  private static TestRedis redis;
  private static int budgets;

  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private final FakeTicker tickerA = new FakeTicker();
  private final FakeTicker tickerB = new FakeTicker();
  private Connection keepAlive;
  private javax.sql.DataSource h2;
  private String name;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void database() throws SQLException {
    name = "shared-" + ++budgets + "-" + ProcessHandle.current().pid();
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    h2 = AnswersSeenTest.plain(url);
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }
  }

  @AfterEach
  void closeDatabase() throws SQLException {
    keepAlive.close();
  }

  private RateLimitedDataSource instance(FakeTicker ticker, boolean share) {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.stale.share", Boolean.toString(share));
    if (share) {
      p.setProperty("sluice.stale.share-key", KEY);
    }
    return RateLimitedDataSource.builder(h2).name(name).budget(0.01).burst(1).breakerFlag(flag)
        .properties(p).ticker(ticker).build();
  }

  private void subscribers(int count) {
    String channel = "sluice:" + name + ":answers";
    try (redis.clients.jedis.Jedis look = redis.client()) {
      Await.until(count + " subscribers", DELIVERY,
          () -> look.pubsubNumSub(channel).get(channel) >= count);
    }
  }

  private static String byId(javax.sql.DataSource ds, int id) throws SQLException {
    return AnswersSeenTest.byId(ds, id);
  }

  /**
   * Waits until each instance's subscriber is confirmed by Redis: pub/sub keeps nothing, so a
   * result sent before an instance subscribed is never heard there (what a fresh clone's CI once
   * hit: "b keeps a's result" never came).
   */
  static void hearing(RateLimitedDataSource... instances) {
    for (RateLimitedDataSource ds : instances) {
      Await.until(ds.stats().name() + " subscribed to the kept results", DELIVERY,
          () -> ds.enforcer().hearsShared());
    }
  }

  /** Spends the instance's one permit and has a read refused: it limits, answers are active. */
  private static void limiting(RateLimitedDataSource ds) throws SQLException {
    byId(ds, 3);
    assertThatThrownBy(() -> byId(ds, 3)).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void aReadOneInstanceKept_answersTheIdenticalReadAnotherRefuses() throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, true);
        RateLimitedDataSource b = instance(tickerB, true)) {
      hearing(a, b);
      flag.trip();
      limiting(a);
      limiting(b);
      tickerA.advance(REFILL);
      assertThat(byId(a, 1)).isEqualTo("1:one"); // admitted on a, kept, sent
      Await.until("b keeps a's result", DELIVERY, () -> b.stats().answersKept() == 1);

      tickerB.advance(Duration.ofMillis(1200));
      String answered = byId(b, 1); // refused on b: no permit for 100 s
      assertThat(answered).startsWith("1:one (");
      long age = Long.parseLong(answered.substring(answered.indexOf('(') + 1,
          answered.indexOf(" ms")));
      assertThat(age).as("ms old: 1,200 of b's fake clock plus the wall-clock transit")
          .isBetween(1200L, 1200L + DELIVERY.toMillis());
      assertThat(b.stats().answered()).isEqualTo(1);
      assertThat(a.stats().answered()).isZero();
      assertThat(a.stats().answersKept()).as("a does not keep its own result twice").isEqualTo(1);
      try (LogTap log = LogTap.open()) {
        tickerB.advance(Duration.ofSeconds(11)); // a summary is due at the next refusal
        assertThatThrownBy(() -> byId(b, 2)).isInstanceOf(RateLimitExceededException.class);
        assertThat(log.lines("rejected ")).last().asString()
            .contains("1 from other instances' results");
      }
      tickerB.advance(Duration.ofSeconds(5));
      assertThatThrownBy(() -> byId(b, 1)).as("older than max-age on b's clock")
          .isInstanceOf(RateLimitExceededException.class);
    }
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
        t -> t.getName().startsWith("sluice-answers-") && t.getName().contains(name));
  }

  @Test
  void withoutSharing_orWhileTheOtherIsNotLimiting_nothingIsAnsweredFromElsewhere()
      throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, true);
        RateLimitedDataSource b = instance(tickerB, false);
        RateLimitedDataSource c = instance(new FakeTicker(), true);
        RateLimitedDataSource d = instance(new FakeTicker(), true)) {
      hearing(a, c, d);
      assertThat(b.enforcer().hearsShared()).as("b does not share").isFalse();
      flag.trip();
      limiting(a);
      limiting(b); // c has refused nothing: it is not limiting yet, and keeps nothing
      limiting(d);
      tickerA.advance(REFILL);
      assertThat(byId(a, 1)).isEqualTo("1:one");
      // a's clock stands still until it has sent the result: a result is sent as old as it is
      Await.until("d keeps a's first result", DELIVERY, () -> d.stats().answersKept() == 1);
      tickerA.advance(REFILL);
      assertThat(byId(a, 2)).isEqualTo("2:two");
      // Redis sends each message to every subscriber at once: d has handled both, so has c
      Await.until("d keeps a's two results", DELIVERY, () -> d.stats().answersKept() == 2);
      assertThat(b.stats().answersKept()).isZero();
      assertThat(c.stats().answersKept()).isZero();
      assertThatThrownBy(() -> byId(b, 1)).isInstanceOf(RateLimitExceededException.class);
    }
  }

  /**
   * Redis stopped while limiting: the instance that keeps a result still answers from it, nothing
   * fails; once Redis is back the subscriptions come back and results travel again.
   */
  @Test
  void redisStopped_eachAnswersFromItsOwn_andSharingResumesWhenItIsBack() throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, true);
        RateLimitedDataSource b = instance(tickerB, true)) {
      hearing(a, b);
      flag.trip();
      limiting(a);
      limiting(b);
      redis.stop();
      try {
        Await.until("b knows it hears nothing", DELIVERY, () -> !b.enforcer().hearsShared());
        tickerA.advance(REFILL);
        assertThat(byId(a, 1)).isEqualTo("1:one"); // kept here; Redis does not take it
        tickerA.advance(Duration.ofMillis(200));
        assertThat(byId(a, 1)).as("a answers from its own").isEqualTo("1:one (200 ms old)");
        assertThat(b.stats().answersKept()).isZero();
      } finally {
        redis.restart();
      }
      hearing(a, b);
      // each look at b keeps a new result on a, sent if Redis takes it, until b hears one
      Await.until("b hears a again", Duration.ofSeconds(20), () -> {
        tickerA.advance(REFILL);
        try {
          return byId(a, 2).equals("2:two") && b.stats().answersKept() == 1;
        } catch (SQLException e) {
          throw new AssertionError(e);
        }
      });
      tickerB.advance(Duration.ofMillis(50));
      assertThat(byId(b, 2)).startsWith("2:two (");
    }
  }

  /** Runs a write through {@code ds}, admitted: the instance's permit comes after a refill. */
  private static void write(RateLimitedDataSource ds, FakeTicker ticker, String sql)
      throws SQLException {
    ticker.advance(REFILL);
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.executeUpdate(sql);
    }
  }

  /**
   * Issue 38, item 6 with sharing: a write through a fences, on b, the result b kept itself and
   * the one it heard from a before the write; once b heard the fence neither is answered, and a
   * read kept after it is.
   */
  @Test
  void aWriteThroughA_fencesOnB_theResultsBKeptAndHeardBeforeIt() throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, true);
        RateLimitedDataSource b = instance(tickerB, true)) {
      hearing(a, b);
      flag.trip();
      limiting(a);
      limiting(b);
      tickerB.advance(REFILL);
      assertThat(byId(b, 1)).isEqualTo("1:one"); // b's own
      tickerA.advance(REFILL);
      assertThat(byId(a, 2)).isEqualTo("2:two"); // heard by b
      Await.until("b keeps both", DELIVERY, () -> b.stats().answersKept() == 2);
      tickerB.advance(Duration.ofMillis(10));
      assertThat(byId(b, 2)).startsWith("2:two (");

      write(a, tickerA, "UPDATE items SET name = 'uno' WHERE id = 1");
      Await.until("b hears the fence", DELIVERY,
          () -> b.enforcer().answers().sharedFencesHeard() == 1);

      tickerB.advance(Duration.ofMillis(10));
      assertThatThrownBy(() -> byId(b, 1)).as("b's own, kept before the write")
          .isInstanceOf(RateLimitExceededException.class);
      assertThatThrownBy(() -> byId(b, 2)).as("heard from a, kept before the write")
          .isInstanceOf(RateLimitExceededException.class);
      assertThat(a.enforcer().answers().sharedFencesSent()).isEqualTo(1);
      tickerB.advance(REFILL);
      assertThat(byId(b, 1)).isEqualTo("1:uno");
      tickerB.advance(Duration.ofMillis(10));
      assertThat(byId(b, 1)).as("kept after the fence").isEqualTo("1:uno (10 ms old)");
    }
  }

  /**
   * Redis stopped while limiting: b no longer hears the channel, so it answers from its own
   * results only, not from a's (a fence a sends meanwhile would not reach it); once it hears
   * again, a result it heard before the break is still not answered.
   */
  @Test
  void theChannelNotHeard_bAnswersFromItsOwnOnly_notFromWhatItHeardBefore() throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, true);
        RateLimitedDataSource b = instance(tickerB, true)) {
      hearing(a, b);
      flag.trip();
      limiting(a);
      limiting(b);
      tickerB.advance(REFILL);
      assertThat(byId(b, 1)).isEqualTo("1:one");
      tickerA.advance(REFILL);
      assertThat(byId(a, 2)).isEqualTo("2:two");
      Await.until("b keeps both", DELIVERY, () -> b.stats().answersKept() == 2);
      redis.stop();
      try {
        Await.until("b knows it hears nothing", DELIVERY, () -> !b.enforcer().hearsShared());
        tickerB.advance(Duration.ofMillis(10));
        assertThat(byId(b, 1)).as("its own").isEqualTo("1:one (10 ms old)");
        assertThatThrownBy(() -> byId(b, 2)).as("a's, while the channel is not heard")
            .isInstanceOf(RateLimitExceededException.class);
      } finally {
        redis.restart();
      }
      hearing(b);
      assertThatThrownBy(() -> byId(b, 2)).as("a's, heard before the break")
          .isInstanceOf(RateLimitExceededException.class);
      assertThat(byId(b, 1)).startsWith("1:one (");
    }
  }

  @Test
  void sharingWithoutRedisOrWithoutAnswers_isRefusedAtBuild() {
    Properties p = new Properties();
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.max-age", "5s");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share=true needs sluice.redis");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.stale.max-age", "0");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share=true needs sluice.stale.max-age above 0, but"
            + " sluice.stale.max-age was \"0\"");
    p.setProperty("sluice.stale.share", "yes");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share").hasMessageContaining("yes");
  }
}
