package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Configuration: every key checked, messages that name the key and the value. */
class RateLimitedDataSourceBuilderTest {
  private final ClosableDataSource pool = new ClosableDataSource();

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "sluice.budget|-5|sluice.budget must be a positive number, but was \"-5\"",
      "sluice.budget|0|sluice.budget must be a positive number, but was \"0\"",
      "sluice.budget|NaN|sluice.budget must be a positive number, but was \"NaN\"",
      "sluice.budget|Infinity|sluice.budget must be a positive number, but was \"Infinity\"",
      "sluice.budget|lots|sluice.budget must be a positive number, but was \"lots\"",
      "sluice.instances|0|sluice.instances must be a positive integer or `redis`, but was \"0\"",
      "sluice.instances|2.5|sluice.instances must be a positive integer or `redis`, but was \"2.5\"",
      "sluice.burst|-1|sluice.burst must be a positive integer, but was \"-1\"",
      "sluice.scope|table|sluice.scope must be `statement` or `connection`, but was \"table\"",
      "sluice.flag|sometimes|sluice.flag must be `always`, `redis` or `manual`, but was"
          + " \"sometimes\"",
      "sluice.name|users db|sluice.name must be 1 to 64 of the characters A-Z a-z 0-9 . _ -,"
          + " but was \"users db\"",
      "sluice.stack-traces|yes|sluice.stack-traces must be `true` or `false`, but was \"yes\"",
      "sluice.summary-interval|-1s|sluice.summary-interval must be a positive duration such as"
          + " `250ms`, `10s`, `1m` or `PT10S`, but was \"-1s\"",
      "sluice.redis|http://cache:6379|sluice.redis must be a URI"
          + " `redis://[user:password@]host:port[/db]` or `rediss://...` or"
          + " `redis-sentinel://[user:password@]host:port[,host:port...]/master[/db]` or"
          + " `redis-cluster://[user:password@]host:port[,host:port...]`,"
          + " but was \"http://cache:6379\"",
      "sluice.redis|redis-cluster://:pw@n1:7000/1|sluice.redis must be a URI"
          + " `redis-cluster://[user:password@]host:port[,host:port...]` and have no database"
          + " index (a Redis Cluster has only database 0), but was"
          + " \"redis-cluster://:****@n1:7000/1\"",
  })
  void properties_badValue_namesTheKeyAndTheValue(String key, String value, String message) {
    Properties props = new Properties();
    props.setProperty("sluice.budget", "100");
    props.setProperty(key, value);
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).properties(props))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void properties_unknownSluiceKey_isRejectedWithTheNearestKnownKey() {
    Properties props = new Properties();
    props.setProperty("sluice.budegt", "100");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).properties(props))
        .hasMessageStartingWith("sluice.budegt is not a Sluice setting; did you mean sluice.budget?")
        .hasMessageContaining("sluice.instances");
  }

  /** Issue 10 item 12: a key in upper case was taken for a foreign one and ignored. */
  @Test
  void properties_sluiceKeyInUpperCase_isRefusedNotIgnored() {
    Properties props = new Properties();
    props.setProperty("sluice.budget", "100");
    props.setProperty("SLUICE.INSTANCES", "10");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).properties(props))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"SLUICE.INSTANCES\" is not how Sluice's keys are spelled: write"
            + " sluice.instances, in lower case and without spaces");
  }

  @Test
  void properties_foreignKeys_areIgnored() {
    Properties props = new Properties();
    props.setProperty("sluice.budget", "100");
    props.setProperty("spring.datasource.url", "jdbc:h2:mem:x");
    RateLimitedDataSource ds = RateLimitedDataSource.builder(pool).properties(props).build();
    assertThat(ds.stats().permitsPerSecond()).isEqualTo(100);
  }

  @Test
  void properties_redisPassword_neverInTheMessage() {
    Properties props = new Properties();
    props.setProperty("sluice.redis", "redis://app:s3cret@cache:99999");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).properties(props))
        .hasMessageContaining("redis://app:****@cache:99999")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void build_withoutBudget_saysTheBudgetIsMissing() {
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).build())
        .hasMessage("sluice.budget must be a positive number, but was missing");
  }

  @Test
  void builderSetters_badValues_failAtOnceNamingTheKey() {
    RateLimitedDataSource.Builder builder = RateLimitedDataSource.builder(pool);
    assertThatThrownBy(() -> builder.budget(-5))
        .hasMessage("sluice.budget must be a positive number, but was \"-5\"");
    assertThatThrownBy(() -> builder.instances(0)).hasMessageStartingWith("sluice.instances must");
    assertThatThrownBy(() -> builder.burst(0)).hasMessageStartingWith("sluice.burst must");
    assertThatThrownBy(() -> builder.name("")).hasMessageStartingWith("sluice.name must");
    assertThatThrownBy(() -> builder.name("x".repeat(65))).hasMessageStartingWith("sluice.name");
  }

  @Test
  void build_instancesRedisWithoutRedis_isRefusedNamingBothKeys() {
    Properties props = new Properties();
    props.setProperty("sluice.budget", "100");
    props.setProperty("sluice.instances", "redis");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).properties(props).build())
        .hasMessageContaining("sluice.instances=redis needs sluice.redis");
  }

  @Test
  void build_flagRedisWithoutRedis_isRefused() {
    Properties props = new Properties();
    props.setProperty("sluice.budget", "100");
    props.setProperty("sluice.flag", "redis");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(pool).properties(props).build())
        .hasMessageContaining("sluice.flag=redis needs sluice.redis");
  }

  @Test
  void build_explicitCallsWinOverProperties_whateverTheOrder() {
    Properties props = new Properties();
    props.setProperty("sluice.budget", "100");
    props.setProperty("sluice.instances", "4");
    props.setProperty("sluice.burst", "7");
    RateLimitedDataSource ds = RateLimitedDataSource.builder(pool)
        .budget(1000).properties(props).burst(3).build();
    assertThat(ds.stats().permitsPerSecond()).isEqualTo(250);
    assertThat(ds.stats().burst()).isEqualTo(3);
    assertThat(ds.stats().name()).isEqualTo("default");
  }

  @Test
  void build_shareIsBudgetOverInstances_andDefaultBurstIsATenthOfASecond() {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(pool)
        .name("users-db").budget(5000).instances(10).build();
    assertThat(ds.stats().permitsPerSecond()).isEqualTo(500);
    assertThat(ds.stats().burst()).isEqualTo(50);
    assertThat(ds.stats().instances()).isEqualTo(10);
    RateLimitedDataSource tiny = RateLimitedDataSource.builder(pool).budget(0.5).build();
    assertThat(tiny.stats().burst()).isEqualTo(1);
  }

  @Test
  void close_closesAnAutoCloseableDelegateOnce() throws Exception {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(pool).budget(10).build();
    ds.close();
    ds.close();
    assertThat(pool.closed).isEqualTo(2); // the delegate decides whether its close is idempotent
  }

  @Test
  void unwrap_reachesThePoolForFrameworksLookingForIt() throws Exception {
    RateLimitedDataSource ds = RateLimitedDataSource.builder(pool).budget(10).build();
    assertThat(ds.unwrap(ClosableDataSource.class)).isSameAs(pool);
    assertThat(ds.unwrap(RateLimitedDataSource.class)).isSameAs(ds);
    assertThat(ds.unwrap(DataSource.class)).isSameAs(ds);
    assertThat(ds.isWrapperFor(ClosableDataSource.class)).isTrue();
  }

  /** A data source that only counts closes. */
  static final class ClosableDataSource implements DataSource, AutoCloseable {
    int closed;

    @Override
    public void close() {
      closed++;
    }

    @Override
    public Connection getConnection() throws SQLException {
      throw new SQLException("no connections here");
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      throw new SQLException("no connections here");
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
