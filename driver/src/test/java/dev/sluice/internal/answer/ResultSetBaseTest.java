package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The base of an answered result, generated from {@code java.sql.ResultSet} by
 * {@code GenerateWrappers}: every method of the interface declared, each refusing — a change of a
 * row as on a read-only result, the rest as not supported, naming the method.
 */
class ResultSetBaseTest {
  private final ResultSet base = new ResultSetBase() {};

  @Test
  void everyMethodOfTheInterface_isDeclared_noneLeftToADefault() {
    long declared = Arrays.stream(ResultSet.class.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .filter(m -> {
          try {
            Method own = ResultSetBase.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            return !own.isDefault();
          } catch (NoSuchMethodException e) {
            return false;
          }
        }).count();
    assertThat(declared).isEqualTo(Arrays.stream(ResultSet.class.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers())).count());
  }

  @Test
  void aChangeOfARow_isRefusedAsOnAReadOnlyResult() {
    assertThatThrownBy(() -> base.updateInt(1, 2)).isExactlyInstanceOf(SQLException.class)
        .hasMessageContaining("read-only");
    assertThatThrownBy(base::insertRow).hasMessageContaining("read-only");
    assertThatThrownBy(base::refreshRow).hasMessageContaining("read-only");
  }

  @Test
  void anythingElse_isNotSupported_andSaysWhat() {
    assertThatThrownBy(() -> base.absolute(3)).isInstanceOf(SQLFeatureNotSupportedException.class)
        .hasMessageStartingWith("absolute is not supported on an answered result");
    assertThatThrownBy(() -> base.getObject(1, java.time.LocalDate.class))
        .isInstanceOf(SQLFeatureNotSupportedException.class).hasMessageContaining("getObject");
  }
}
