package dev.sluice.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

/**
 * The application over a budget of one query in 1,000 s: with the cache breaker open, the first
 * read passes and the next is answered 503 at once. Subclasses choose the scope.
 */
abstract class OverBudgetFlow {

  @Autowired
  MockMvc mvc;

  @Autowired
  DataSource dataSource;

  @Autowired
  BreakerFlag.Manual breaker;

  @Autowired
  MeterRegistry meters;

  @Test
  void dataSource_isSluiceOverTheAutoConfiguredPool() throws Exception {
    assertThat(dataSource).isInstanceOf(HikariDataSource.class); // the bean keeps its class
    assertThat(dataSource.unwrap(HikariDataSource.class)).isNotSameAs(dataSource);
    RateLimitedDataSource sluice = dataSource.unwrap(RateLimitedDataSource.class);
    assertThat(sluice.stats().name()).isEqualTo("users-db");
    assertThat(sluice.stats().permitsPerSecond()).isEqualTo(0.001);
    assertThat(sluice.stats().burst()).isEqualTo(1);
  }

  @Test
  void users_cacheBreakerOpenAndBudgetSpent_503WithRetryAfter() throws Exception {
    mvc.perform(get("/users/1")).andExpect(status().isOk())
        .andExpect(jsonPath("$.NAME").value("Ada")); // flag closed: uncharged

    breaker.trip();
    try {
      mvc.perform(get("/users/2")).andExpect(status().isOk());
      MvcResult refused = mvc.perform(get("/users/3"))
          .andExpect(status().isServiceUnavailable())
          .andExpect(jsonPath("$.budget").value("users-db"))
          .andReturn();

      long retryAfter = Long.parseLong(refused.getResponse().getHeader("Retry-After"));
      assertThat(retryAfter).isBetween(1L, 1000L);
      assertThat(meters.get("sluice.calls.rejected").tag("name", "users-db").functionCounter()
          .count()).isEqualTo(1);
      assertThat(meters.get("sluice.calls.admitted").tag("name", "users-db").functionCounter()
          .count()).isEqualTo(1);
    } finally {
      breaker.reset();
    }
  }
}
