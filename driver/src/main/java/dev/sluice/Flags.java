package dev.sluice;

import java.util.function.BooleanSupplier;

/** Shared flag instances. */
final class Flags {
  static final BreakerFlag ALWAYS_OPEN = new BreakerFlag() {
    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public String toString() {
      return "BreakerFlag.alwaysOpen()";
    }
  };

  /** A flag that asks a supplier on every call. */
  static final class Supplied implements BreakerFlag {
    private final BooleanSupplier isOpen;

    Supplied(BooleanSupplier isOpen) {
      this.isOpen = isOpen;
    }

    @Override
    public boolean isOpen() {
      return isOpen.getAsBoolean();
    }

    @Override
    public String toString() {
      return "BreakerFlag.of(" + isOpen + ")";
    }
  }

  private Flags() {}
}
