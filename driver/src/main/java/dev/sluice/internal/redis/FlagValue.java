package dev.sluice.internal.redis;

/**
 * What a value of the breaker key means. The protocol is fixed (the contract's "Redis protocol"):
 * exactly {@code open} opens the flag; an absent key, or any other value, means closed. Writers set
 * {@code open} or delete the key, so any other value was typed by a person — {@code OPEN},
 * {@code true}, {@code 1} most likely meaning "open" — and {@link FlagReader} logs it once, naming
 * it and saying how it counts, rather than closing the flag silently.
 *
 * <p>Why not read such spellings as open: every instance, every version and every other tool
 * reading the key must agree on one meaning, and the contract gives it. A WARN that names the value
 * and the command to type fixes the operator's slip within one refresh of the log being read.
 *
 * <p>This enum is immutable.
 */
enum FlagValue {
  /** No key: closed. */
  ABSENT(false),
  /** Exactly {@code open}. */
  OPEN(true),
  /** Any other value: closed, as the protocol says, and worth a WARN. */
  OTHER(false);

  private final boolean open;

  FlagValue(boolean open) {
    this.open = open;
  }

  /** Classifies a value read from the key; {@code null} is an absent key. */
  static FlagValue of(String value) {
    if (value == null) {
      return ABSENT;
    }
    return value.equals(FlagReader.OPEN) ? OPEN : OTHER;
  }

  /** Whether the flag is open for this value. */
  boolean open() {
    return open;
  }

  /** Whether the value deserves a WARN: written by hand, not as the protocol says. */
  boolean odd() {
    return this == OTHER;
  }

  /** How the value counts and why, for the WARN line. */
  String reason() {
    return "closed: only the exact value \"open\" opens the flag";
  }
}
