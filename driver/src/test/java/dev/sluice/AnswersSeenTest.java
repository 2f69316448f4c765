package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import dev.sluice.testing.LogTap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Answers as operators see them, over a real H2 (whose whole numbers and plain strings are
 * answered): the stats, the Micrometer meters on a real registry, the MBean on the platform
 * server and the rejection summary all show how many reads were answered, how (recent, joined),
 * how old they were, and what the store keeps. The bucket runs on a fake clock: budget 0.01/s,
 * burst 1, so the next permit comes 100 s of fake time later; an answer's age is fake time too.
 */
class AnswersSeenTest {
  private static final String BY_ID = "SELECT id, name FROM items WHERE id = ?";
  private static final Duration REFILL = Duration.ofSeconds(100);
  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
  private static int budgets;

  private final FakeTicker ticker = new FakeTicker();
  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private javax.sql.DataSource h2;
  private Connection keepAlive;
  private RateLimitedDataSource ds;
  private String name;

  @BeforeEach
  void start() throws SQLException {
    name = "seen-" + ++budgets;
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    h2 = plain(url);
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.summary-interval", "1s");
    ds = RateLimitedDataSource.builder(h2).name(name).budget(0.01).burst(1).breakerFlag(flag)
        .properties(p).ticker(ticker).build();
  }

  @AfterEach
  void stop() throws Exception {
    ds.close();
    keepAlive.close();
  }

  /** H2 as a plain {@code DataSource}: a connection per call, as a driver gives it. */
  static javax.sql.DataSource plain(String url) {
    return (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
        AnswersSeenTest.class.getClassLoader(), new Class<?>[] {javax.sql.DataSource.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "getConnection" -> DriverManager.getConnection(url);
          case "toString" -> "H2 " + url;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "isWrapperFor" -> false;
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  static String byId(javax.sql.DataSource ds, int id) throws SQLException {
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(BY_ID)) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        StringBuilder rows = new StringBuilder();
        while (rs.next()) {
          rows.append(rs.getInt(1)).append(':').append(rs.getString(2));
        }
        return rows + (rs.getWarnings() instanceof StaleResultWarning w ? " (" + w.ageMillis()
            + " ms old)" : "");
      }
    }
  }

  /** Limiting, answers active (a read was refused), and read 1 kept at fake time 100 s. */
  private void keepReadOne() throws SQLException {
    flag.trip();
    byId(ds, 3);
    assertThatThrownBy(() -> byId(ds, 3)).isInstanceOf(RateLimitExceededException.class);
    ticker.advance(REFILL);
    assertThat(byId(ds, 1)).isEqualTo("1:one");
  }

  @Test
  void aReadTheBurstAdmits_isKeptFromTheFlagsOpening_beforeAnyRefusal() throws SQLException {
    flag.trip();
    // the opening is seen by the first call that reads the flag (a look at the figures sees it
    // and changes nothing): here the read's own door, and a read sent as text has no parameters
    // to have missed, so the burst's read is kept
    assertThat(ds.stats().limiting()).isTrue();
    assertThat(textById(1)).as("admitted by the burst, and kept").isEqualTo("1:one");
    ticker.advance(Duration.ofMillis(300));
    assertThat(textById(1)).as("refused, answered").isEqualTo("1:one (300 ms old)");
    assertThat(ds.stats().answered()).isEqualTo(1);
  }

  /** The read by id sent as text, without parameters. */
  private String textById(int id) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name FROM items WHERE id = " + id)) {
      StringBuilder rows = new StringBuilder();
      while (rs.next()) {
        rows.append(rs.getInt(1)).append(':').append(rs.getString(2));
      }
      return rows + (rs.getWarnings() instanceof StaleResultWarning w ? " (" + w.ageMillis()
          + " ms old)" : "");
    }
  }

  @Test
  void statsMetersMBeanAndSummary_showTheAnswersTheirAgesAndTheStore() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SluiceMetrics.of(ds).bindTo(registry);
    assertThat(ds.stats().answerAgeMillis(0.99)).as("before any answer").isEqualTo(-1);
    assertThat(registry.find("sluice.answers.age").tag("quantile", "0.99").gauge().value())
        .isNaN();
    keepReadOne();

    try (LogTap log = LogTap.open()) {
      ticker.advance(Duration.ofMillis(1200));
      assertThat(byId(ds, 1)).isEqualTo("1:one (1200 ms old)");
      ticker.advance(Duration.ofMillis(2000));
      assertThat(byId(ds, 1)).isEqualTo("1:one (3200 ms old)");
      ticker.advance(Duration.ofMillis(100));
      assertThat(byId(ds, 1)).isEqualTo("1:one (3300 ms old)");
      ticker.advance(Duration.ofMillis(1500)); // a summary is due at the next refusal
      assertThat(byId(ds, 1)).isEqualTo("1:one (4800 ms old)");
      // the summary is written as the refusal comes, before it is answered: three so far
      assertThat(log.lines("rejected ")).last().asString()
          .contains("answered instead so far: 3, 0 of them joining a read in flight, aged p50"
              + " 3209 ms, p99 3309 ms");
    }

    Stats stats = ds.stats();
    assertThat(stats.answered()).isEqualTo(4);
    assertThat(stats.joined()).isZero();
    assertThat(stats.answersKept()).isEqualTo(1);
    assertThat(stats.answersKeptBytes()).isPositive();
    // exact under 1 s, to 10 ms under 10 s: the bucket's last millisecond
    assertThat(stats.answerAgeMillis(0)).isEqualTo(1209);
    assertThat(stats.answerAgeMillis(0.5)).isEqualTo(3209);
    assertThat(stats.answerAgeMillis(0.99)).isEqualTo(4809);

    FunctionCounter recent = registry.find("sluice.answers").tag("name", name)
        .tag("how", "recent").functionCounter();
    FunctionCounter joined = registry.find("sluice.answers").tag("name", name)
        .tag("how", "joined").functionCounter();
    assertThat(recent.count()).isEqualTo(4);
    assertThat(joined.count()).isZero();
    Gauge kept = registry.find("sluice.answers.kept").tag("name", name).gauge();
    Gauge bytes = registry.find("sluice.answers.kept.bytes").tag("name", name).gauge();
    assertThat(kept.value()).isEqualTo(1);
    assertThat(bytes.value()).isEqualTo(stats.answersKeptBytes());
    assertThat(registry.find("sluice.answers.age").tag("quantile", "0.5").gauge().value())
        .isEqualTo(3.209);
    assertThat(registry.find("sluice.answers.age").tag("quantile", "0.99").gauge().value())
        .isEqualTo(4.809);

    ObjectName mbean = new ObjectName("dev.sluice:type=RateLimitedDataSource,name=" + name);
    assertThat(SERVER.getAttribute(mbean, "Answered")).isEqualTo(4L);
    assertThat(SERVER.getAttribute(mbean, "Joined")).isEqualTo(0L);
    assertThat(SERVER.getAttribute(mbean, "AnswersKept")).isEqualTo(1);
    assertThat(SERVER.getAttribute(mbean, "AnswersKeptBytes")).isEqualTo(stats.answersKeptBytes());
    assertThat(SERVER.getAttribute(mbean, "AnswerAgeP99Millis")).isEqualTo(4809L);

    // limiting ends: the store empties, the counts and ages stay
    flag.reset();
    assertThat(byId(ds, 2)).isEqualTo("2:two");
    assertThat(kept.value()).isZero();
    assertThat(bytes.value()).isZero();
    assertThat(recent.count()).isEqualTo(4);
    assertThat(SERVER.getAttribute(mbean, "AnswerAgeP99Millis")).isEqualTo(4809L);
  }

  @Test
  void answersAreCountedByThePriorityTheLimitRefusedTheReadAt() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SluiceMetrics.of(ds).bindTo(registry);
    keepReadOne();
    ticker.advance(Duration.ofMillis(100));
    assertThat(byId(ds, 1)).isEqualTo("1:one (100 ms old)");
    assertThat(Priority.SHEDDABLE.call(() -> byId(ds, 1))).isEqualTo("1:one (100 ms old)");
    assertThat(Priority.SHEDDABLE.call(() -> byId(ds, 1))).isEqualTo("1:one (100 ms old)");

    Stats stats = ds.stats();
    assertThat(stats.answered(Priority.NORMAL)).isEqualTo(1);
    assertThat(stats.answered(Priority.SHEDDABLE)).isEqualTo(2);
    assertThat(stats.answered(Priority.CRITICAL)).isZero();
    assertThat(stats.joined(Priority.SHEDDABLE)).isZero();
    assertThat(stats.answered()).isEqualTo(3);
    assertThat(registry.get("sluice.priority.answers").tag("name", name)
        .tag("priority", "sheddable").tag("how", "recent").functionCounter().count())
        .isEqualTo(2);
    assertThat(registry.get("sluice.priority.answers").tag("name", name)
        .tag("priority", "normal").tag("how", "recent").functionCounter().count())
        .isEqualTo(1);
    assertThat(registry.get("sluice.priority.answers").tag("name", name)
        .tag("priority", "normal").tag("how", "joined").functionCounter().count())
        .isZero();
  }

  @Test
  void answersOff_theAnswerFiguresAreZeroAndTheAgeMinusOne() throws Exception {
    RateLimitedDataSource off = RateLimitedDataSource.builder(h2).name(name + "-off")
        .budget(0.01).burst(1).breakerFlag(flag).ticker(ticker).build();
    try (off) {
      flag.trip();
      byId(off, 1);
      assertThatThrownBy(() -> byId(off, 1)).isInstanceOf(RateLimitExceededException.class);
      Stats stats = off.stats();
      assertThat(stats.answered()).isZero();
      assertThat(stats.answersKept()).isZero();
      assertThat(stats.answersKeptBytes()).isZero();
      assertThat(stats.answerAgeMillis(0.99)).isEqualTo(-1);
    }
  }
}
