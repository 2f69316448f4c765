package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Properties;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.Test;

class EnforcerJmxTest {

  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

  private static ObjectName name(String name) throws Exception {
    return new ObjectName("dev.sluice:type=RateLimitedDataSource,name=" + name);
  }

  @Test
  void build_byDefault_registersTheFiguresUnderTheBudgetName() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-figures").budget(100).instances(4)
        .burst(7).scope(Scope.CONNECTION).breakerFlag(BreakerFlag.manual()).build()) {
      ObjectName on = name("mx-figures");

      assertThat(SERVER.isRegistered(on)).isTrue();
      assertThat(SERVER.getAttribute(on, "Name")).isEqualTo("mx-figures");
      assertThat(SERVER.getAttribute(on, "Budget")).isEqualTo(100.0);
      assertThat(SERVER.getAttribute(on, "Instances")).isEqualTo(4.0);
      assertThat(SERVER.getAttribute(on, "PermitsPerSecond")).isEqualTo(25.0);
      assertThat(SERVER.getAttribute(on, "Burst")).isEqualTo(7);
      assertThat(SERVER.getAttribute(on, "Scope")).isEqualTo("CONNECTION");
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(false);
      assertThat(SERVER.getAttribute(on, "FlagManual")).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "Flag")).isEqualTo("BreakerFlag.manual(closed)");
      assertThat(SERVER.getAttribute(on, "FlagState")).isEqualTo("CLOSED");
      assertThat(SERVER.getAttribute(on, "SinceFlagReadMillis")).isEqualTo(0L);
      assertThat(SERVER.getAttribute(on, "LiveInstances")).isEqualTo(0);
    }
  }

  @Test
  void close_registered_unregisters() throws Exception {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-close").budget(10).build();
    assertThat(SERVER.isRegistered(name("mx-close"))).isTrue();

    ds.close();

    assertThat(SERVER.isRegistered(name("mx-close"))).isFalse();
  }

  @Test
  void build_jmxFalse_registersNothing() throws Exception {
    Properties props = new Properties();
    props.setProperty("sluice.jmx", "false");
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-off").budget(10).properties(props)
        .build()) {
      assertThat(SERVER.isRegistered(name("mx-off"))).isFalse();
    }
  }

  @Test
  void build_badJmxValue_namesTheKey() {
    Properties props = new Properties();
    props.setProperty("sluice.jmx", "yes");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RateLimitedDataSource.builder(ObservabilityFixtures.stubDataSource())
            .properties(props));

    assertThat(e.getMessage()).isEqualTo("sluice.jmx must be `true` or `false`, but was \"yes\"");
  }

  @Test
  void build_nameTaken_registersTheSecondWithASuffix() throws Exception {
    try (RateLimitedDataSource first = ObservabilityFixtures.oneCheckout("mx-twice",
        BreakerFlag.manual())) {
      try (RateLimitedDataSource second = ObservabilityFixtures.oneCheckout("mx-twice",
          BreakerFlag.alwaysOpen())) {
        assertThat(SERVER.isRegistered(name("mx-twice"))).isTrue();
        assertThat(SERVER.isRegistered(name("mx-twice#2"))).isTrue();
        assertThat(SERVER.getAttribute(name("mx-twice#2"), "FlagManual")).isEqualTo(false);
      }
      assertThat(SERVER.isRegistered(name("mx-twice#2"))).isFalse();
      assertThat(SERVER.isRegistered(name("mx-twice"))).isTrue();
    }
  }

  @Test
  void tripFlag_manualFlag_startsLimitingAndCountsTheDecisions() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-trip", flag)) {
      ObjectName on = name("mx-trip");

      SERVER.invoke(on, "tripFlag", null, null);
      ds.getConnection().close();
      assertThrows(RateLimitExceededException.class, ds::getConnection);

      assertThat(flag.isOpen()).isTrue();
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "FlagState")).isEqualTo("OPEN");
      assertThat(SERVER.getAttribute(on, "Admitted")).isEqualTo(1L);
      assertThat(SERVER.getAttribute(on, "Rejected")).isEqualTo(1L);
      assertThat(SERVER.getAttribute(on, "Forced")).isEqualTo(0L);

      SERVER.invoke(on, "resetFlag", null, null);
      assertThat(flag.isOpen()).isFalse();
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(true); // the cap holds
      assertThat(SERVER.getAttribute(on, "Recovering")).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "FlagState")).isEqualTo("CLOSED");
      assertThrows(RateLimitExceededException.class, ds::getConnection);

      assertThat(SERVER.invoke(on, "endRecovery", null, null)).isEqualTo(true);
      assertThat(SERVER.getAttribute(on, "Recovering")).isEqualTo(false);
      assertThat(SERVER.getAttribute(on, "Limiting")).isEqualTo(false);
      ds.getConnection().close(); // closed flag, recovery over: passes uncounted
      assertThat(SERVER.getAttribute(on, "Rejected")).isEqualTo(2L);
      assertThat(SERVER.invoke(on, "endRecovery", null, null)).isEqualTo(false); // none left
    }
  }

  /** Issue 10 item 15: the message said to SET a Redis key when there was no Redis at all. */
  @Test
  void tripOrResetFlag_alwaysOpen_refusedSayingWhatToDoInstead() throws Exception {
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-always",
        BreakerFlag.alwaysOpen())) {
      for (String operation : new String[] {"tripFlag", "resetFlag"}) {
        RuntimeMBeanException e = assertThrows(RuntimeMBeanException.class,
            () -> SERVER.invoke(name("mx-always"), operation, null, null));

        assertThat(e.getCause()).as(operation)
            .isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("the flag is always open")
            .hasMessageContaining("call setBudget")
            .hasMessageContaining("sluice.flag=manual")
            .hasMessageNotContaining("sluice:mx-always:breaker");
      }
    }
  }

  @Test
  void tripFlag_otherFlag_refusedNamingWhereItLives() throws Exception {
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-supplied",
        BreakerFlag.of(() -> false))) {
      RuntimeMBeanException e = assertThrows(RuntimeMBeanException.class,
          () -> SERVER.invoke(name("mx-supplied"), "tripFlag", null, null));

      assertThat(e.getCause()).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("mx-supplied - cannot trip the breaker flag over JMX: it is"
              + " BreakerFlag.of(")
          .hasMessageContaining("the application's own code or its circuit breaker")
          .as("Redis advice only for a Redis flag (issue 21 item 11)")
          .hasMessageNotContaining("sluice:mx-supplied:breaker");
    }
  }

  /** Issue 10 item 15: a driver-made budget could not be switched at runtime. */
  @Test
  void flagManual_driverBudget_isSwitchedOverJmx() throws Exception {
    String url = "jdbc:sluice:h2:mem:mxmanual;sluice.name=mx-manual;sluice.flag=manual;"
        + "sluice.budget=1;sluice.burst=1";
    try (Connection c = new SluiceDriver().connect(url, null);
        Statement s = c.createStatement()) {
      ObjectName on = name("mx-manual");
      s.execute("SELECT 1");
      s.execute("SELECT 1"); // closed at start: passes uncounted
      assertThat(SERVER.getAttribute(on, "FlagManual")).isEqualTo(true);

      SERVER.invoke(on, "tripFlag", null, null);
      s.execute("SELECT 1");
      assertThrows(RateLimitExceededException.class, () -> s.execute("SELECT 1"));

      SERVER.invoke(on, "resetFlag", null, null); // the cap holds through the recovery
      assertThrows(RateLimitExceededException.class, () -> s.execute("SELECT 1"));
      assertThat(SERVER.getAttribute(on, "Recovering")).isEqualTo(true);
      SERVER.invoke(on, "endRecovery", null, null);
      s.execute("SELECT 1");
      assertThat(SERVER.getAttribute(on, "Rejected")).isEqualTo(2L);
    }
  }

  @Test
  void setBudget_valid_changesTheShareAtOnce() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-budget").budget(100).instances(4)
        .build()) {
      ObjectName on = name("mx-budget");

      SERVER.setAttribute(on, new Attribute("Budget", 200.0));

      assertThat(SERVER.getAttribute(on, "Budget")).isEqualTo(200.0);
      assertThat(SERVER.getAttribute(on, "PermitsPerSecond")).isEqualTo(50.0);
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(50.0);
      assertThat(ds.stats().budget()).isEqualTo(200.0);
    }
  }

  @Test
  void setBudget_raised_handsOutNoFreshBurst() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    flag.trip();
    try (RateLimitedDataSource ds = ObservabilityFixtures.oneCheckout("mx-noburst", flag)) {
      ds.getConnection().close(); // the only permit of the next 1,000 s

      SERVER.setAttribute(name("mx-noburst"), new Attribute("Budget", 0.002));

      // the new rate refills in 500 s, not at once: the spent permit stays spent
      assertThrows(RateLimitExceededException.class, ds::getConnection);
    }
  }

  @Test
  void setBudget_invalid_refusedNamingTheKeyAndChangingNothing() throws Exception {
    try (RateLimitedDataSource ds = RateLimitedDataSource.builder(
        ObservabilityFixtures.stubDataSource()).name("mx-bad").budget(100).build()) {
      ObjectName on = name("mx-bad");

      RuntimeMBeanException negative = assertThrows(RuntimeMBeanException.class,
          () -> SERVER.setAttribute(on, new Attribute("Budget", -5.0)));
      RuntimeMBeanException tiny = assertThrows(RuntimeMBeanException.class,
          () -> SERVER.setAttribute(on, new Attribute("Budget", 0.0001)));

      assertThat(negative.getCause()).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("sluice.budget must be a positive number, but was \"-5\"");
      assertThat(tiny.getCause()).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("sluice.budget must be from 0.001 to 1000000000 permits/s, but was"
              + " \"0.0001\"");
      assertThat(ds.stats().permitsPerSecond()).isEqualTo(100.0);
      assertThat(SERVER.getAttribute(on, "Budget")).isEqualTo(100.0);
    }
  }
}
