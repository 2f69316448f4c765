package dev.sluice.internal.redis;

import java.util.Locale;
import java.util.Set;

/**
 * What a value of the breaker key means. Writers set {@code open} or delete the key; anything
 * else was typed by a person, and is read for what they most likely meant:
 *
 * <ul>
 *   <li>{@code OPEN}, {@code true}, {@code 1}, {@code on}, {@code yes} (any case, spaces around)
 *       mean open;
 *   <li>{@code closed}, {@code false}, {@code 0}, {@code off}, {@code no} and the empty string mean
 *       closed;
 *   <li>any other value counts as <b>open</b>. Failing safe: a value Sluice cannot read is
 *       treated like a key it cannot read (a hash, a refused {@code GET}). Limiting when the cache
 *       is healthy costs little — the database is then far below its budget — while not limiting
 *       when it is down is the overload the limiter exists to prevent.
 * </ul>
 *
 * <p>Every value but {@code open} and an absent key is logged once, naming it (see
 * {@link FlagReader}). This enum is immutable.
 */
enum FlagValue {
  /** No key: closed. */
  ABSENT(false),
  /** Exactly {@code open}. */
  OPEN(true),
  /** Another spelling of open. */
  SPELLED_OPEN(true),
  /** A spelling of closed. */
  SPELLED_CLOSED(false),
  /** A value that means neither: taken as open. */
  UNREADABLE(true);

  private static final Set<String> OPENS = Set.of("open", "true", "1", "on", "yes");
  private static final Set<String> CLOSEDS = Set.of("closed", "false", "0", "off", "no", "");

  private final boolean open;

  FlagValue(boolean open) {
    this.open = open;
  }

  /** Classifies a value read from the key; {@code null} is an absent key. */
  static FlagValue of(String value) {
    if (value == null) {
      return ABSENT;
    }
    if (value.equals(FlagReader.OPEN)) {
      return OPEN;
    }
    String plain = value.trim().toLowerCase(Locale.ROOT);
    if (OPENS.contains(plain)) {
      return SPELLED_OPEN;
    }
    return CLOSEDS.contains(plain) ? SPELLED_CLOSED : UNREADABLE;
  }

  /** Whether the flag is open for this value. */
  boolean open() {
    return open;
  }

  /** Whether the value deserves a WARN: written by hand, not as the protocol says. */
  boolean odd() {
    return this != ABSENT && this != OPEN;
  }

  /** How the value counts and why, for the WARN line. */
  String reason() {
    switch (this) {
      case SPELLED_OPEN:
        return "open, as it plainly means open";
      case SPELLED_CLOSED:
        return "closed, as it plainly means closed";
      default:
        return "open, failing safe: a value that means neither open nor closed counts as open,"
            + " like a key that cannot be read";
    }
  }
}
