package dev.sluice;

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

  private Flags() {}
}
