package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * What a scrape of the meters costs: each meter reads its one figure where it lives, so a scrape
 * of the forty-odd meters builds no snapshot and allocates nothing (it used to build one
 * {@link Stats} per meter: some forty per scrape). Measured by the JVM's count of the bytes this
 * thread allocated, which does not depend on the machine's load; the time is printed, not
 * asserted.
 */
class ScrapeCostTest {
  private static final int SCRAPES = 20_000;

  @Test
  void aScrapeOfEveryMeter_allocatesNoSnapshot() throws Exception {
    scrapeCost(new java.util.Properties(), 40);
  }

  /** With answers on, their meters too: the reads not eligible by reason among them. */
  @Test
  void aScrapeOfEveryMeter_withAnswersOn_allocatesNoSnapshot() throws Exception {
    java.util.Properties answers = new java.util.Properties();
    answers.setProperty("sluice.stale.max-age", "5s");
    scrapeCost(answers, 55);
  }

  private static void scrapeCost(java.util.Properties properties, int leastMeters)
      throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("scrape-cost").budget(100)
        .properties(properties).build()) {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      SluiceMetrics.of(ds).bindTo(registry);
      List<Meter> meters = registry.getMeters();
      assertThat(meters).hasSizeGreaterThanOrEqualTo(leastMeters);
      double sink = 0;
      for (int i = 0; i < SCRAPES; i++) { // warm up: compiled, as in a long-running service
        sink += scrape(meters);
      }
      long bytesBefore = allocatedHere();
      long start = System.nanoTime();
      for (int i = 0; i < SCRAPES; i++) {
        sink += scrape(meters);
      }
      long nanos = System.nanoTime() - start;
      long bytes = allocatedHere() - bytesBefore;
      System.out.printf("[figures] a scrape of %d meters: %.0f ns, %.0f bytes allocated"
          + " (mean of %d; sum %s)%n", meters.size(), (double) nanos / SCRAPES,
          (double) bytes / SCRAPES, SCRAPES, sink);
      assertThat(bytes / SCRAPES).as("bytes allocated per scrape").isLessThan(64);
    }
  }

  /** The bytes this thread allocated so far (HotSpot's count, read through its MXBean). */
  private static long allocatedHere() throws Exception {
    return (Long) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME), "getThreadAllocatedBytes",
        new Object[] {Thread.currentThread().getId()}, new String[] {long.class.getName()});
  }

  private static double scrape(List<Meter> meters) {
    double sum = 0;
    for (Meter meter : meters) {
      if (meter instanceof Gauge) {
        sum += ((Gauge) meter).value();
      } else if (meter instanceof FunctionCounter) {
        sum += ((FunctionCounter) meter).count();
      }
    }
    return sum;
  }
}
