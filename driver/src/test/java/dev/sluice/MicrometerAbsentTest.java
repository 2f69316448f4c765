package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Micrometer is optional: a data source is built and used where no Micrometer class exists. */
class MicrometerAbsentTest {

  private static URL whereIs(Class<?> type) {
    return type.getProtectionDomain().getCodeSource().getLocation();
  }

  @Test
  void dataSource_withoutMicrometerOnTheClassPath_buildsAndRuns() throws Exception {
    URL[] classPath = {whereIs(RateLimitedDataSource.class), whereIs(org.slf4j.Logger.class)};
    try (URLClassLoader loader =
        new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
      assertThrows(ClassNotFoundException.class,
          () -> Class.forName("io.micrometer.core.instrument.MeterRegistry", false, loader));
      Class<?> type = Class.forName("dev.sluice.RateLimitedDataSource", true, loader);
      assertThat(type.getClassLoader()).isSameAs(loader);

      Object builder = type.getMethod("builder", DataSource.class)
          .invoke(null, ObservabilityFixtures.stubDataSource());
      Class<?> builderType = builder.getClass();
      builderType.getMethod("name", String.class).invoke(builder, "no-micrometer");
      builderType.getMethod("budget", double.class).invoke(builder, 10.0);
      Object ds = builderType.getMethod("build").invoke(builder);
      try (Connection c = ((DataSource) ds).getConnection()) {
        assertThat(c).isNotNull();
      }
      Object stats = type.getMethod("stats").invoke(ds);
      Method close = type.getMethod("close");

      assertThat(stats.toString()).contains("no-micrometer");
      close.invoke(ds);
    }
  }
}
