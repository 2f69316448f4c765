package dev.sluice.spring.boot;

import dev.sluice.RateLimitedDataSource;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Set;
import javax.sql.DataSource;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.framework.AopConfigException;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.target.EmptyTargetSource;

/**
 * Puts a {@link RateLimitedDataSource} in front of a {@code DataSource} bean while keeping the
 * bean's own type: the bean becomes a subclass proxy of the pool's class (a
 * {@code HikariDataSource} stays a {@code HikariDataSource}) whose {@code getConnection},
 * {@code unwrap}, {@code isWrapperFor}, {@code createConnectionBuilder} and {@code close} go
 * through Sluice, and whose every other method (pool tuning, pool MXBean, metrics) reaches the
 * pool itself. So an application that injects {@code HikariDataSource} still starts, and its
 * connections are limited like everyone else's. Only {@code unwrap(HikariDataSource.class)}
 * returns the raw pool, which Sluice does not limit.
 *
 * <p>A class that cannot be subclassed (final, a JDK proxy) is replaced by the
 * {@code RateLimitedDataSource} itself, as before.
 *
 * <p>This class is stateless and threadsafe.
 */
final class SluiceInFront {
  /** The methods Sluice answers; the others reach the pool. */
  private static final Set<String> THROUGH_SLUICE = Set.of("getConnection", "unwrap",
      "isWrapperFor", "createConnectionBuilder", "close", "toString");

  private SluiceInFront() {}

  /**
   * Returns what replaces {@code pool} as the bean: a proxy of its class, or {@code sluice}.
   *
   * @param pool the bean as the application made it
   * @param sluice the Sluice data source over it
   * @return the bean everyone gets
   */
  static DataSource of(DataSource pool, RateLimitedDataSource sluice) {
    Class<?> type = pool.getClass();
    if (Modifier.isFinal(type.getModifiers()) || Proxy.isProxyClass(type)
        || AopUtils.isAopProxy(pool)) {
      return sluice;
    }
    // No target: Spring AOP hands out the proxy wherever a method returns its target, which
    // would make unwrap(HikariDataSource.class) return the proxy instead of the raw pool. The
    // interceptor calls the pool itself.
    ProxyFactory factory = new ProxyFactory();
    factory.setTargetSource(EmptyTargetSource.forClass(type));
    factory.setProxyTargetClass(true);
    factory.addAdvice(new ThroughSluice(sluice, pool));
    try {
      return (DataSource) factory.getProxy(pool.getClass().getClassLoader());
    } catch (AopConfigException | IllegalArgumentException | LinkageError cannotSubclass) {
      return sluice;
    }
  }

  /** Sends the data source calls to Sluice, with the {@code DataSource} method of that name. */
  private static final class ThroughSluice implements MethodInterceptor {
    private final RateLimitedDataSource sluice;
    private final DataSource pool;

    ThroughSluice(RateLimitedDataSource sluice, DataSource pool) {
      this.sluice = sluice;
      this.pool = pool;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
      Method method = invocation.getMethod();
      Method sluices = THROUGH_SLUICE.contains(method.getName()) ? sluicesOwn(method) : null;
      if (sluices == null) {
        return AopUtils.invokeJoinpointUsingReflection(pool, method, invocation.getArguments());
      }
      return AopUtils.invokeJoinpointUsingReflection(sluice, sluices, invocation.getArguments());
    }

    private static Method sluicesOwn(Method method) {
      try {
        return RateLimitedDataSource.class.getMethod(method.getName(),
            method.getParameterTypes());
      } catch (NoSuchMethodException notADataSourceMethod) {
        return null; // close(boolean) or the like: the pool's own
      }
    }

    @Override
    public String toString() {
      return "through " + sluice;
    }
  }
}
