package dev.sluice.internal.config;

/** The value of {@code sluice.instances.division}: how the registry's live instances split the budget. */
public enum Division {
  /** Each live instance takes budget / live count. */
  EQUAL,
  /** Each live instance's share follows its recent demand, max-min fair (water-filling). */
  DEMAND
}
