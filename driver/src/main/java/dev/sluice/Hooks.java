package dev.sluice;

import java.util.function.Supplier;

/**
 * The priority the code set, lent to the limiters this package builds: read from
 * {@link Priority}'s private thread-local, {@code null} outside any block (the limiter then
 * decides by the connection: read-only is {@code SHEDDABLE}). One instance, stateless.
 */
final class Hooks implements Supplier<Priority> {
  /** The one instance every limiter is built with. */
  static final Hooks INSTANCE = new Hooks();

  private Hooks() {}

  /** The innermost block's priority on this thread, or {@code null}: one thread-local read. */
  @Override
  public Priority get() {
    return Priority.ofCode();
  }
}
