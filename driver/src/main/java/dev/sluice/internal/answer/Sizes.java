package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Estimates the heap a kept value holds, for {@code sluice.stale.memory}: an object header and
 * fields as a 64-bit HotSpot JVM lays them out (12-byte headers, 8-byte alignment, references of
 * 4 bytes under a 32 GB heap, else 8), plus the payload. A {@code String} counts one byte a
 * character when every character fits in Latin-1 (compact strings), else two; a {@code byte[]}
 * its length; a {@code BigDecimal} its unscaled digits; boxed numbers 16 or 24 bytes, dates and
 * times 24-96, a {@code UUID} 32. A type of the driver's own (PostgreSQL's {@code PGobject} for
 * {@code json}) counts 64 bytes plus two a character of its {@code toString()}.
 *
 * <p>The estimate aims at what a heap dump shows, not above it: {@code StoreMemoryTest} holds
 * the store's figure within 10 % of the heap it retains. (0.3 counted every reference as 8
 * bytes and every character as 2, some 60 % above the heap retained.)
 */
final class Sizes {
  /** A reference in an object or an array. */
  static final long REFERENCE = Runtime.getRuntime().maxMemory() < (32L << 30) ? 4 : 8;
  /** An array's header: mark, class and length. */
  static final long ARRAY = 16;

  private Sizes() {}

  /** {@code bytes} rounded up to the JVM's 8-byte alignment. */
  static long aligned(long bytes) {
    return (bytes + 7) & ~7L;
  }

  /** The estimated bytes {@code value} holds; {@code 0} for {@code null}. */
  static long of(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof String s) {
      return 24 + aligned(ARRAY + (isLatin1(s) ? s.length() : 2L * s.length()));
    }
    if (value instanceof byte[] b) {
      return aligned(ARRAY + b.length);
    }
    if (value instanceof BigDecimal d) {
      return 40 + (d.precision() <= 18 ? 0 : of(d.unscaledValue()));
    }
    if (value instanceof BigInteger i) {
      return 40 + aligned(ARRAY + 4L * ((i.bitLength() + 31) / 32));
    }
    if (value instanceof Boolean || isCachedBox(value)) {
      return 0; // Boolean.valueOf's, Integer.valueOf's from -128 to 127...: the JDK's own
    }
    if (value instanceof Long || value instanceof Double) {
      return 24;
    }
    if (value instanceof Number || value instanceof Character) {
      return 16;
    }
    if (value instanceof java.time.OffsetDateTime || value instanceof java.time.ZonedDateTime) {
      return 96;
    }
    if (value instanceof java.time.LocalDateTime) {
      return 72;
    }
    if (value instanceof java.util.Date || value instanceof java.time.temporal.Temporal
        || value instanceof java.util.UUID) {
      return 32;
    }
    if (value instanceof Zoned z) {
      return 24 + of(z.value()) + of(z.zone());
    }
    return 64 + 2L * String.valueOf(value).length();
  }

  /** Whether {@code value} is a box {@code valueOf} shares (from -128 to 127). */
  private static boolean isCachedBox(Object value) {
    long v;
    if (value instanceof Integer i) {
      v = i;
    } else if (value instanceof Long l) {
      v = l;
    } else if (value instanceof Short s) {
      v = s;
    } else if (value instanceof Byte) {
      return true;
    } else if (value instanceof Character c) {
      return c <= 127;
    } else {
      return false;
    }
    return v >= -128 && v <= 127;
  }

  /** Whether every character of {@code s} fits in one byte: a compact string holds one each. */
  private static boolean isLatin1(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0xFF) {
        return false;
      }
    }
    return true;
  }
}
