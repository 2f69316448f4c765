package dev.sluice;

/**
 * What an operator sees of one budget over JMX, and what they can do to it during an incident.
 *
 * <p>Each budget registers one, named {@code dev.sluice:type=RateLimitedDataSource,name=<name>},
 * when it is built (unless {@code sluice.jmx=false}) and unregisters it when it is closed. If that
 * name is taken (two data sources with the same {@code sluice.name} in one JVM), the later one is
 * registered as {@code name=<name>#2}, {@code #3}, and so on, with a warning.
 *
 * <p>Implementations are threadsafe.
 */
public interface RateLimitedDataSourceMXBean {

  /**
   * Returns the budget's name.
   *
   * @return the {@code sluice.name}
   */
  String getName();

  /**
   * Returns the budget: what the database takes on the fallback path, all instances together.
   *
   * @return permits per second
   */
  double getBudget();

  /**
   * Changes the budget at once; this instance's share becomes {@code budget / instances}, and the
   * burst follows it unless {@code sluice.burst} was set, without a fresh burst. Logged at WARN. It lasts until the data source is rebuilt: put the new value in
   * the configuration too.
   *
   * @param permitsPerSecond the new budget, all instances together
   * @throws IllegalArgumentException if it is not a positive, finite number, or gives a share out
   *     of the bucket's range (0.001 to 10<sup>9</sup> permits per second)
   */
  void setBudget(double permitsPerSecond);

  /**
   * Returns how many instances the budget is divided among now.
   *
   * @return the divisor of the budget
   */
  double getInstances();

  /**
   * Returns this instance's share of the budget.
   *
   * @return permits per second this instance admits while limiting; {@code 0} while a live count
   *     leaves a share below 0.001 per second, when it admits nothing new
   */
  double getPermitsPerSecond();

  /**
   * Returns the depth of this instance's bucket.
   *
   * @return permits that may be taken at once
   */
  int getBurst();

  /**
   * Returns what costs a permit.
   *
   * @return {@code STATEMENT} or {@code CONNECTION}
   */
  String getScope();

  /**
   * Returns whether permits are being charged: the breaker flag is open, or the limiter is
   * recovering.
   *
   * @return {@code true} while limiting
   */
  boolean isLimiting();

  /**
   * Returns whether the limiter is recovering: the flag has closed after having been open, and
   * the cap holds at this instance's share until demand has stayed at or below
   * {@code sluice.recovery.threshold} of the share for {@code sluice.recovery.settle}.
   *
   * @return {@code true} while recovering
   */
  boolean isRecovering();

  /**
   * Ends a recovery at once: limiting stops (while the flag stays closed). Logged at WARN, with
   * how long the recovery lasted and how many calls it refused. For an incident in which the
   * cache is known to be warm, or the database to have room.
   *
   * @return {@code true} if a recovery was on, {@code false} if there was none to end
   */
  boolean endRecovery();

  /**
   * Describes the breaker flag, for example {@code BreakerFlag.manual(open)}.
   *
   * @return the flag and its state
   */
  String getFlag();

  /**
   * Returns where the flag's answer comes from: for a {@link RedisBreakerFlag}, what the key said
   * at the last read, or {@code UNREACHABLE}; for a local flag, its own state.
   *
   * @return {@code OPEN}, {@code CLOSED} or {@code UNREACHABLE}
   */
  String getFlagState();

  /**
   * Returns how long ago a {@link RedisBreakerFlag} was last read from Redis.
   *
   * @return milliseconds; {@code 0} for a flag held in local memory
   */
  long getSinceFlagReadMillis();

  /**
   * Returns the live instance count the Redis registry last reported
   * ({@code sluice.instances=redis}).
   *
   * @return instances counted, this one included; {@code 0} when the count is fixed or the
   *     registry has not answered yet
   */
  int getLiveInstances();

  /**
   * Returns how many statements (in {@code connection} scope, connections) this instance has in
   * flight under its concurrency cap ({@code sluice.concurrency}).
   *
   * @return the count; {@code 0} without a cap
   */
  int getInFlight();

  /**
   * Returns this instance's cap on statements in flight: its share of a fixed
   * {@code sluice.concurrency}, or where {@code auto} has brought it.
   *
   * @return the cap; {@code 0} without one
   */
  int getConcurrencyLimit();

  /**
   * Returns whether the flag is a {@link BreakerFlag#manual() manual} flag of this JVM, which
   * {@link #tripFlag()} and {@link #resetFlag()} can open and close.
   *
   * @return {@code true} for a manual flag
   */
  boolean isFlagManual();

  /**
   * Returns how many calls took a permit at a door while limiting.
   *
   * @return admitted calls since the data source was built
   */
  long getAdmitted();

  /**
   * Returns how many calls were refused.
   *
   * @return rejected calls since the data source was built
   */
  long getRejected();

  /**
   * Returns how many reads refused by the limit were answered instead
   * ({@code sluice.stale.max-age}; a part of {@link #getRejected()}).
   *
   * @return answered reads since the data source was built; 0 with answers off
   */
  long getAnswered();

  /**
   * Returns the part of {@link #getAnswered()} that joined an identical read in flight.
   *
   * @return joined reads since the data source was built
   */
  long getJoined();

  /**
   * Returns how many results are kept to answer from now.
   *
   * @return kept results; 0 with answers off
   */
  int getAnswersKept();

  /**
   * Returns the kept results' estimated bytes now, within {@code sluice.stale.memory}.
   *
   * @return estimated bytes; 0 with answers off
   */
  long getAnswersKeptBytes();

  /**
   * Returns the age under which 99% of the answers since the start were, in milliseconds.
   *
   * @return the 99th percentile of the answers' ages; -1 before the first answer
   */
  long getAnswerAgeP99Millis();

  /**
   * Returns how many reads were neither kept nor answered while answering, by reason, for
   * example {@code transaction 12, locking 0, side-effect 3, session 0, parameters 0,
   * statement 0, type 0, rows 1, memory 0, unfinished 0}: inside a transaction; text that locks,
   * writes or is no plain read; a call the catalog does not call pure; a session unknown or
   * changed; a parameter not seen; a statement answers cannot stand for; a type not answered;
   * more than {@code sluice.stale.max-rows}; more than {@code sluice.stale.memory} allows; closed
   * before its end.
   *
   * @return each reason's count since the data source was built, every reason in a fixed order;
   *     all {@code 0} with answers off
   */
  String getNotEligibleByReason();

  /**
   * Returns how many kept results this instance sent to the budget's other instances
   * ({@code sluice.stale.share}).
   *
   * @return results sent since the data source was built; 0 without sharing
   */
  long getSharedSent();

  /**
   * Returns how many results this instance heard from the budget's other instances and kept:
   * signed by a key of {@code sluice.stale.share-key}, in time, not heard before.
   *
   * @return results heard since the data source was built; 0 without sharing
   */
  long getSharedHeard();

  /**
   * Returns how many messages on {@code sluice:<name>:answers} this instance dropped unheard, by
   * reason, for example {@code unsigned 0, unknown-key 0, bad-signature 4, expired 0,
   * replayed 1, environment 0, undecodable 0}: not signed; signed by a key not in
   * {@code sluice.stale.share-key}; forged or altered; sent longer than {@code max-age} ago;
   * heard before; from another JDBC driver, version, time zone or locale; results of another
   * version. All but {@code expired} (a backlog, or clocks apart) call for a look at who
   * publishes there.
   *
   * @return each reason's count since the data source was built, every reason in a fixed order;
   *     all {@code 0} without sharing
   */
  String getSharedDroppedByReason();

  /**
   * Returns how many statements inside admitted transactions were charged without the right to
   * refuse them.
   *
   * @return forced permits since the data source was built
   */
  long getForced();

  /**
   * Opens the manual breaker flag of this JVM: limiting starts at once. Logged at WARN.
   *
   * @throws UnsupportedOperationException if the flag is not a manual flag; open a Redis flag
   *     with {@code SET sluice:<name>:breaker open} instead
   */
  void tripFlag();

  /**
   * Closes the manual breaker flag of this JVM: limiting stops at once, or after the recovery
   * when {@code sluice.recovery.settle} is not zero ({@link #endRecovery()} ends that too). Logged
   * at WARN.
   *
   * @throws UnsupportedOperationException if the flag is not a manual flag
   */
  void resetFlag();

  /**
   * Returns the mode: {@code enforce}, or {@code shadow} where nothing is refused and what would
   * be is counted.
   *
   * @return {@code enforce} or {@code shadow}
   */
  String getMode();

  /**
   * Switches between enforce and shadow mode at once, without a redeploy (logged at WARN): for
   * example to enforce during an incident after a run in shadow.
   *
   * @param mode {@code enforce} or {@code shadow}, in any case
   * @throws IllegalArgumentException naming {@code sluice.mode} and the value, for anything else;
   *     then nothing changes
   */
  void setMode(String mode);

  /**
   * Returns how many calls shadow mode let pass that enforce mode would have refused.
   *
   * @return would-be rejections since the start
   */
  long getShadowRejected();

  /**
   * Returns admitted, rejected and shadow-rejected calls by priority, for example
   * {@code critical 10/0/0, normal 80/3/0, sheddable 40/97/0}.
   *
   * @return the counts, highest priority first
   */
  String getCallsByPriority();
}
