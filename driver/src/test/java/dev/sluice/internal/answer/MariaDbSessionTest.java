package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link MariaDbSession}'s catalog, read once a second per database and user by one caller, on a
 * connection that counts the queries it is asked (the queries themselves run against a real
 * MariaDB in {@code MariaDbAttackTest} and {@code MariaDbFidelityTest}); and where the server's
 * temporary tables are looked for.
 */
class MariaDbSessionTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicInteger queries = new AtomicInteger();
  private final AtomicReference<CountDownLatch> hold = new AtomicReference<>();
  private final AtomicReference<SQLException> failure = new AtomicReference<>();
  private static final AtomicInteger KEYS = new AtomicInteger();

  @Test
  void theCatalog_isReadOncePerSecond_forEverySessionOfADatabaseAndUser() throws Exception {
    String key = key();
    TableReach first = MariaDbSession.catalog(counting(), key, 0);
    assertThat(MariaDbSession.catalog(counting(), key, SECOND - 1)).isSameAs(first);
    assertThat(queries).as("one query for the second").hasValue(1);
    assertThat(MariaDbSession.catalog(counting(), key(), 10)).isNotSameAs(first);
    assertThat(queries).as("another user's or database's is its own").hasValue(2);
    assertThat(MariaDbSession.catalog(counting(), key, SECOND)).isNotSameAs(first);
    assertThat(queries).as("a second later, read again").hasValue(3);
  }

  @Test
  void whileOneReadsIt_theOthersWaitForIt_andNotLongerThanTheBound() throws Exception {
    String key = key();
    CountDownLatch release = new CountDownLatch(1);
    hold.set(release);
    CompletableFuture<TableReach> reader = CompletableFuture.supplyAsync(() -> {
      try {
        return MariaDbSession.catalog(counting(), key, 0);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    while (queries.get() == 0) {
      Thread.onSpinWait(); // the reader is in its query
    }
    long start = System.nanoTime();
    assertThat(MariaDbSession.catalog(counting(), key, 5)).as("not read in time: not known")
        .isNull();
    assertThat(System.nanoTime() - start).as("waited the bound, and not for the reader")
        .isBetween(TimeUnit.MILLISECONDS.toNanos(MariaDbSession.CATALOG_WAIT_MILLIS),
            5 * SECOND);
    CompletableFuture<TableReach> waiter = CompletableFuture.supplyAsync(() -> {
      try {
        return MariaDbSession.catalog(counting(), key, 6);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    release.countDown();
    TableReach read = reader.get(10, TimeUnit.SECONDS);
    assertThat(waiter.get(10, TimeUnit.SECONDS)).as("a waiter takes the reader's").isSameAs(read);
    assertThat(queries).as("one query for all three").hasValue(1);
  }

  @Test
  void aCatalogThatCannotBeRead_failsTheSession_andIsAskedAgainNextTime() throws Exception {
    String key = key();
    failure.set(new SQLException("denied"));
    assertThatThrownBy(() -> MariaDbSession.catalog(counting(), key, 0)).hasMessage("denied");
    failure.set(null);
    assertThat(MariaDbSession.catalog(counting(), key, 1)).isNotNull();
    assertThat(queries).hasValue(2);
  }

  @Test
  void temporaryTables_areLookedForWhereTheServerListsThem() throws SQLException {
    assertThat(MariaDbSession.listsTemporaryTables(server("10.11.19-MariaDB-0+deb12u1", 10, 11)))
        .as("MariaDB 10.11 lists none: the scan would find nothing").isFalse();
    assertThat(MariaDbSession.listsTemporaryTables(server("11.1.2-MariaDB", 11, 1))).isFalse();
    assertThat(MariaDbSession.listsTemporaryTables(server("11.2.0-MariaDB", 11, 2))).isTrue();
    assertThat(MariaDbSession.listsTemporaryTables(server("12.0.1-MariaDB", 12, 0))).isTrue();
    assertThat(MariaDbSession.listsTemporaryTables(server("8.0.36", 8, 0)))
        .as("not MariaDB: asked").isTrue();
  }

  private static String key() {
    return "jdbc:mariadb://test-" + KEYS.incrementAndGet() + "\0app@%";
  }

  /** A connection whose catalog query returns no rows, counted, held or failed as asked. */
  private Connection counting() {
    ResultSet empty = proxy(ResultSet.class, (m, a) -> m.getName().equals("next") ? false : null);
    Statement statement = proxy(Statement.class, (m, a) -> {
      if (m.getName().equals("executeQuery")) {
        queries.incrementAndGet();
        CountDownLatch latch = hold.getAndSet(null);
        if (latch != null) {
          latch.await(10, TimeUnit.SECONDS);
        }
        SQLException fail = failure.get();
        if (fail != null) {
          throw fail;
        }
        return empty;
      }
      return null;
    });
    return proxy(Connection.class, (m, a) -> m.getName().equals("createStatement") ? statement
        : null);
  }

  private static Connection server(String version, int major, int minor) {
    DatabaseMetaData meta = proxy(DatabaseMetaData.class, (m, a) -> switch (m.getName()) {
      case "getDatabaseProductVersion" -> version;
      case "getDatabaseMajorVersion" -> major;
      case "getDatabaseMinorVersion" -> minor;
      default -> null;
    });
    return proxy(Connection.class, (m, a) -> m.getName().equals("getMetaData") ? meta : null);
  }

  private interface Answer {
    Object answer(java.lang.reflect.Method m, Object[] a) throws Exception;
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, Answer answer) {
    return (T) Proxy.newProxyInstance(MariaDbSessionTest.class.getClassLoader(),
        new Class<?>[] {type}, (self, m, a) -> m.getName().equals("close") ? null
            : answer.answer(m, a));
  }
}
