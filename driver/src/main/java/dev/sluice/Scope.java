package dev.sluice;

/** What costs a permit while the flag is open. */
public enum Scope {
  /**
   * Every statement execution costs one permit: {@code execute}, {@code executeQuery},
   * {@code executeUpdate}, {@code executeLargeUpdate}, {@code executeBatch} and
   * {@code executeLargeBatch}, on every kind of statement. A transaction is admitted at its start
   * and never rejected half-way. The default.
   */
  STATEMENT,
  /** Every {@code getConnection()} costs one permit; statements are not charged. */
  CONNECTION
}
