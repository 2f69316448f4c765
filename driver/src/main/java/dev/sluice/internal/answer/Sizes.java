package dev.sluice.internal.answer;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Estimates the heap a kept value holds, for {@code sluice.stale.memory}: an object header and
 * fields as a 64-bit JVM with compressed references lays them out, rounded up, plus the payload.
 * A {@code String} counts two bytes a character (its worst case, UTF-16), a {@code byte[]} its
 * length, a {@code BigDecimal} its unscaled digits; boxed numbers 16-24 bytes, dates and times
 * 24-48, a {@code UUID} 32. A type of the driver's own (PostgreSQL's {@code PGobject} for
 * {@code json}) counts 64 bytes plus two a character of its {@code toString()}. The estimate errs
 * high, never low, so the store stays within its bound whatever the JVM's layout.
 */
final class Sizes {
  /** A reference in an array, counted as an uncompressed one to err high. */
  static final long REFERENCE = 8;

  private Sizes() {}

  /** The estimated bytes {@code value} holds; {@code 0} for {@code null}. */
  static long of(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof String s) {
      return 48 + 2L * s.length();
    }
    if (value instanceof byte[] b) {
      return 16 + b.length;
    }
    if (value instanceof BigDecimal d) {
      return 72 + d.unscaledValue().bitLength() / 8;
    }
    if (value instanceof BigInteger i) {
      return 40 + i.bitLength() / 8;
    }
    if (value instanceof Number || value instanceof Boolean || value instanceof Character) {
      return 24;
    }
    if (value instanceof java.util.Date || value instanceof java.time.temporal.Temporal
        || value instanceof java.util.UUID) {
      return 48;
    }
    if (value instanceof Zoned z) {
      return 24 + of(z.value()) + of(z.zone());
    }
    return 64 + 2L * String.valueOf(value).length();
  }
}
