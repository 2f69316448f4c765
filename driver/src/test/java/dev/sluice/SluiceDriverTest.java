package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.limit.Limiter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The driver end to end over H2, which refuses unknown settings in its URL: a leak fails loudly. */
class SluiceDriverTest {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final SluiceDriver driver = new SluiceDriver();
  private final String db = "drv" + DATABASES.incrementAndGet();

  @Test
  void h2_unknownUrlSetting_isRefusedByH2Itself() {
    // the premise of these tests: were a sluice.* token to reach H2, it would fail
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:h2:mem:x;sluice.budget=5"))
        .isInstanceOf(SQLException.class).hasMessageContaining("SLUICE.BUDGET");
  }

  @Test
  void connect_foreignUrl_returnsNull() throws SQLException {
    assertThat(driver.connect("jdbc:h2:mem:x", new Properties())).isNull();
    assertThat(driver.acceptsURL("jdbc:h2:mem:x")).isFalse();
    assertThat(driver.acceptsURL("jdbc:sluice:h2:mem:x")).isTrue();
  }

  @Test
  void driverManager_sluiceUrl_reachesH2WithoutOurSettings() throws SQLException {
    String url = "jdbc:sluice:h2:mem:" + db + ";DB_CLOSE_DELAY=-1;sluice.budget=1000;sluice.name="
        + db;
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(queryOne(c, "SELECT 1")).isEqualTo("1");
      assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:" + db); // H2 drops settings
      assertThat(SluiceDriver.stats(db)).isPresent();
    }
  }

  @Test
  void driverManager_settingsInProperties_workAndAreRemoved() throws SQLException {
    Properties info = new Properties();
    info.setProperty("sluice.budget", "1000");
    info.setProperty("sluice.name", db);
    info.setProperty("user", "sa");
    try (Connection c = DriverManager.getConnection("jdbc:sluice:h2:mem:" + db, info)) {
      assertThat(queryOne(c, "SELECT CURRENT_USER")).isEqualToIgnoringCase("sa");
      assertThat(SluiceDriver.stats(db)).isPresent();
    }
  }

  @Test
  void connect_h2EscapedInit_reachesH2Intact() throws SQLException {
    String url = "jdbc:sluice:h2:mem:" + db + ";INIT=CREATE SCHEMA IF NOT EXISTS S1\\;SET SCHEMA"
        + " S1;sluice.budget=1000;sluice.name=" + db;
    try (Connection c = driver.connect(url, new Properties())) {
      assertThat(queryOne(c, "SELECT SCHEMA()")).isEqualTo("S1");
    }
  }

  @Test
  void connect_sameNameTwice_sharesOneLimiter() throws SQLException {
    String url = "jdbc:sluice:h2:mem:" + db + ";sluice.budget=1000;sluice.name=" + db;
    try (Connection a = driver.connect(url, null)) {
      Limiter first = DriverEnforcers.SHARED.limiter(db);
      Properties info = new Properties();
      info.setProperty("sluice.budget", "1000");
      try (Connection b = DriverManager.getConnection("jdbc:sluice:h2:mem:" + db + ";sluice.name="
          + db, info)) {
        assertThat(a.isValid(1) && b.isValid(1)).isTrue();
        assertThat(DriverEnforcers.SHARED.limiter(db)).isNotNull().isSameAs(first);
      }
    }
  }

  @Test
  void connect_withoutName_derivesItFromTheDatabase() throws SQLException {
    try (Connection c = driver.connect("jdbc:sluice:h2:mem:" + db + ";sluice.budget=1000;"
        + "PASSWORD=secret", null)) {
      assertThat(c.isValid(1)).isTrue();
      assertThat(SluiceDriver.stats("mem-" + db)).isPresent();
    }
  }

  @Test
  void connect_sameNameOtherBudget_failsNamingBothValues() throws SQLException {
    String base = "jdbc:sluice:h2:mem:" + db + ";sluice.name=" + db;
    try (Connection c = driver.connect(base + ";sluice.budget=100", null)) {
      assertThat(c.isValid(1)).isTrue();
      assertThatThrownBy(() -> driver.connect(base + ";sluice.budget=200", null))
          .isInstanceOf(SQLNonTransientConnectionException.class)
          .hasMessageContaining("sluice.budget (\"100\" and \"200\")");
    }
  }

  /** Issue 10 item 14: closing a pool and opening one with other settings failed for 30-40 s. */
  @Test
  void connect_otherBudgetAfterTheConnectionsClosed_replacesTheBudget() throws SQLException {
    String base = "jdbc:sluice:h2:mem:" + db + ";sluice.name=" + db;
    driver.connect(base + ";sluice.budget=100", null).close();

    try (Connection c = driver.connect(base + ";sluice.budget=200", null)) {
      assertThat(c.isValid(1)).isTrue();
      assertThat(SluiceDriver.stats(db).orElseThrow().permitsPerSecond()).isEqualTo(200.0);
    }
  }

  @Test
  void connect_badValue_isAnSqlExceptionNamingKeyAndValue() {
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:x;sluice.budget=-5", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessage("sluice.budget must be a positive number, but was \"-5\"");
  }

  @Test
  void connect_unknownKey_isAnSqlExceptionNamingIt() {
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:x;sluice.bugdet=5", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageStartingWith("sluice.bugdet is not a Sluice setting; did you mean"
            + " sluice.budget?");
  }

  @Test
  void connect_duplicateKey_isAnSqlException() {
    assertThatThrownBy(() -> driver.connect(
        "jdbc:sluice:h2:mem:x;sluice.budget=5;sluice.budget=6", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessage("sluice.budget is given twice in the URL; give it once");
  }

  @Test
  void connect_missingBudget_saysSo() {
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:" + db, null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessage("sluice.budget must be a positive number, but was missing");
  }

  @Test
  void connect_doubledPrefix_isAnError() {
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:sluice:h2:mem:x;sluice.budget=5", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("jdbc:sluice: once");
  }

  @Test
  void connect_noRealDriver_namesTheMaskedUrlAndTheClassLoader() {
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:nosuchdb://scott:tiger@db/app"
        + "?password=tiger&sluice.budget=5", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageStartingWith("No JDBC driver accepts jdbc:nosuchdb://scott:****@db/app"
            + "?password=****")
        .hasMessageContaining("class loader")
        .hasMessageNotContaining("tiger");
  }

  @Test
  void connect_badRedisUri_masksItsPassword() {
    assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:x;sluice.budget=5;"
        + "sluice.redis=redis://u:hunter2@", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageStartingWith("sluice.redis must")
        .hasMessageNotContaining("hunter2");
  }

  /** Issue 10 item 10: each of these echoed some part of the password. */
  @Test
  void connect_malformedRedisUris_neverShowAnyPartOfThePassword() {
    String[][] cases = {
        {"sluice.redis=redis:/:s3cr3t@cache:6379", "redis:/:****@cache:6379"},
        {"sluice.redis=redis://u:s3c@r/3t@cache:6379", "redis://u:****@cache:6379"},
        {"sluice.redis=redis://:s3cr3t", "redis://:****"},
        {"sluice.redis=u:s3cr3t@cache:6379", "u:****@cache:6379"}};
    for (String[] c : cases) {
      assertThatThrownBy(() -> driver.connect("jdbc:sluice:h2:mem:x;sluice.budget=5;" + c[0],
          null))
          .as(c[0]).isInstanceOf(SQLNonTransientConnectionException.class)
          .hasMessageStartingWith("sluice.redis must")
          .hasMessageEndingWith("but was \"" + c[1] + "\"")
          .hasMessageNotContaining("s3c").hasMessageNotContaining("3t");
    }
  }

  @Test
  void getPropertyInfo_redisUriWithPassword_showsItMasked() throws SQLException {
    Properties info = new Properties();
    info.setProperty("sluice.redis.password", "hunter2");
    DriverPropertyInfo[] infos = driver.getPropertyInfo(
        "jdbc:sluice:h2:mem:x;sluice.budget=5;sluice.redis=redis://u:hunter2@cache:6379", info);

    assertThat(Arrays.stream(infos).filter(i -> i.name.startsWith("sluice.redis"))
        .map(i -> i.name + "=" + i.value))
        .contains("sluice.redis=redis://u:****@cache:6379", "sluice.redis.password=****");
    assertThat(Arrays.stream(infos).map(i -> String.valueOf(i.value)))
        .noneMatch(v -> v.contains("hunter2"));
  }

  /** Issue 10 item 15: "jdbc:sluice:" alone was looked up as the URL "jdbc:". */
  @Test
  void connect_nothingAfterThePrefix_saysSo() {
    for (String url : new String[] {"jdbc:sluice:", "jdbc:sluice:  ",
        "jdbc:sluice:?sluice.budget=5", "jdbc:sluice:;sluice.budget=5"}) {
      assertThatThrownBy(() -> driver.connect(url, null)).as(url)
          .isInstanceOf(SQLNonTransientConnectionException.class)
          .hasMessageStartingWith("There is no database URL after jdbc:sluice:");
    }
  }

  /** Issue 10 item 15: without Redis it logged "the cache breaker flag is open". */
  @Test
  void connect_withoutABreaker_logsThatThereIsNone() throws SQLException {
    PrintStream stderr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (Connection c = driver.connect("jdbc:sluice:h2:mem:" + db + ";sluice.budget=1000;"
        + "sluice.name=" + db, null)) {
      queryOne(c, "SELECT 1");
    } finally {
      System.setErr(stderr);
    }

    assertThat(log.toString(StandardCharsets.UTF_8))
        .contains(db + " - limiting the database to 1000 permits/s")
        .contains("there is no cache breaker flag (sluice.flag=always)")
        .doesNotContain("the cache breaker flag is open");
  }

  @Test
  void connect_connectionScope_isRefused() {
    assertThatThrownBy(() -> driver.connect(
        "jdbc:sluice:h2:mem:x;sluice.budget=5;sluice.scope=connection", null))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("wrap the pool with RateLimitedDataSource");
  }

  @Test
  void getPropertyInfo_listsOurKeysWithTheirValues() throws SQLException {
    DriverPropertyInfo[] infos = driver.getPropertyInfo(
        "jdbc:sluice:h2:mem:x;sluice.budget=5", new Properties());

    DriverPropertyInfo budget = Arrays.stream(infos).filter(i -> i.name.equals("sluice.budget"))
        .findFirst().orElseThrow();
    assertThat(budget.value).isEqualTo("5");
    assertThat(budget.required).isTrue();
    assertThat(Arrays.stream(infos).map(i -> i.name))
        .contains("sluice.name", "sluice.instances", "sluice.scope");
    assertThat(driver.getPropertyInfo("jdbc:h2:mem:x", null)).isEmpty();
  }

  @Test
  void versions_areSluices() throws IOException {
    // the version the build gave this module (its parent's), read from the POM, not the resource
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher parent = Pattern.compile("(?s)<parent>.*?<version>([^<]+)</version>").matcher(pom);
    assertThat(parent.find()).isTrue();
    int[] built = SluiceDriver.parseVersion(parent.group(1));
    assertThat(driver.getMajorVersion()).isEqualTo(built[0]);
    assertThat(driver.getMinorVersion()).isEqualTo(built[1]);
    assertThat(SluiceDriver.parseVersion("2.13.0-SNAPSHOT")).containsExactly(2, 13);
  }

  @Test
  void jdbcCompliant_delegatesToTheRealDriver() throws SQLException {
    Driver h2 = DriverManager.getDriver("jdbc:h2:mem:x");
    try (Connection c = driver.connect("jdbc:sluice:h2:mem:" + db + ";sluice.budget=1000;"
        + "sluice.name=" + db, null)) {
      assertThat(c.isValid(1)).isTrue();
      assertThat(driver.jdbcCompliant()).isEqualTo(h2.jdbcCompliant());
    }
  }

  @Test
  void getParentLogger_isSluices() {
    assertThat(driver.getParentLogger().getName()).isEqualTo("dev.sluice");
  }

  @Test
  void driverManager_registersExactlyOneSluiceDriver() throws SQLException {
    assertThat(DriverManager.getDriver("jdbc:sluice:h2:mem:x")).isInstanceOf(SluiceDriver.class);
    assertThat(DriverManager.drivers().filter(SluiceDriver.class::isInstance)).hasSize(1);
  }

  static String queryOne(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
