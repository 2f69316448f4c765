package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.jdbc.StubJdbc;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Thousands of virtual threads through the data source: none is ever pinned with Sluice's code on
 * its stack. The stub driver parks in every execute (standing in for network I/O), so a monitor
 * held by our code around a driver call would pin the carrier and JFR would report a
 * {@code jdk.VirtualThreadPinned} event whose stack holds a {@code dev.sluice} frame. Runs on Java
 * 21+ only; compiled for 17, it reaches the virtual-thread executor reflectively.
 *
 * <p>From Java 24 (JEP 491) a monitor no longer pins, so there this test guards against the
 * remaining causes (native frames); {@code WrapperCompletenessTest} forbids {@code synchronized}
 * on the request path on every JDK.
 */
class VirtualThreadTest {
  private static final int THREADS = 5_000;
  private static final String PINNED = "jdk.VirtualThreadPinned";

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void thousandsOfVirtualThreads_throughTheDataSource_areNeverPinnedInSluice() throws Exception {
    RateLimitedDataSource dataSource = RateLimitedDataSource.builder(slowDriver())
        .name("virtual").budget(2_000).burst(200).build();
    AtomicInteger executed = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    // load every class on the path first: a class loader's lock pins whoever waits on it
    runOne(dataSource, true, executed, rejected, failed);
    runOne(dataSource, false, executed, rejected, failed);
    Path events = Files.createTempFile("sluice-pinning", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
      recording.start();
      ExecutorService threads = newVirtualThreadPerTaskExecutor();
      for (int i = 0; i < THREADS; i++) {
        boolean inTransaction = i % 4 == 0;
        threads.execute(() -> runOne(dataSource, inTransaction, executed, rejected, failed));
      }
      threads.shutdown();
      assertThat(threads.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
      recording.stop();
      recording.dump(events);
    }

    List<String> pinnedInSluice = RecordingFile.readAllEvents(events).stream()
        .filter(e -> e.getEventType().getName().equals(PINNED))
        .filter(VirtualThreadTest::hasSluiceFrame)
        .filter(e -> !isClassLoading(e))
        .map(RecordedEvent::toString).collect(Collectors.toList());
    Files.delete(events);
    assertThat(failed.get()).isZero();
    assertThat(executed.get() + rejected.get()).isEqualTo(THREADS + 2);
    assertThat(rejected.get()).isEqualTo(dataSource.stats().rejected());
    // at least the burst's worth of units: a transaction's door takes one permit and its two
    // further statements are charged into debt, so 200 permits admit no fewer than 200 / 3 units
    // (190 were seen when the threads all arrived within a few milliseconds)
    assertThat(executed.get()).isEqualTo(dataSource.stats().admitted())
        .isGreaterThanOrEqualTo(200 / 3);
    assertThat(pinnedInSluice).isEmpty();
    dataSource.close();
  }

  /** One unit of work: a statement under auto-commit, or a transaction of three. */
  private static void runOne(DataSource dataSource, boolean inTransaction, AtomicInteger executed,
      AtomicInteger rejected, AtomicInteger failed) {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      if (inTransaction) {
        connection.setAutoCommit(false);
        statement.executeUpdate("update");
        statement.executeUpdate("update");
        statement.executeUpdate("update");
        connection.commit();
      } else {
        statement.executeQuery("select").close();
      }
      executed.incrementAndGet();
    } catch (RateLimitExceededException e) {
      rejected.incrementAndGet();
    } catch (SQLException | RuntimeException e) {
      failed.incrementAndGet();
    }
  }

  private static boolean hasSluiceFrame(RecordedEvent event) {
    return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
        .map(RecordedFrame::getMethod)
        .anyMatch(m -> m.getType().getName().startsWith("dev.sluice."));
  }

  /**
   * Whether the thread waited on a class loader's lock: the JDK pins there whatever the code on
   * the stack (a class loaded for the first time by two threads at once), so it says nothing
   * about Sluice.
   */
  private static boolean isClassLoading(RecordedEvent event) {
    return event.getStackTrace().getFrames().stream().limit(3)
        .map(f -> f.getMethod().getType().getName())
        .anyMatch(type -> type.startsWith("jdk.internal.loader.")
            || type.equals("java.lang.ClassLoader"));
  }

  /** A data source of stub connections that park 1 ms in every execute. */
  private static DataSource slowDriver() {
    return (DataSource) Proxy.newProxyInstance(VirtualThreadTest.class.getClassLoader(),
        new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
          if (method.getName().equals("getConnection")) {
            return StubJdbc.slowConnection(TimeUnit.MILLISECONDS.toNanos(1));
          }
          if (method.getName().equals("toString")) {
            return "slow stub driver";
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()}, which Java 17 cannot name. */
  private static ExecutorService newVirtualThreadPerTaskExecutor() throws Exception {
    return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
        .invoke(null);
  }
}
