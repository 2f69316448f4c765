package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code sluice.stale.memory} bounds what the kept results keep reachable, measured in a child
 * JVM of {@code -Xmx96m} ({@link StoreMemoryWorker}): after each workload the heap a full
 * collection leaves, less the heap once the results are cleared, stays within the bound plus
 * 512 KB, and the figure the store reports ({@code answersKeptBytes}) is within 10 % of it.
 * The workloads: one read kept 200,000 times behind 20 others still served (in 0.3 the JVM ran
 * out of memory: the replaced results stayed reachable from the store's queue), a skewed
 * outage, wide rows, and other instances' results arriving faster than they are read while
 * this instance's own wait for a sending thread that never runs.
 */
class StoreMemoryTest {
  private static final long SLACK = 512 * 1024;

  @ParameterizedTest(name = "{0} within {1} bytes")
  @CsvSource({"hot, 1048576", "skewed, 4194304", "wide, 4194304", "shared, 4194304"})
  void whatTheStoreKeepsReachable_staysWithinTheBound_andIsReportedWithin10Percent(
      String workload, long bound) throws Exception {
    String figures = run(workload, bound);
    long reported = figure(figures, "reported");
    long retained = figure(figures, "retained");
    assertThat(retained).as(figures).isLessThanOrEqualTo(bound + SLACK);
    assertThat(reported).as(figures).isLessThanOrEqualTo(bound)
        .isGreaterThan(bound / 2); // full: the workloads put far more than the bound
    assertThat((double) Math.abs(reported - retained)).as(figures)
        .isLessThanOrEqualTo(0.10 * retained);
  }

  private static long figure(String line, String name) {
    for (String part : line.split(" ")) {
      if (part.startsWith(name + "=")) {
        return Long.parseLong(part.substring(name.length() + 1));
      }
    }
    throw new AssertionError("no " + name + " in " + line);
  }

  private static String run(String workload, long bound) throws IOException,
      InterruptedException {
    String surefire = System.getProperty("surefire.test.class.path");
    String classPath = surefire != null && !surefire.isBlank() ? surefire
        : System.getProperty("java.class.path");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
        "-XX:+UseSerialGC", "-cp", classPath.trim(), StoreMemoryWorker.class.getName(),
        workload, Long.toString(bound)));
    Path out = Files.createTempFile("store-memory-" + workload, ".out");
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(out.toFile()).start();
      boolean ended = process.waitFor(5, TimeUnit.MINUTES);
      if (!ended) {
        process.destroyForcibly();
      }
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      System.out.println("[figures] " + printed.strip());
      assertThat(ended).as("the child JVM ended").isTrue();
      assertThat(process.exitValue()).as(printed).isZero();
      return printed.lines().filter(l -> l.startsWith("figures ")).findFirst()
          .orElseThrow(() -> new AssertionError(printed));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
