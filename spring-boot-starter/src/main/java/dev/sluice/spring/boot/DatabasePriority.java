package dev.sluice.spring.boot;

import dev.sluice.Priority;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Spring bean's method with a {@link Priority} for the database calls it makes on its
 * thread, as {@code Priority.X.call(...)} around its body would. On a class it applies to every
 * method called through the bean's Spring proxy; on a method it wins over the class. Blocks nest:
 * the innermost wins, so an annotated method called in a request whose priority came from
 * {@code sluice.web.priority-header} has its own.
 *
 * <pre>{@code
 * @Service
 * class Checkout {
 *   @DatabasePriority(Priority.CRITICAL)
 *   @Transactional
 *   public void pay(Order order) { ... }
 * }
 * }</pre>
 *
 * <p>The starter applies it with a Spring AOP advisor (no AspectJ needed) ordered before
 * {@code @Transactional}'s, so the priority is in force at the transaction's door. Like every
 * Spring proxy, it does not apply to a call from the bean to itself.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DatabasePriority {

  /**
   * The priority of the database calls made in the method.
   *
   * @return the priority
   */
  Priority value();
}
