package dev.sluice.spring.boot;

import dev.sluice.Priority;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.MethodClassKey;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Applies {@link DatabasePriority}: a pointcut matching the annotated classes and methods, and an
 * interceptor that runs the call inside {@link Priority#call}.
 *
 * <p>Its order comes before {@code @Transactional}'s advisor (whose default is
 * {@link Ordered#LOWEST_PRECEDENCE}): the priority must be in force when the transaction manager
 * takes the connection and calls {@code setAutoCommit(false)}, the transaction's door, since a
 * transaction keeps the priority it had there.
 *
 * <p>This class is threadsafe.
 */
final class DatabasePriorityAdvisor extends AbstractPointcutAdvisor {
  private static final long serialVersionUID = 1L; // Spring's advisors are Serializable

  /** Before {@code @Transactional} (lowest precedence), leaving room for the application's. */
  static final int ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

  private final Pointcut pointcut = new ComposablePointcut(
      new AnnotationMatchingPointcut(DatabasePriority.class, true))
      .union(AnnotationMatchingPointcut.forMethodAnnotation(DatabasePriority.class));
  private final Interceptor interceptor = new Interceptor();

  DatabasePriorityAdvisor() {
    setOrder(ORDER);
  }

  @Override
  public Pointcut getPointcut() {
    return pointcut;
  }

  @Override
  public Advice getAdvice() {
    return interceptor;
  }

  /** Runs each call inside its priority, found once per method. */
  static final class Interceptor implements MethodInterceptor {
    private final Map<MethodClassKey, Optional<Priority>> priorities = new ConcurrentHashMap<>();

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
      Class<?> target = invocation.getThis() == null ? invocation.getMethod().getDeclaringClass()
          : AopUtils.getTargetClass(invocation.getThis());
      Priority priority = priorities.computeIfAbsent(
          new MethodClassKey(invocation.getMethod(), target), key -> of(invocation.getMethod(),
              target)).orElse(null);
      if (priority == null) {
        return invocation.proceed();
      }
      try {
        return priority.call(() -> {
          try {
            return invocation.proceed();
          } catch (Throwable t) {
            throw new Thrown(t); // Callable cannot throw a Throwable: carried out, unwrapped below
          }
        });
      } catch (Thrown thrown) {
        throw thrown.getCause();
      }
    }

    /** The method's own annotation (on the target's override first), else its class's. */
    private static Optional<Priority> of(Method method, Class<?> target) {
      Method specific = AopUtils.getMostSpecificMethod(method, target);
      DatabasePriority found = AnnotatedElementUtils.findMergedAnnotation(specific,
          DatabasePriority.class);
      if (found == null) {
        found = AnnotatedElementUtils.findMergedAnnotation(target, DatabasePriority.class);
      }
      return Optional.ofNullable(found).map(DatabasePriority::value);
    }
  }

  /** Carries what the intercepted method threw through {@link Priority#call}. */
  private static final class Thrown extends Exception {
    private static final long serialVersionUID = 1L;

    Thrown(Throwable cause) {
      super(null, cause, false, false);
    }
  }
}
