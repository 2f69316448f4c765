package dev.sluice.internal.answer;

import java.sql.SQLWarning;

/**
 * How the answers, outside the API package, make the warning an answered result carries: the
 * API hands its {@code StaleResultWarning} factory over, as it hands the limiter its
 * {@code Refusals}.
 */
@FunctionalInterface
public interface StaleWarnings {
  /**
   * The warning of one answer.
   *
   * @param budgetName the {@code sluice.name} of the budget that would have refused the read
   * @param ageMillis how long ago the answered result was read from the database
   * @param joined {@code true} if the read joined an identical read in flight, {@code false}
   *     if it was answered from a recently kept result
   * @return the warning, a {@code dev.sluice.StaleResultWarning} in production
   */
  SQLWarning stale(String budgetName, long ageMillis, boolean joined);
}
