package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Issue 36, item 6: the estimate of a kept result against the heap it holds. Results of one row and
 * ten columns read from a real PostgreSQL (its metadata, its values) are kept the way a recording
 * keeps them, many of them, and the heap they hold is measured by {@code Runtime} deltas after
 * full collections. Run by hand against a local PostgreSQL:
 * {@code IT_SLUICE_MEASURE_PG=jdbc:postgresql://localhost:5432/test?user=postgres mvn -pl driver
 * -am test -Dtest=KeptSizeMeasureTest}.
 */
@EnabledIfEnvironmentVariable(named = "IT_SLUICE_MEASURE_PG", matches = "jdbc:postgresql:.*")
class KeptSizeMeasureTest {
  private static final int RESULTS = 5_000;

  @Test
  void estimate_oneRowTenColumns_errsHighAgainstTheHeap() throws Exception {
    try (Connection c = DriverManager.getConnection(System.getenv("IT_SLUICE_MEASURE_PG"));
        Statement s = c.createStatement()) {
      s.execute("CREATE TEMP TABLE kept_size (id int, name text, email varchar(100),"
          + " score bigint, price numeric(10,2), active boolean, created timestamp, born date,"
          + " note text, code int)");
      s.execute("INSERT INTO kept_size VALUES (1, 'Ada Lovelace', 'ada@example.com', 1234567,"
          + " 19.99, true, now(), '1815-12-10', 'first programmer', 42)");
      List<Kept> kept = new ArrayList<>(RESULTS);
      long estimated = 0;
      long before = used();
      for (int i = 0; i < RESULTS; i++) {
        try (ResultSet rs = s.executeQuery("SELECT * FROM kept_size WHERE " + i + " >= 0")) {
          Kept one = keep(rs, i);
          estimated += one.bytes();
          kept.add(one);
        }
      }
      long held = used() - before;
      double heapEach = (double) held / RESULTS;
      double estimateEach = (double) estimated / RESULTS;
      System.out.printf("[figures] one row, ten columns, PostgreSQL: estimated %.0f bytes each,"
          + " heap %.0f bytes each (%d results, Runtime deltas), estimate / heap = %.2f%n",
          estimateEach, heapEach, kept.size(), estimateEach / heapEach);
      assertThat(estimateEach).as("the estimate errs high").isGreaterThanOrEqualTo(heapEach);
    }
  }

  private static Kept keep(ResultSet rs, int i) throws Exception {
    ReadKey key = ReadKey.of("SELECT * FROM kept_size WHERE " + i + " >= 0", null, 0, "postgres",
        "test", "public");
    Columns columns = Columns.read(rs.getMetaData());
    int n = columns.count();
    Object[] objects = new Object[n];
    String[] texts = new String[n];
    byte[][] raws = new byte[n][];
    long size = Kept.baseBytes(key, columns);
    assertThat(rs.next()).isTrue();
    for (int col = 1; col <= n; col++) {
      objects[col - 1] = rs.getObject(col);
      texts[col - 1] = rs.getString(col);
      raws[col - 1] = rs.getBytes(col);
      size += Kept.valueBytes(objects[col - 1], texts[col - 1], raws[col - 1]);
    }
    return new Kept(key, columns, PostgresDialect.INSTANCE, objects, texts, raws, 1, size, 0);
  }

  private static long used() throws InterruptedException {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
