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

  /** The value a trip sets and the message it publishes: the only value that opens the flag. */
  static final String OPEN_WORD = "open";
  /** The message a reset publishes; only a hint to read the key ({@code FlagReader.heard}). */
  static final String CLOSED_WORD = "closed";

  private final boolean open;

  FlagValue(boolean open) {
    this.open = open;
  }

  /** Classifies a value read from the key; {@code null} is an absent key. */
  static FlagValue of(String value) {
    if (value == null) {
      return ABSENT;
    }
    return value.equals(OPEN_WORD) ? OPEN : OTHER;
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

  /** A value as the WARN line shows it: at most 64 characters, controls escaped. */
  static String shown(String value) {
    String cut = value.length() > 64 ? value.substring(0, 64) + "..." : value;
    StringBuilder out = new StringBuilder(cut.length());
    cut.codePoints().forEach(c -> {
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }
}
