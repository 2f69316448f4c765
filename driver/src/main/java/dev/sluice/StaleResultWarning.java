package dev.sluice;

import dev.sluice.internal.answer.StaleWarnings;
import java.sql.SQLWarning;

/**
 * The warning on a result Sluice answered instead of refusing the read
 * ({@code sluice.stale.max-age}): found on the answered {@code ResultSet}'s
 * {@code getWarnings()}. Its presence is how a caller tells an answer from a live result; its
 * {@link #ageMillis()} says how long before the answer the database produced the rows — at most
 * {@code sluice.stale.max-age}, or about {@code sluice.stale.wait} when the read joined an
 * identical read in flight.
 *
 * <p>Its SQLState is {@code 01000} (a warning without subclass) and its vendor code {@code 0}.
 * It carries no stack trace: answers are made thousands of times a second during an outage.
 *
 * <p>Instances are immutable and threadsafe.
 */
public final class StaleResultWarning extends SQLWarning {
  private static final long serialVersionUID = 1L;

  /** How the answers, outside this package, make the warning. */
  static final StaleWarnings STALE = StaleResultWarning::new;

  private final String budgetName;
  private final long ageMillis;
  private final boolean joined;

  private StaleResultWarning(String budgetName, long ageMillis, boolean joined) {
    super(null, "01000", 0);
    this.budgetName = budgetName;
    this.ageMillis = ageMillis;
    this.joined = joined;
  }

  /**
   * How long before this answer the database produced its rows, in milliseconds.
   *
   * @return the answer's age, {@code >= 0}
   */
  public long ageMillis() {
    return ageMillis;
  }

  /**
   * Whether the read joined an identical read in flight (rather than being answered from a
   * result kept earlier).
   *
   * @return {@code true} for a joined read
   */
  public boolean joined() {
    return joined;
  }

  /**
   * The {@code sluice.name} of the budget that would have refused the read.
   *
   * @return the budget's name
   */
  public String budgetName() {
    return budgetName;
  }

  /** Says how old the result is and why it was answered; built when read. */
  @Override
  public String getMessage() {
    String how = joined ? "joined an identical read in flight, which the database answered "
        : "answered from an identical read the database answered ";
    return "stale result: " + how + ageMillis + " ms ago, instead of refusing the read: budget '"
        + budgetName + "' is limiting (sluice.stale.max-age)";
  }

  /** Does nothing: an answer's stack is always the caller's own. */
  @Override
  public Throwable fillInStackTrace() {
    return this;
  }
}
