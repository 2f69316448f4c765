package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.RateLimitExceededException;
import dev.sluice.WrapperFixture;
import dev.sluice.internal.jdbc.StubJdbc.Recorder;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is gated in {@code STATEMENT} scope: with the flag open and the bucket empty, every call of
 * the execute family is refused before it reaches the driver, and every other call passes.
 */
class GatingTest {
  private final WrapperFixture limiter = new WrapperFixture();
  private final Recorder recorder = new Recorder();

  private Connection autoCommitting() throws Exception {
    return Connections.wrap(StubJdbc.connection(recorder, true), limiter.gate());
  }

  @Test
  void executeFamily_isFifteenMethodsOnStatements_andNineteenOnPreparedAndCallable() {
    assertThat(executeMethods(Statement.class)).hasSize(15);
    assertThat(executeMethods(PreparedStatement.class)).hasSize(19);
    assertThat(executeMethods(java.sql.CallableStatement.class)).hasSize(19);
  }

  @TestFactory
  Stream<DynamicTest> everyExecuteMethod_bucketEmptyFlagOpen_isRefusedBeforeTheDriver() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> iface : Kinds.INTERFACES) {
      for (Method method : executeMethods(iface)) {
        tests.add(DynamicTest.dynamicTest(iface.getSimpleName() + "." + Kinds.describe(method),
            () -> new GatingTest().assertRefused(iface, method)));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyOtherMethod_bucketEmptyFlagOpen_isNeverRefused() {
    List<DynamicTest> tests = new ArrayList<>();
    for (boolean autoCommit : new boolean[] {true, false}) {
      for (Class<?> iface : Kinds.INTERFACES) {
        for (Method method : Kinds.methodsOf(iface)) {
          if (Kinds.isExecute(iface, method) || method.getName().equals("setAutoCommit")
              || method.getName().equals("unwrap")) {
            continue; // setAutoCommit: TransactionRuleTest; unwrap(String.class) fails by design
          }
          tests.add(DynamicTest.dynamicTest((autoCommit ? "auto-commit " : "manual commit ")
              + iface.getSimpleName() + "." + Kinds.describe(method),
              () -> new GatingTest().assertPasses(autoCommit, iface, method)));
        }
      }
    }
    assertThat(tests).hasSizeGreaterThan(1000);
    return tests.stream();
  }

  @Test
  void rejection_isTransientWithNullStateCodeZeroAndNoNextException() throws Exception {
    Statement statement = autoCommitting().createStatement();
    limiter.trip().drain();

    RateLimitExceededException e =
        assertThrows(RateLimitExceededException.class, () -> statement.execute("x"));

    assertThat((Object) e).isInstanceOf(SQLTransientConnectionException.class);
    assertThat(e.getSQLState()).isNull();
    assertThat(e.getErrorCode()).isZero();
    assertThat((Object) e.getNextException()).isNull();
    assertThat(e.getMessage()).contains("fixture").contains("rate limit exceeded");
  }

  @Test
  void rejectedCall_leavesTheConnectionAndStatementUsable() throws Exception {
    Connection connection = autoCommitting();
    Statement statement = connection.createStatement();
    limiter.trip().drain();
    assertThrows(RateLimitExceededException.class, () -> statement.executeUpdate("x"));

    limiter.advanceSeconds(1);

    assertThat(statement.executeUpdate("x")).isEqualTo(1);
    assertThat(connection.isClosed()).isFalse();
    List<String> seen = recorder.calls.stream().map(Method::getName).collect(Collectors.toList());
    assertThat(seen).doesNotContain("close", "rollback", "abort");
    assertThat(limiter.stats().admitted()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void flagClosed_emptyBucket_executesUncounted(boolean autoCommit) throws Exception {
    Statement statement = Connections.wrap(StubJdbc.connection(recorder, autoCommit),
        limiter.gate()).createStatement();
    limiter.drain();

    statement.execute("x");
    statement.executeBatch();

    assertThat(recorder.saw("executeBatch")).isTrue();
    assertThat(limiter.stats().admitted() + limiter.stats().rejected() + limiter.stats().forced())
        .isZero();
  }

  /** Each dynamic test runs on a fresh instance: its own limiter and stub. */
  private void assertRefused(Class<?> iface, Method method) throws Exception {
    Object statement = Kinds.wrapperOf(autoCommitting(), iface);
    limiter.trip().drain();
    int seen = recorder.calls.size();

    assertThrows(RateLimitExceededException.class, () -> Kinds.call(statement, method));

    // the limiter may ask the driver for auto-commit (read when first needed); nothing else, not
    // even isReadOnly() (a query on some drivers): the wrapper keeps what setReadOnly said
    assertThat(recorder.calls.subList(seen, recorder.calls.size()))
        .allMatch(call -> call.getName().equals("getAutoCommit"));
    assertThat(limiter.stats().rejected()).isEqualTo(1);
  }

  private void assertPasses(boolean autoCommit, Class<?> iface, Method method) throws Throwable {
    Connection connection =
        Connections.wrap(StubJdbc.connection(recorder, autoCommit), limiter.gate());
    Object wrapper = Kinds.wrapperOf(connection, iface);
    limiter.trip().drain();
    int seen = recorder.calls.size();

    Kinds.call(wrapper, method); // throws if refused

    boolean backReference = method.getName().matches("getConnection|getStatement");
    assertThat(recorder.calls.size() > seen).isNotEqualTo(backReference); // reached the driver
    assertThat(limiter.stats().rejected()).isZero();
  }

  private static List<Method> executeMethods(Class<?> iface) {
    return Kinds.methodsOf(iface).stream().filter(m -> Kinds.isExecute(iface, m))
        .collect(Collectors.toList());
  }
}
