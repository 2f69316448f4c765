package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.internal.answer.ForgedMessages;
import dev.sluice.testing.Await;
import dev.sluice.testing.TestRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class EnforcerJmxTest {

  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
  private static final Duration DELIVERY = Duration.ofSeconds(10);
  private static final String NO_DROPS = "unsigned 0, unknown-key 0, bad-signature 0, expired 0,"
      + " replayed 0, environment 0, undecodable 0";

  private static ObjectName name(String name) throws Exception {
    return new ObjectName("dev.sluice:type=RateLimitedDataSource,name=" + name);
  }

  @Test
  void build_byDefault_registersTheFiguresUnderTheBudgetName() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-figures").budget(100).instances(4)
        .burst(7).scope(Scope.CONNECTION).breakerFlag(BreakerFlag.manual()).build()) {
      ObjectName on = name("mx-figures");

      assertThat(SERVER.isRegistered(on)).isTrue();
      assertThat(SERVER.getAttribute(on, "Name")).isEqualTo("mx-figures");
      assertThat(SERVER.getAttribute(on, "Budget")).isEqualTo(100.0);
      assertThat(SERVER.getAttribute(on, "Instances")).isEqualTo(4.0);
      assertThat(SERVER.getAttribute(on, "PermitsPerSecond")).isEqualTo(25.0);
      assertThat(SERVER.getAttribute(on, "Burst")).isEqualTo(7);
      assertThat(SERVER.getAttribute(on, "Scope")).isEqualTo("CONNECTION");
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(false);
      assertThat(SERVER.getAttribute(on, "FlagManual")).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "Flag")).isEqualTo("BreakerFlag.manual(closed)");
      assertThat(SERVER.getAttribute(on, "FlagState")).isEqualTo("CLOSED");
      assertThat(SERVER.getAttribute(on, "SinceFlagReadMillis")).isEqualTo(0L);
      assertThat(SERVER.getAttribute(on, "LiveInstances")).isEqualTo(0);
    }
  }

  @Test
  void close_registered_unregisters() throws Exception {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-close").budget(10).build();
    assertThat(SERVER.isRegistered(name("mx-close"))).isTrue();

    ds.close();

    assertThat(SERVER.isRegistered(name("mx-close"))).isFalse();
  }

  @Test
  void build_jmxFalse_registersNothing() throws Exception {
    Properties props = new Properties();
    props.setProperty("sluice.jmx", "false");
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-off").budget(10).properties(props)
        .build()) {
      assertThat(SERVER.isRegistered(name("mx-off"))).isFalse();
    }
  }

  @Test
  void build_badJmxValue_namesTheKey() {
    Properties props = new Properties();
    props.setProperty("sluice.jmx", "yes");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RateLimitedDataSource.builder(ObservabilityFixtures.stubDataSource())
            .properties(props));

    assertThat(e.getMessage()).isEqualTo("sluice.jmx must be `true` or `false`, but was \"yes\"");
  }

  @Test
  void build_nameTaken_registersTheSecondWithASuffix() throws Exception {
    try (RateLimitedDataSource first = ObservabilityFixtures.oneCheckout("mx-twice",
        BreakerFlag.manual())) {
      try (RateLimitedDataSource second = ObservabilityFixtures.oneCheckout("mx-twice",
          BreakerFlag.alwaysOpen())) {
        assertThat(SERVER.isRegistered(name("mx-twice"))).isTrue();
        assertThat(SERVER.isRegistered(name("mx-twice#2"))).isTrue();
        assertThat(SERVER.getAttribute(name("mx-twice#2"), "FlagManual")).isEqualTo(false);
      }
      assertThat(SERVER.isRegistered(name("mx-twice#2"))).isFalse();
      assertThat(SERVER.isRegistered(name("mx-twice"))).isTrue();
    }
  }

  @Test
  void tripFlag_manualFlag_startsLimitingAndCountsTheDecisions() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-trip", flag)) {
      ObjectName on = name("mx-trip");

      SERVER.invoke(on, "tripFlag", null, null);
      ds.getConnection().close();
      assertThrows(RateLimitExceededException.class, ds::getConnection);

      assertThat(flag.isOpen()).isTrue();
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "FlagState")).isEqualTo("OPEN");
      assertThat(SERVER.getAttribute(on, "Admitted")).isEqualTo(1L);
      assertThat(SERVER.getAttribute(on, "Rejected")).isEqualTo(1L);
      assertThat(SERVER.getAttribute(on, "Forced")).isEqualTo(0L);

      SERVER.invoke(on, "resetFlag", null, null);
      assertThat(flag.isOpen()).isFalse();
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(true); // the cap holds
      assertThat(SERVER.getAttribute(on, "Recovering")).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "FlagState")).isEqualTo("CLOSED");
      assertThrows(RateLimitExceededException.class, ds::getConnection);

      assertThat(SERVER.invoke(on, "endRecovery", null, null)).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "Recovering")).isEqualTo(false);
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(false);
      ds.getConnection().close(); // closed flag, recovery over: passes uncounted
      assertThat(SERVER.getAttribute(on, "Rejected")).isEqualTo(2L);
      assertThat(SERVER.invoke(on, "endRecovery", null, null)).isEqualTo(false); // none left
    }
  }

  /** Issue 10 item 15: the message said to SET a Redis key when there was no Redis at all. */
  @Test
  void tripOrResetFlag_alwaysOpen_refusedSayingWhatToDoInstead() throws Exception {
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-always",
        BreakerFlag.alwaysOpen())) {
      for (String operation : new String[] {"tripFlag", "resetFlag"}) {
        RuntimeMBeanException e = assertThrows(RuntimeMBeanException.class,
            () -> SERVER.invoke(name("mx-always"), operation, null, null));

        assertThat(e.getCause()).as(operation)
            .isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("the flag is always open")
            .hasMessageContaining("call setBudget")
            .hasMessageContaining("sluice.flag=manual")
            .hasMessageNotContaining("sluice:mx-always:breaker");
      }
    }
  }

  @Test
  void tripFlag_otherFlag_refusedNamingWhereItLives() throws Exception {
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-supplied",
        BreakerFlag.of(() -> false))) {
      RuntimeMBeanException e = assertThrows(RuntimeMBeanException.class,
          () -> SERVER.invoke(name("mx-supplied"), "tripFlag", null, null));

      assertThat(e.getCause()).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("mx-supplied - cannot trip the breaker flag over JMX: it is"
              + " BreakerFlag.of(")
          .hasMessageContaining("the application's own code or its circuit breaker")
          .as("Redis advice only for a Redis flag (issue 21 item 11)")
          .hasMessageNotContaining("sluice:mx-supplied:breaker");
    }
  }

  /** Issue 10 item 15: a driver-made budget could not be switched at runtime. */
  @Test
  void flagManual_driverBudget_isSwitchedOverJmx() throws Exception {
    String url = "jdbc:sluice:h2:mem:mxmanual;sluice.name=mx-manual;sluice.flag=manual;"
        + "sluice.budget=1;sluice.burst=1";
    try (Connection c = new SluiceDriver().connect(url, null);
        Statement s = c.createStatement()) {
      ObjectName on = name("mx-manual");
      s.execute("SELECT 1");
      s.execute("SELECT 1"); // closed at start: passes uncounted
      assertThat(SERVER.getAttribute(on, "FlagManual")).isEqualTo(true);

      SERVER.invoke(on, "tripFlag", null, null);
      s.execute("SELECT 1");
      assertThrows(RateLimitExceededException.class, () -> s.execute("SELECT 1"));

      SERVER.invoke(on, "resetFlag", null, null); // the cap holds through the recovery
      assertThrows(RateLimitExceededException.class, () -> s.execute("SELECT 1"));
      assertThat(SERVER.getAttribute(on, "Recovering")).isEqualTo(true);
      SERVER.invoke(on, "endRecovery", null, null);
      s.execute("SELECT 1");
      assertThat(SERVER.getAttribute(on, "Rejected")).isEqualTo(2L);
    }
  }

  @Test
  void setBudget_valid_changesTheShareAtOnce() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-budget").budget(100).instances(4)
        .build()) {
      ObjectName on = name("mx-budget");

      SERVER.setAttribute(on, new Attribute("Budget", 200.0));

      assertThat(SERVER.getAttribute(on, "Budget")).isEqualTo(200.0);
      assertThat(SERVER.getAttribute(on, "PermitsPerSecond")).isEqualTo(50.0);
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(50.0);
      assertThat(ds.stats().budget()).isEqualTo(200.0);
    }
  }

  @Test
  void setBudget_raised_handsOutNoFreshBurst() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    flag.trip();
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-noburst", flag)) {
      ds.getConnection().close(); // the only permit of the next 1,000 s

      SERVER.setAttribute(name("mx-noburst"), new Attribute("Budget", 0.002));

      // the new rate refills in 500 s, not at once: the spent permit stays spent
      assertThrows(RateLimitExceededException.class, ds::getConnection);
    }
  }

  @Test
  void setBudget_invalid_refusedNamingTheKeyAndChangingNothing() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-bad").budget(100).build()) {
      ObjectName on = name("mx-bad");

      RuntimeMBeanException negative = assertThrows(RuntimeMBeanException.class,
          () -> SERVER.setAttribute(on, new Attribute("Budget", -5.0)));
      RuntimeMBeanException tiny = assertThrows(RuntimeMBeanException.class,
          () -> SERVER.setAttribute(on, new Attribute("Budget", 0.0001)));

      assertThat(negative.getCause()).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("sluice.budget must be a positive number, but was \"-5\"");
      assertThat(tiny.getCause()).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("sluice.budget must be from 0.001 to 1000000000 permits/s, but was"
              + " \"0.0001\"");
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(100.0);
      assertThat(SERVER.getAttribute(on, "Budget")).isEqualTo(100.0);
    }
  }

  /**
   * Issue 39 item 6: why reads were not answered, by reason, at a JMX console. Over a real H2
   * with answers on and a burst of 50 on a fake clock (every read here admitted, and looked at).
   */
  @Test
  void notEligibleByReason_readsNotKeptWhileAnswering_eachUnderItsReason() throws Exception {
    String url = "jdbc:h2:mem:mx-ineligible"; // kept while keepAlive is open
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (Connection keepAlive = items(url);
        RateLimitedDataSource ds = RateLimitedDataSource.builder(AnswersSeenTest.plain(url))
            .name("mx-ineligible").budget(0.01).burst(50).breakerFlag(flag).properties(p)
            .ticker(new FakeTicker()).build();
        Connection c = ds.getConnection()) {
      ObjectName on = name("mx-ineligible");
      String none = "transaction 0, locking 0, side-effect 0, session 0, parameters 0,"
          + " statement 0, type 0, rows 0, memory 0, unfinished 0";
      read(c, "SELECT id FROM items WHERE id = 1 FOR UPDATE"); // flag closed: not looked at
      assertThat(SERVER.getAttribute(on, "NotEligibleByReason")).isEqualTo(none);

      flag.trip();
      read(c, "SELECT 1"); // the session is read; kept
      read(c, "SELECT id FROM items WHERE id = 1 FOR UPDATE");
      read(c, "SELECT id FROM items WHERE id = 2 FOR UPDATE");
      c.setAutoCommit(false);
      read(c, "SELECT name FROM items WHERE id = 1");
      c.commit();
      c.setAutoCommit(true);

      assertThat(SERVER.getAttribute(on, "NotEligibleByReason")).isEqualTo("transaction 1,"
          + " locking 2, side-effect 0, session 0, parameters 0, statement 0, type 0, rows 0,"
          + " memory 0, unfinished 0");
      assertThat(ds.stats().notEligibleByReason()).containsEntry("transaction", 1L)
          .containsEntry("locking", 2L).hasSize(10);
    }
  }

  /**
   * Issue 39 item 6: sharing at a JMX console, and in the meters. Two instances of one budget over
   * one H2 and a real Redis, each on a fake clock (budget 0.01/s, burst 1), as in
   * {@link AnswersSharedTest}: a result one keeps is sent, and heard by the other; messages an
   * attacker publishes on the channel are dropped, each counted under its reason.
   */
  @Test
  void sharedFigures_twoInstancesOverARealRedis_sentHeardAndDroppedByReason() throws Exception {
    String name = "mx-shared-" + ProcessHandle.current().pid();
    String url = "jdbc:h2:mem:" + name;
    BreakerFlag.Manual flag = BreakerFlag.manual();
    FakeTicker tickerA = new FakeTicker();
    try (TestRedis redis = TestRedis.start();
        Connection keepAlive = items(url);
        RateLimitedDataSource a = sharing(name, url, redis, flag, tickerA);
        RateLimitedDataSource b = sharing(name, url, redis, flag, new FakeTicker())) {
      ObjectName onA = name(name);
      ObjectName onB = name(name + "#2"); // the same sluice.name in one JVM
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      SluiceMetrics.of(b).bindTo(registry);
      AnswersSharedTest.hearing(a, b);
      assertThat(SERVER.getAttribute(onB, "SharedDroppedByReason")).isEqualTo(NO_DROPS);
      flag.trip();
      limiting(a);
      limiting(b);

      tickerA.advance(Duration.ofSeconds(100));
      assertThat(AnswersSeenTest.byId(a, 1)).isEqualTo("1:one"); // admitted on a, kept, sent
      Await.until("b hears a's result", DELIVERY,
          () -> attribute(onB, "SharedHeard").equals(1L));
      assertThat(SERVER.getAttribute(onA, "SharedSent")).isEqualTo(1L);
      assertThat(SERVER.getAttribute(onA, "SharedHeard")).as("its own: not heard").isEqualTo(0L);
      assertThat(SERVER.getAttribute(onB, "SharedSent")).isEqualTo(0L);

      try (var attacker = redis.client()) {
        String channel = "sluice:" + name + ":answers";
        attacker.publish(channel, "not a message of Sluice");
        attacker.publish(channel, "s1 k1 sender 1 env 0 QUJD signature"); // no key of b's
        attacker.publish(channel, ForgedMessages.signed("s1 k s 1 env 0 QUJD signature", name,
            "attacker-key-0123456789abcdef01234", System.currentTimeMillis(), 1));
      }
      Await.until("b drops the three", DELIVERY, () -> b.stats().sharedDroppedByReason()
          .values().stream().mapToLong(Long::longValue).sum() == 3);
      assertThat(SERVER.getAttribute(onB, "SharedDroppedByReason")).isEqualTo("unsigned 1,"
          + " unknown-key 2, bad-signature 0, expired 0, replayed 0, environment 0,"
          + " undecodable 0");
      assertThat(SERVER.getAttribute(onB, "SharedHeard")).isEqualTo(1L);
      assertThat(registry.get("sluice.answers.shared.dropped").tag("reason", "unknown-key")
          .functionCounter().count()).isEqualTo(2);
      assertThat(registry.get("sluice.answers.shared.dropped").tag("reason", "unsigned")
          .functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("sluice.answers.shared").tag("what", "heard").functionCounter()
          .count()).isEqualTo(1);
      assertThat(registry.get("sluice.answers.shared").tag("what", "sent").functionCounter()
          .count()).isZero();
    }
  }

  private static Object attribute(ObjectName on, String attribute) {
    try {
      return SERVER.getAttribute(on, attribute);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static RateLimitedDataSource sharing(String name, String url, TestRedis redis,
      BreakerFlag flag, FakeTicker ticker) {
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "30s");
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.redis", redis.uri());
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.share-key", AnswersSharedTest.KEY);
    return RateLimitedDataSource.builder(AnswersSeenTest.plain(url)).name(name).budget(0.01)
        .burst(1).breakerFlag(flag).properties(p).ticker(ticker).build();
  }

  /** Spends the instance's one permit and has a read refused: it limits, answers are active. */
  private static void limiting(RateLimitedDataSource ds) throws SQLException {
    AnswersSeenTest.byId(ds, 3);
    assertThrows(RateLimitExceededException.class, () -> AnswersSeenTest.byId(ds, 3));
  }

  /** A connection that keeps the H2 database of {@code url}, with its table {@code items}. */
  private static Connection items(String url) throws SQLException {
    Connection keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }
    return keepAlive;
  }

  private static void read(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }
}
