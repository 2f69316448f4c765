package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The PromQL subset {@link OutageDashboardTest} checks the dashboard and the rules with. */
class PromQlTest {

  @Test
  void selectorsAndGrouping_found() {
    PromQl.Parsed p = PromQl.parse("sum by (priority) (rate(sluice_priority_calls_rejected_total"
        + "{name=~\"$budget\", priority!=\"critical\"}[5m])) / on (priority) group_left"
        + " sum by (priority) (rate(sluice_priority_answers_total[1m30s]))");
    assertThat(p.type()).isEqualTo(PromQl.Type.VECTOR);
    assertThat(p.selectors()).containsExactly(
        new PromQl.Selector("sluice_priority_calls_rejected_total",
            Map.of("name", "$budget", "priority", "critical")),
        new PromQl.Selector("sluice_priority_answers_total", Map.of()));
    assertThat(p.groupingLabels()).containsExactly("priority");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "max by (a, b) (x{state=\"unreachable\"}) == 1",
      "a > 4 and on (x) b == 1",
      "count by (a) (x) != on (a) max by (a) (x)",
      "$recovery_threshold * y",
      "vector(5)",
      "-x + 2 ^ 3 ^ 2",
      "sum(rate(x[5m])) without (instance)",
      "x > bool 3",
      "(a + b) / (c - d)"})
  void valid_parses(String expression) {
    String promQl = OutageDashboardTest.grafanaToPromQl(expression);
    assertThat(PromQl.parse(promQl).selectors()).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "rate(x)",                 // an instant vector where a range is needed
      "sum(x[5m])",              // a range vector aggregated
      "x[5m] + 1",               // arithmetic on a range vector
      "sum(rate(x[5m])",         // unbalanced
      "x{a=\"b\"",               // unclosed matchers
      "x{a~\"b\"}",              // no such matcher operator
      "x[5q]",                   // no such duration unit
      "rated(x[5m])",            // no such function
      "1 and 2",                 // set operator between scalars
      "x $max",                  // a variable left over
      "sum by (a (x)"})
  void invalid_refused(String expression) {
    assertThatThrownBy(() -> PromQl.parse(expression))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected");
  }
}
