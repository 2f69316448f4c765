package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.util.Properties;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The OpenTelemetry API is optional: where no class of it exists, a budget is built, admits and
 * refuses while limiting, and never loads {@code OpenTelemetryDecisions}.
 */
class OpenTelemetryAbsentTest {

  private static URL whereIs(Class<?> type) {
    return type.getProtectionDomain().getCodeSource().getLocation();
  }

  /**
   * The API's and its context's jars without {@code opentelemetry-common}, which the context
   * needs since 1.5x (a class path seen in the benchmarks): {@code Span} loads, and
   * {@code Span.current()} fails. Tracing stays off from the start, rather than the limiter's
   * first decision failing a call.
   */
  @Test
  void openTelemetryApiWithoutItsParts_tracingOff() throws Exception {
    URL[] classPath = {whereIs(RateLimitedDataSource.class), whereIs(org.slf4j.Logger.class),
        whereIs(io.opentelemetry.api.trace.Span.class),
        whereIs(io.opentelemetry.context.Context.class)};
    try (URLClassLoader loader =
        new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
      assertThat(Class.forName("io.opentelemetry.api.trace.Span", false, loader)).isNotNull();
      Class<?> tracing = Class.forName("dev.sluice.internal.trace.Tracing", true, loader);
      assertThat(tracing.getMethod("decisions", String.class).invoke(null, "x")).isNull();
    }
  }

  @Test
  void limiting_withoutOpenTelemetryOnTheClassPath_admitsAndRefuses() throws Exception {
    URL[] classPath = {whereIs(RateLimitedDataSource.class), whereIs(org.slf4j.Logger.class)};
    try (URLClassLoader loader =
        new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
      assertThrows(ClassNotFoundException.class,
          () -> Class.forName("io.opentelemetry.api.trace.Span", false, loader));
      Class<?> type = Class.forName("dev.sluice.RateLimitedDataSource", true, loader);
      Object builder = type.getMethod("builder", DataSource.class)
          .invoke(null, ObservabilityFixtures.stubDataSource());
      Class<?> builderType = builder.getClass();
      builderType.getMethod("name", String.class).invoke(builder, "no-opentelemetry");
      builderType.getMethod("budget", double.class).invoke(builder, 0.001);
      builderType.getMethod("burst", int.class).invoke(builder, 1);
      Properties settings = new Properties();
      settings.setProperty("sluice.flag", "always"); // limiting from the first call
      settings.setProperty("sluice.scope", "connection"); // the checkout is the door
      builderType.getMethod("properties", Properties.class).invoke(builder, settings);
      DataSource ds = (DataSource) builderType.getMethod("build").invoke(builder);
      Method close = type.getMethod("close");
      try {
        try (Connection admitted = ds.getConnection()) {
          assertThat(admitted).isNotNull();
        }
        Exception refused = assertThrows(Exception.class, ds::getConnection);
        assertThat(refused.getClass().getName())
            .isEqualTo("dev.sluice.RateLimitExceededException");
        Class<?> decisions = Class.forName("dev.sluice.internal.trace.Tracing", true, loader);
        assertThat(decisions.getMethod("decisions", String.class).invoke(null, "x")).isNull();
      } finally {
        try {
          close.invoke(ds);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    }
  }
}
