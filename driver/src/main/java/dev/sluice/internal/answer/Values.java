package dev.sluice.internal.answer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.util.Set;
import java.util.UUID;

/**
 * Hands out kept values so that no caller can change what another is answered: immutable values
 * as they are, mutable ones ({@code byte[]}, {@code java.sql} dates, a driver's
 * {@code Cloneable} object such as PostgreSQL's {@code PGobject}) as a fresh copy each time, as
 * the live driver hands out a fresh object on each call.
 */
final class Values {
  private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Byte.class,
      Short.class, Integer.class, Long.class, Float.class, Double.class, BigDecimal.class,
      BigInteger.class, UUID.class, java.time.LocalDateTime.class);

  private Values() {}

  /** Whether {@code value} can be kept: immutable, or copied by {@link #copy}. */
  static boolean isKeepable(Object value) {
    return value == null || IMMUTABLE.contains(value.getClass()) || value instanceof byte[]
        || value instanceof java.util.Date || value instanceof Cloneable && cloner(value) != null;
  }

  /** {@code value} itself if immutable, else a copy. */
  static Object copy(Object value) {
    if (value == null || IMMUTABLE.contains(value.getClass())) {
      return value;
    }
    if (value instanceof byte[] b) {
      return b.clone();
    }
    if (value instanceof Timestamp t) {
      Timestamp c = new Timestamp(t.getTime());
      c.setNanos(t.getNanos());
      return c;
    }
    if (value instanceof java.util.Date d) {
      return d.clone();
    }
    try {
      return cloner(value).invoke(value);
    } catch (Throwable e) {
      throw new IllegalStateException("A kept " + value.getClass().getName()
          + " could not be copied", e);
    }
  }

  private static MethodHandle cloner(Object value) {
    try {
      return MethodHandles.publicLookup().findVirtual(value.getClass(), "clone",
          MethodType.methodType(Object.class));
    } catch (ReflectiveOperationException | SecurityException e) {
      return null;
    }
  }
}
