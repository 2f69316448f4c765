package dev.sluice;

import java.util.function.Supplier;

/**
 * What this package lends the limiters it builds: the priority the code set, read from
 * {@link Priority}'s private thread-local ({@code null} outside any block: the limiter then
 * decides by the connection, read-only being {@code SHEDDABLE}).
 */
final class Hooks {
  /** The code's priority, as every limiter is built with it: {@link Priority#OF_CODE}. */
  static final Supplier<Priority> INSTANCE = Priority.OF_CODE;

  private Hooks() {}
}
