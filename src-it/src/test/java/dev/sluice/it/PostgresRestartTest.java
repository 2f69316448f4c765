package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.RateLimitExceededException;
import dev.sluice.Scope;
import dev.sluice.it.support.Causes;
import dev.sluice.it.support.Mode;
import dev.sluice.it.support.Postgres;
import dev.sluice.it.support.Rig;
import dev.sluice.it.support.Servers;
import dev.sluice.it.support.Waits;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PostgreSQL stopped and started again while threads query through HikariCP and Sluice with the
 * flag open: the driver's and the pool's errors reach the application as they are, and service
 * resumes when the database is back. It uses a PostgreSQL of its own, whatever
 * {@code IT_SLUICE_PG_URL} says, since it has to stop it.
 */
class PostgresRestartTest {
  private static Postgres pg;

  @BeforeAll
  static void startOwnServer() {
    pg = Servers.closedAtExit(Postgres.startEmbedded());
  }

  @AfterAll
  static void stopOwnServer() {
    pg.close();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void postgresRestartedUnderLoad_errorsPassThroughUnchanged_andServiceResumes(Mode mode)
      throws Exception {
    try (Rig rig = Rig.of(mode, "pg-restart", 400, 40, Scope.STATEMENT, 4, pg)) {
      rig.openFlag();
      Load load = new Load(rig);
      load.start(4);
      Waits.until(Duration.ofSeconds(10), "queries succeed", () -> load.ok.get() > 50);

      pg.stop();
      Waits.until(Duration.ofSeconds(15), "the outage reaches the application",
          () -> !load.failures.isEmpty());
      // the pool's own error comes after its 5 s connection timeout: waited on, not slept
      // for (6.5 s of sleep left 1.5 s for a loaded machine)
      Waits.until(Duration.ofSeconds(30), "HikariCP's own timeout reaches the application",
          () -> load.failures.keySet().stream()
              .anyMatch(k -> k.startsWith("java.sql.SQLTransientConnectionException/")));
      long okBeforeRestart = load.ok.get();
      pg.start();
      Waits.until(Duration.ofSeconds(30), "service resumes after the restart",
          () -> load.ok.get() > okBeforeRestart + 50);
      load.stop();
      rig.closeFlag();

      System.out.printf("[figures] %s: %d ok, %d refused, failures by type: %s%n", mode,
          load.ok.get(), load.refused.get(), load.failures.keySet());
      load.failures.values().forEach(e -> System.out.println("  " + Causes.describe(e) + ": "
          + e.getMessage()));
      assertThat(load.failures.keySet()).as("errors seen during the outage")
          .anyMatch(k -> k.startsWith("org.postgresql.util.PSQLException/"))
          .anyMatch(k -> k.startsWith("java.sql.SQLTransientConnectionException/"));
      for (Map.Entry<String, Throwable> failure : load.failures.entrySet()) {
        Throwable e = failure.getValue();
        assertThat(Causes.chain(e)).as("%s is not ours nor wrapped by us", failure.getKey())
            .noneMatch(t -> t.getClass().getName().startsWith("dev.sluice."));
        assertThat(e).as(failure.getKey()).isInstanceOf(SQLException.class);
        assertThat(e.getClass().getName()).as(failure.getKey())
            .isIn("org.postgresql.util.PSQLException", "java.sql.SQLTransientConnectionException");
        if (e.getClass().getName().equals("org.postgresql.util.PSQLException")) {
          assertThat(((SQLException) e).getSQLState()).as("SQLState kept").isNotNull();
        } else {
          assertThat(e.getMessage()).as("HikariCP's own timeout").contains("request timed out");
        }
      }
      assertThat(load.strayRejections.get()).as("rejections carrying a driver error").isZero();
      Waits.until(Duration.ofSeconds(5), "no connection checked out",
          () -> rig.pool().getHikariPoolMXBean().getActiveConnections() == 0);
    }
  }

  /** Threads querying through the rig until stopped, sorting what they meet. */
  private static final class Load {
    final AtomicLong ok = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong strayRejections = new AtomicLong();
    /** One example per exception class and SQLState. */
    final Map<String, Throwable> failures = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final Rig rig;

    Load(Rig rig) {
      this.rig = rig;
    }

    void start(int count) {
      for (int i = 0; i < count; i++) {
        Thread t = new Thread(this::loop, "pg-restart-load-" + i);
        t.start();
        threads.add(t);
      }
    }

    void stop() throws InterruptedException {
      running.set(false);
      for (Thread t : threads) {
        t.join(30_000);
      }
    }

    private void loop() {
      while (running.get()) {
        try (Connection c = rig.dataSource().getConnection(); Statement s = c.createStatement()) {
          s.execute("select 1");
          ok.incrementAndGet();
        } catch (RateLimitExceededException e) {
          refused.incrementAndGet();
          if (e.getCause() != null || e.getNextException() != null) {
            strayRejections.incrementAndGet();
          }
          Waits.sleep(Duration.ofMillis(2));
        } catch (SQLException | RuntimeException e) {
          String state = e instanceof SQLException ? ((SQLException) e).getSQLState() : null;
          failures.putIfAbsent(e.getClass().getName() + "/" + state, e);
          Waits.sleep(Duration.ofMillis(20));
        }
      }
    }
  }
}
