package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.testing.LogTap;
import dev.sluice.testing.StubDataSource;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice.concurrency.max} defaults to what the pool under Sluice can run, so that
 * {@code auto} is never a silent no-op: a cap far above the pool is never in use, and never cut.
 * When the pool's size cannot be read, or the maximum given is above it, one WARN at start says so
 * and names the key to set.
 */
class ConcurrencyMaxFromPoolTest {

  private static HikariDataSource hikari(int size) {
    HikariDataSource pool = new HikariDataSource(); // lazy: nothing connects before a checkout
    pool.setJdbcUrl("jdbc:h2:mem:pool-size");
    pool.setMaximumPoolSize(size);
    return pool;
  }

  private static RateLimitedDataSource build(DataSource delegate, String name, String... pairs) {
    Properties p = new Properties();
    p.setProperty("sluice.budget", "100");
    p.setProperty("sluice.name", name);
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return RateLimitedDataSource.builder(delegate).properties(p).build();
  }

  @Test
  void auto_overAHikariPoolOfTen_startsAtTenAndWarnsOfNothing() throws Exception {
    try (LogTap log = LogTap.open(); HikariDataSource pool = hikari(10);
        RateLimitedDataSource ds = build(pool, "max-hikari", "sluice.concurrency", "auto")) {
      assertThat(ds.stats().concurrencyLimit()).isEqualTo(10);
      assertThat(log.lines("WARN", "max-hikari")).isEmpty();
    }
  }

  @Test
  void auto_overAPoolWhoseSizeCannotBeRead_startsAtOneHundredAndWarnsOnceNamingTheKey()
      throws Exception {
    try (LogTap log = LogTap.open();
        RateLimitedDataSource ds = build(new StubDataSource(), "max-unknown",
            "sluice.concurrency", "auto")) {
      assertThat(ds.stats().concurrencyLimit()).isEqualTo(100);
      List<String> warnings = log.lines("WARN", "max-unknown");
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0)).contains("sluice.concurrency.max is not set",
          "cannot be read", "is 100", "half of it", "Set sluice.concurrency.max to the pool's");
    }
  }

  @Test
  void auto_withAMaxAboveThePool_keepsItAndWarnsNamingBoth() throws Exception {
    try (LogTap log = LogTap.open(); HikariDataSource pool = hikari(10);
        RateLimitedDataSource ds = build(pool, "max-above", "sluice.concurrency", "auto",
            "sluice.concurrency.max", "50")) {
      assertThat(ds.stats().concurrencyLimit()).isEqualTo(50);
      List<String> warnings = log.lines("WARN", "max-above");
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0)).contains("sluice.concurrency.max (50) is above the pool's"
          + " maximum size (10)", "Set sluice.concurrency.max to at most 10");
    }
  }

  @Test
  void auto_withAMinAboveThePool_startsAtTheMin() throws Exception {
    try (HikariDataSource pool = hikari(10);
        RateLimitedDataSource ds = build(pool, "max-min", "sluice.concurrency", "auto",
            "sluice.concurrency.min", "12")) {
      assertThat(ds.stats().concurrencyLimit()).isEqualTo(12);
    }
  }

  @Test
  void fixedCap_overAHikariPool_isLeftAsGiven() throws Exception {
    try (LogTap log = LogTap.open(); HikariDataSource pool = hikari(10);
        RateLimitedDataSource ds = build(pool, "max-fixed", "sluice.concurrency", "40")) {
      assertThat(ds.stats().concurrencyLimit()).isEqualTo(40);
      assertThat(log.lines("WARN", "max-fixed")).isEmpty();
    }
  }

  @Test
  void poolSize_ofDataSourcesThatAreNotPools_isUnknown() {
    assertThat(PoolSize.of(new StubDataSource())).isZero();
    try (HikariDataSource pool = hikari(7)) {
      assertThat(PoolSize.of(pool)).isEqualTo(7);
    }
  }
}
