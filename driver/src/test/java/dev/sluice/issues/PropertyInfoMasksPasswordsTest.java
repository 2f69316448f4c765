package dev.sluice.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.SluiceDriver;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 5: {@code getPropertyInfo} returned the database driver's {@code password} entry
 * as the driver gave it, in clear, breaking 0.1's promise that Sluice never shows a credential.
 * PostgreSQL's driver returns every property with its value; this stand-in does the same.
 */
class PropertyInfoMasksPasswordsTest {
  private final Driver echoing = new EchoingDriver();

  @BeforeEach
  void register() throws SQLException {
    DriverManager.registerDriver(echoing);
  }

  @AfterEach
  void deregister() throws SQLException {
    DriverManager.deregisterDriver(echoing);
  }

  @Test
  void realDriversPasswordEntries_areMasked() throws SQLException {
    Properties info = new Properties();
    info.setProperty("user", "app");
    info.setProperty("password", "hunter2");
    info.setProperty("sslpassword", "hunter3");
    info.setProperty("socketFactoryArg", "redis://u:hunter4@h:1");

    DriverPropertyInfo[] infos = new SluiceDriver().getPropertyInfo(
        "jdbc:sluice:echo://db/app?sluice.budget=5", info);

    assertThat(Arrays.stream(infos).map(i -> i.name + "=" + i.value))
        .contains("user=app", "password=****", "sslpassword=****",
            "socketFactoryArg=redis://u:****@h:1")
        .noneMatch(shown -> shown.contains("hunter"));
  }

  /** Accepts {@code jdbc:echo:} and lists every property it was given, as PgJDBC does. */
  private static final class EchoingDriver implements Driver {
    @Override
    public Connection connect(String url, Properties info) {
      return null;
    }

    @Override
    public boolean acceptsURL(String url) {
      return url.startsWith("jdbc:echo:");
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
      return info.stringPropertyNames().stream().sorted()
          .map(name -> new DriverPropertyInfo(name, info.getProperty(name)))
          .toArray(DriverPropertyInfo[]::new);
    }

    @Override
    public int getMajorVersion() {
      return 1;
    }

    @Override
    public int getMinorVersion() {
      return 0;
    }

    @Override
    public boolean jdbcCompliant() {
      return false;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }
  }
}
