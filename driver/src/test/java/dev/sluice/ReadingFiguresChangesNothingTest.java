package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.LogTap;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * A Prometheus scrape, a JMX console and a health check observe; they never act. One outage and
 * its recovery, on a fake clock over H2 with answers on, is played twice: once with nobody
 * reading the figures, once with {@code stats()}, every MXBean attribute and every Micrometer
 * meter read after every call and by a thread scraping in a tight loop throughout. Every call
 * must get the same outcome (live, answered, refused), the counts must end equal, and limiting
 * must start and stop (the log's WARN lines) at the same ticks.
 *
 * <p>The script holds what made reading act before 0.4: after the flag closes nobody calls for
 * longer than the settle. A reader used to start the recovery at its read and end it a settle
 * later, so the flood that follows passed uncharged; with no reader the first call of the flood
 * starts the recovery and the flood is held at the share.
 */
@SuppressWarnings("try") // RateLimitedDataSource.close() declares Exception, as DataSource must
class ReadingFiguresChangesNothingTest {
  private static final String BY_ID = "SELECT id, name FROM items WHERE id = ?";
  private static final Duration TICK = Duration.ofMillis(100);
  private static final String[] TRANSITIONS = {"the cache breaker flag is open",
      "the cache is likely cold", "recovery ended", "open again during recovery"};
  private static int runs;

  @Test
  void scrapingInATightLoop_duringAnOutageAndItsRecovery_changesNoDecision() throws Exception {
    Run quiet = play(false);
    Run scraped = play(true);

    // at least after every call and in every tick by this thread (170 ticks), plus whatever the
    // tight loop managed: its count depends on the machine, so it is not bounded here
    assertThat(scraped.scrapes.get()).as("the figures were read").isGreaterThan(170);
    assertThat(quiet.transitions).as("the script starts and ends limiting")
        .anyMatch(t -> t.contains("the cache is likely cold"))
        .anyMatch(t -> t.contains("recovery ended"));
    assertThat(quiet.outcomes).as("the flood after the quiet gap is held at the share: refused,"
        + " and answered instead")
        .anyMatch(o -> o.matches("tick (7[5-9]|[89]\\d|10\\d) .*: answered"));
    assertThat(scraped.transitions).as("limiting starts and stops at the same ticks")
        .containsExactlyElementsOf(quiet.transitions);
    assertThat(scraped.outcomes).as("every call's outcome")
        .containsExactlyElementsOf(quiet.outcomes);
    assertThat(scraped.counts).as("admitted, rejected, answered, joined, forced")
        .isEqualTo(quiet.counts);
  }

  /** What one play of the script decided. */
  private static final class Run {
    final List<String> outcomes = new ArrayList<>();
    final List<String> transitions = new ArrayList<>();
    final AtomicLong scrapes = new AtomicLong();
    String counts;
  }

  private static Run play(boolean scrape) throws Exception {
    String name = "reading-" + ++runs + "-" + ProcessHandle.current().pid();
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    Run run = new Run();
    FakeTicker ticker = new FakeTicker();
    BreakerFlag.Manual flag = BreakerFlag.manual();
    Properties p = new Properties();
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.recovery.settle", "2s");
    p.setProperty("sluice.jmx", "true");
    AtomicBoolean playing = new AtomicBoolean(true);
    AtomicReference<Throwable> scraperFailed = new AtomicReference<>();
    try (Connection keepAlive = DriverManager.getConnection(url);
        LogTap log = LogTap.open();
        RateLimitedDataSource ds = RateLimitedDataSource.builder(AnswersSeenTest.plain(url))
            .name(name).budget(10).burst(2).breakerFlag(flag).properties(p).ticker(ticker)
            .build()) {
      try (Statement s = keepAlive.createStatement()) {
        s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
        s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')");
      }
      Scraper scraper = new Scraper(ds, name);
      Thread loop = new Thread(() -> {
        try {
          while (playing.get()) {
            scraper.scrapeOnce();
            run.scrapes.incrementAndGet();
          }
        } catch (Throwable e) {
          scraperFailed.set(e);
        }
      }, "test-scraper");
      if (scrape) {
        loop.start();
      }
      for (int tick = 0; tick < 170; tick++) {
        if (tick == 10) {
          flag.trip();
        } else if (tick == 40) {
          flag.reset();
        }
        for (int call = 0; call < callsAt(tick); call++) {
          int id = 1 + (tick + call) % 4;
          run.outcomes.add("tick " + tick + " read " + id + ": " + outcome(ds, id));
          if (scrape) {
            scraper.scrapeOnce();
            run.scrapes.incrementAndGet();
          }
        }
        if (scrape) {
          scraper.scrapeOnce(); // also in the ticks without a call: the quiet gap above all
          run.scrapes.incrementAndGet();
        }
        seen(log, name, tick, run.transitions);
        ticker.advance(TICK);
      }
      playing.set(false);
      loop.join();
      assertThat(scraperFailed.get()).as("the scraper's reads").isNull();
      Stats end = ds.stats();
      run.counts = end.admitted() + " admitted, " + end.rejected() + " rejected, "
          + end.answered() + " answered, " + end.joined() + " joined, " + end.forced()
          + " forced";
    }
    return run;
  }

  /**
   * The script, 100 ms a tick: 1 s closed at 20 calls/s; 3 s open at 30/s (the share is 10/s);
   * closed at tick 40, then 3.5 s without a call (the settle is 2 s); a flood of 30/s for 3.5 s;
   * 4 s at 2.5/s, below the 8/s that lets a recovery settle; 2 s at 20/s.
   */
  private static int callsAt(int tick) {
    if (tick < 10) {
      return 2;
    } else if (tick < 40) {
      return 3;
    } else if (tick < 75) {
      return 0;
    } else if (tick < 110) {
      return 3;
    } else if (tick < 150) {
      return tick % 4 == 0 ? 1 : 0;
    }
    return 2;
  }

  private static String outcome(RateLimitedDataSource ds, int id) throws SQLException {
    try {
      String read = AnswersSeenTest.byId(ds, id);
      return read.contains(" ms old)") ? "answered" : "live";
    } catch (RateLimitExceededException e) {
      return "refused";
    }
  }

  /** Adds the WARN lines of limiting's starts and stops logged so far, with the tick. */
  private static void seen(LogTap log, String name, int tick, List<String> transitions) {
    int before = transitions.size();
    List<String> now = new ArrayList<>();
    for (String line : log.lines(name + " - ")) {
      for (String t : TRANSITIONS) {
        if (line.contains(t)) {
          now.add(t);
        }
      }
    }
    for (int i = before; i < now.size(); i++) {
      transitions.add("tick " + tick + ": " + now.get(i));
    }
  }

  /** Reads every figure the ways an operator's tools do. */
  private static final class Scraper {
    private final RateLimitedDataSource ds;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final ObjectName bean;
    private final String[] attributes;

    Scraper(RateLimitedDataSource ds, String name) throws Exception {
      this.ds = ds;
      SluiceMetrics.of(ds).bindTo(registry);
      bean = EnforcerJmx.objectName(name);
      MBeanAttributeInfo[] infos = server.getMBeanInfo(bean).getAttributes();
      attributes = new String[infos.length];
      for (int i = 0; i < infos.length; i++) {
        attributes[i] = infos[i].getName();
      }
      assertThat(scrapeOnce()).as("figures read by one scrape").isGreaterThan(60);
    }

    /** Returns how many values it read. */
    int scrapeOnce() throws Exception {
      int read = ds.stats().toString().isEmpty() ? 0 : 1; // toString reads every figure
      read += ds.management().isLimiting() | ds.management().isRecovering() ? 2 : 2;
      read += server.getAttributes(bean, attributes).size();
      for (Meter meter : registry.getMeters()) {
        for (Measurement m : meter.measure()) {
          read += Double.isInfinite(m.getValue()) ? 0 : 1;
        }
      }
      return read;
    }
  }
}
