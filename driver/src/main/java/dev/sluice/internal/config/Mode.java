package dev.sluice.internal.config;

/** The value of {@code sluice.mode}: whether the limiter refuses, or only counts. */
public enum Mode {
  /** Calls the limiter would refuse are refused. */
  ENFORCE,
  /** Nothing is refused: calls the limiter would refuse pass uncharged and are counted. */
  SHADOW
}
