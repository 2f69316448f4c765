package dev.sluice.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.WrapperFixture;
import dev.sluice.internal.jdbc.StubJdbc.Recorder;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Each method of each wrapper reaches the stub driver's own implementation of that very method
 * (the stub is a dynamic proxy, so default methods are seen too), and whatever JDBC object it
 * returns is one of our wrappers, never the driver's.
 */
class WrapperDelegationTest {
  /** Answered by the wrapper itself: back-references, and unwrap for the wrapper's interfaces. */
  private static final Set<String> ANSWERED_BY_WRAPPER =
      Set.of("getConnection", "getStatement", "unwrap", "isWrapperFor");
  private static final Set<Class<?>> WRAPPED_TYPES = Set.of(Connection.class, Statement.class,
      java.sql.PreparedStatement.class, java.sql.CallableStatement.class, ResultSet.class,
      DatabaseMetaData.class);

  @TestFactory
  Stream<DynamicTest> everyMethod_reachesTheDriversOwnMethod_andReturnsWrappers() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> iface : Kinds.INTERFACES) {
      for (Method method : Kinds.methodsOf(iface)) {
        if (ANSWERED_BY_WRAPPER.contains(method.getName())) {
          continue;
        }
        tests.add(DynamicTest.dynamicTest(iface.getSimpleName() + "." + Kinds.describe(method),
            () -> callReachesDriver(iface, method)));
      }
    }
    assertThat(tests).hasSizeGreaterThan(600);
    return tests.stream();
  }

  private static void callReachesDriver(Class<?> iface, Method method) throws Throwable {
    Recorder recorder = new Recorder();
    Connection connection =
        Connections.wrap(StubJdbc.connection(recorder, true), new WrapperFixture().gate());
    Object wrapper = Kinds.wrapperOf(connection, iface);
    int before = recorder.calls.size();

    Object returned = Kinds.call(wrapper, method);

    assertThat(recorder.calls).hasSize(before + 1);
    assertThat(Kinds.sameSignature(recorder.last(), method))
        .as("the driver saw %s", recorder.last()).isTrue();
    if (WRAPPED_TYPES.contains(method.getReturnType())) {
      assertThat(returned).isNotNull();
      assertThat(returned.getClass().getPackageName()).isEqualTo("dev.sluice.internal.jdbc");
    }
  }
}
