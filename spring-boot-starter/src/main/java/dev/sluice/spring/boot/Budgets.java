package dev.sluice.spring.boot;

import dev.sluice.RateLimitedDataSource;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * The application's budgets: every {@code DataSource} bean that is, or wraps, a
 * {@link RateLimitedDataSource}, by budget name. Looked up when asked, so that it sees the beans
 * however they were made.
 */
final class Budgets {
  private final ListableBeanFactory beans;

  Budgets(ListableBeanFactory beans) {
    this.beans = beans;
  }

  /** Every budget, by its {@code sluice.name}. */
  Map<String, RateLimitedDataSource> all() {
    Map<String, RateLimitedDataSource> all = new LinkedHashMap<>();
    beans().forEach((name, bean) -> all.put(name, sluiceOf(bean)));
    return all;
  }

  /** The data source bean of every budget (the first, where two reach one), by its name. */
  Map<String, DataSource> beans() {
    Map<String, DataSource> all = new LinkedHashMap<>();
    beans.getBeansOfType(DataSource.class, false, false).values().forEach(dataSource -> {
      RateLimitedDataSource sluice = sluiceOf(dataSource);
      if (sluice != null) {
        all.putIfAbsent(sluice.stats().name(), dataSource);
      }
    });
    return all;
  }

  static RateLimitedDataSource sluiceOf(DataSource dataSource) {
    try {
      return dataSource.isWrapperFor(RateLimitedDataSource.class)
          ? dataSource.unwrap(RateLimitedDataSource.class) : null;
    } catch (SQLException e) {
      return null; // a data source that cannot say is not ours
    }
  }
}
