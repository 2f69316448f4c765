package dev.sluice;

import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Ineligible;
import dev.sluice.internal.limit.Counts;
import dev.sluice.internal.limit.Limiter;
import dev.sluice.internal.limit.Share;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A snapshot of one budget's limiter, taken by {@link RateLimitedDataSource#stats()}. Taking it
 * changes nothing: no recovery begins or ends, no kept result is dropped, however often it is
 * taken.
 *
 * <p>The counters count decisions made while limiting (the flag open, or recovering): calls that
 * pass while the flag is closed and no recovery is on are not counted. This class is immutable
 * and threadsafe.
 */
public final class Stats {
  private final String name;
  private final long admitted;
  private final long rejected;
  private final long forced;
  private final long shadowRejected;
  /** By {@link Priority#ordinal()}. */
  private final long[] admittedBy;
  private final long[] rejectedBy;
  private final long[] shadowRejectedBy;
  private final boolean shadow;
  private final boolean limiting;
  private final boolean recovering;
  private final double permitsPerSecond;
  private final int burst;
  private final double instances;
  private final double budget;
  private final FlagState flagState;
  private final Duration sinceFlagRead;
  private final int liveInstances;
  private final int inFlight;
  private final int concurrencyLimit;
  private final long answered;
  private final long joined;
  private final long[] answeredBy;
  private final long[] joinedBy;
  private final int answersKept;
  private final long answersKeptBytes;
  private final long sharedSent;
  private final long sharedHeard;
  /** Messages heard and dropped, by {@link Answers#sharedDropReasons()}' order. */
  private final long[] sharedDropped;
  /** Reads neither kept nor answered, by {@code Ineligible.words()}' order. */
  private final long[] notEligible;
  /** Read for the ages' quantiles when asked ({@link #answerAgeMillis}). */
  private final Figures figures;

  Stats(Limiter limiter) {
    this(new Figures(limiter, null, null));
  }

  /** Copies every figure once; reading them acts on nothing ({@link Figures}). */
  Stats(Figures figures) {
    this.figures = figures;
    this.answeredBy = new long[Priority.values().length];
    this.joinedBy = new long[answeredBy.length];
    this.admittedBy = new long[answeredBy.length];
    this.rejectedBy = new long[answeredBy.length];
    this.shadowRejectedBy = new long[answeredBy.length];
    long answeredSum = 0;
    long joinedSum = 0;
    for (Priority p : Priority.values()) { // the totals are the parts' sums: one snapshot
      answeredSum += answeredBy[p.ordinal()] = figures.answered(p);
      joinedSum += joinedBy[p.ordinal()] = figures.joined(p);
      admittedBy[p.ordinal()] = figures.admitted(p);
      rejectedBy[p.ordinal()] = figures.rejected(p);
      shadowRejectedBy[p.ordinal()] = figures.shadowRejected(p);
    }
    this.answered = answeredSum;
    this.joined = joinedSum;
    this.answersKept = figures.answersKept();
    this.answersKeptBytes = figures.answersKeptBytes();
    this.sharedSent = figures.sharedSent();
    this.sharedHeard = figures.sharedHeard();
    this.sharedDropped = Answers.sharedDropReasons().stream()
        .mapToLong(figures::sharedDropped).toArray();
    this.notEligible = Ineligible.words().stream().mapToLong(figures::notEligible).toArray();
    this.name = figures.name();
    this.admitted = figures.admitted();
    this.rejected = figures.rejected();
    this.forced = figures.forced();
    this.shadowRejected = figures.shadowRejected();
    this.shadow = figures.shadow();
    boolean flagOpen = figures.flagOpen();
    this.limiting = figures.limitingWith(flagOpen);
    this.recovering = limiting && !flagOpen;
    this.permitsPerSecond = figures.permitsPerSecond();
    this.burst = figures.burst();
    this.instances = figures.instances();
    this.budget = figures.budget();
    this.flagState = figures.flagState(flagOpen);
    this.sinceFlagRead = figures.sinceFlagRead();
    this.liveInstances = figures.liveInstances();
    this.inFlight = figures.inFlight();
    this.concurrencyLimit = figures.concurrencyLimit();
  }

  /**
   * Returns the budget's name.
   *
   * @return the {@code sluice.name}
   */
  public String name() {
    return name;
  }

  /**
   * Returns how many calls took a permit at a door: a statement under auto-commit, the start of a
   * transaction, or a checkout in {@code CONNECTION} scope.
   *
   * @return permits taken while limiting, since the data source was built
   */
  public long admitted() {
    return admitted;
  }

  /**
   * Returns how many calls were refused by the limit: every one counts here, including the reads
   * then answered instead ({@link #answered()} is the part of these that got an answer rather
   * than a {@link RateLimitExceededException}).
   *
   * @return refusals by the limit since the data source was built
   */
  public long rejected() {
    return rejected;
  }

  /**
   * Returns how many reads the limit refused that were answered instead
   * ({@code sluice.stale.max-age}): from a recently kept result or by joining an identical read
   * in flight, with a {@link StaleResultWarning}. A part of {@link #rejected()}: the callers
   * that saw an exception are {@code rejected() - answered()}.
   *
   * @return reads answered instead of refused since the data source was built; {@code 0} with
   *     answers off
   */
  public long answered() {
    return answered;
  }

  /**
   * Returns the part of {@link #answered()} that joined an identical read in flight (waiting at
   * most {@code sluice.stale.wait}) rather than being answered from a result kept earlier.
   *
   * @return joined reads since the data source was built
   */
  public long joined() {
    return joined;
  }

  /**
   * Returns how many results are kept to answer from now ({@code sluice.stale.max-age}).
   *
   * @return kept results; {@code 0} with answers off
   */
  public int answersKept() {
    return answersKept;
  }

  /**
   * Returns the kept results' estimated bytes now, bounded by {@code sluice.stale.memory}.
   *
   * @return estimated bytes; {@code 0} with answers off
   */
  public long answersKeptBytes() {
    return answersKeptBytes;
  }

  /**
   * Returns how many kept results this instance sent to the budget's other instances
   * ({@code sluice.stale.share}).
   *
   * @return results sent since the data source was built; {@code 0} without sharing
   */
  public long sharedSent() {
    return sharedSent;
  }

  /**
   * Returns how many results this instance heard from the budget's other instances and kept:
   * signed by a key of {@code sluice.stale.share-key}, younger than {@code max-age}, not heard
   * before.
   *
   * @return results heard since the data source was built; {@code 0} without sharing
   */
  public long sharedHeard() {
    return sharedHeard;
  }

  /**
   * Returns how many messages on {@code sluice:<name>:answers} this instance dropped for one
   * reason, while limiting: {@code unsigned} (no signature: an older Sluice, or not Sluice),
   * {@code unknown-key} (signed by a key not in {@code sluice.stale.share-key}),
   * {@code bad-signature} (forged or altered), {@code expired} (sent longer than {@code max-age}
   * ago), {@code replayed} (heard before), {@code environment} (another JDBC driver, version,
   * time zone or locale), {@code undecodable} (results, not messages: signed, but of another
   * version).
   *
   * @param reason one of the words above
   * @return messages dropped for it since the data source was built; {@code 0} for another word
   *     or without sharing
   */
  public long sharedDropped(String reason) {
    int at = Answers.sharedDropReasons().indexOf(reason);
    return at < 0 ? 0 : sharedDropped[at];
  }

  /**
   * Returns {@link #sharedDropped(String)} for every reason, in a fixed order: {@code unsigned},
   * {@code unknown-key}, {@code bad-signature}, {@code expired}, {@code replayed},
   * {@code environment}, {@code undecodable}.
   *
   * @return each reason's count, zeros included; unmodifiable
   */
  public Map<String, Long> sharedDroppedByReason() {
    return byReason(Answers.sharedDropReasons(), sharedDropped);
  }

  /**
   * Returns how many reads, while answering (limiting, {@code sluice.stale.max-age} on), were
   * neither kept nor answered for one reason: {@code transaction} (inside one),
   * {@code locking} (the text locks or writes, or is no plain read), {@code side-effect} (it
   * calls what the catalog does not call pure), {@code session} (its session unknown or
   * changed, or the text reads or sets it), {@code parameters} (a value set before limiting,
   * or by a setter not recorded), {@code statement} (callable, scrollable, updatable,
   * {@code maxFieldSize}), {@code type} (a column type or value not answered),
   * {@code rows} (more than {@code max-rows}), {@code memory} (more than the memory bound
   * allows), {@code unfinished} (closed before its end). An admitted read not kept and a refused
   * read not answered count alike; a refused read with no kept result to answer it does not.
   *
   * @param reason one of the words above
   * @return reads counted for it since the data source was built; {@code 0} for another word
   *     or without answers
   */
  public long notEligible(String reason) {
    int at = Ineligible.words().indexOf(reason);
    return at < 0 ? 0 : notEligible[at];
  }

  /**
   * Returns {@link #notEligible(String)} for every reason, in a fixed order: {@code transaction},
   * {@code locking}, {@code side-effect}, {@code session}, {@code parameters},
   * {@code statement}, {@code type}, {@code rows}, {@code memory}, {@code unfinished}.
   *
   * @return each reason's count, zeros included; unmodifiable
   */
  public Map<String, Long> notEligibleByReason() {
    return byReason(Ineligible.words(), notEligible);
  }

  private static Map<String, Long> byReason(List<String> reasons, long[] counts) {
    Map<String, Long> byReason = new LinkedHashMap<>();
    for (int i = 0; i < counts.length; i++) {
      byReason.put(reasons.get(i), counts[i]);
    }
    return Collections.unmodifiableMap(byReason);
  }

  /**
   * Returns how old the answers were: the age under which {@code quantile} of the reads
   * answered since the data source was built were, in milliseconds (exact under 1 s, to 10 ms
   * under 10 s, to 100 ms beyond). Unlike the other figures it is read when called, from the
   * distribution the answers keep, not when the snapshot was taken.
   *
   * @param quantile from 0 to 1, as {@code 0.99}
   * @return the age in milliseconds; {@code -1} before the first answer or with answers off
   */
  public long answerAgeMillis(double quantile) {
    return figures.answerAgeMillis(quantile);
  }

  /**
   * Returns how many calls shadow mode let pass that enforce mode would have refused (uncharged).
   *
   * @return would-be rejections while in shadow mode, since the data source was built
   */
  public long shadowRejected() {
    return shadowRejected;
  }

  /**
   * Returns how many calls of {@code priority} took a permit at a door.
   *
   * @param priority a priority (a read-only connection's calls count as {@code SHEDDABLE})
   * @return that part of {@link #admitted()}
   */
  public long admitted(Priority priority) {
    return admittedBy[priority.ordinal()];
  }

  /**
   * Returns how many calls of {@code priority} were refused.
   *
   * @param priority a priority
   * @return that part of {@link #rejected()}
   */
  public long rejected(Priority priority) {
    return rejectedBy[priority.ordinal()];
  }

  /**
   * Returns how many reads of {@code priority} the limit refused that were answered instead.
   *
   * @param priority a priority (a read-only connection's reads count as {@code SHEDDABLE})
   * @return that part of {@link #answered()}, and of {@link #rejected(Priority)}
   */
  public long answered(Priority priority) {
    return answeredBy[priority.ordinal()];
  }

  /**
   * Returns the part of {@link #answered(Priority)} that joined an identical read in flight.
   *
   * @param priority a priority
   * @return that part of {@link #joined()}
   */
  public long joined(Priority priority) {
    return joinedBy[priority.ordinal()];
  }

  /**
   * Returns how many calls of {@code priority} shadow mode let pass that enforce mode would have
   * refused.
   *
   * @param priority a priority
   * @return that part of {@link #shadowRejected()}
   */
  public long shadowRejected(Priority priority) {
    return shadowRejectedBy[priority.ordinal()];
  }

  /**
   * Returns whether the limiter is in shadow mode ({@code sluice.mode=shadow}, or switched over
   * JMX): nothing is refused, and what would be is counted.
   *
   * @return {@code true} in shadow mode, {@code false} in enforce mode
   */
  public boolean shadow() {
    return shadow;
  }

  /**
   * Returns how many statements inside admitted transactions were charged without the right to
   * refuse them (the bucket may go into debt for these; later admissions pay it back).
   *
   * @return permits charged inside transactions while limiting
   */
  public long forced() {
    return forced;
  }

  /**
   * Returns whether permits are being charged: the breaker flag is open, or it has closed and the
   * limiter is {@link #recovering() recovering}.
   *
   * @return {@code true} while limiting
   */
  public boolean limiting() {
    return limiting;
  }

  /**
   * Returns whether the limiter is recovering: the breaker flag has closed after having been open,
   * and limiting goes on at this instance's share until its demand has stayed at or below
   * {@code sluice.recovery.threshold} of the share for {@code sluice.recovery.settle}, so that a
   * cold cache refills without flooding the database. Like every figure it is read without
   * acting: it says what a call now would find. The recovery begins at the first call that finds
   * the flag closed and ends at the first call after its settle; reading the stats begins and
   * ends nothing.
   *
   * @return {@code true} while recovering; {@link #limiting()} is then {@code true} too
   */
  public boolean recovering() {
    return recovering;
  }

  /**
   * Returns this instance's share of the budget.
   *
   * @return permits per second this instance admits while limiting; {@code 0} while a live count
   *     leaves a share below 0.001 per second, when it admits nothing new
   */
  public double permitsPerSecond() {
    return permitsPerSecond;
  }

  /**
   * Returns the depth of this instance's bucket; unless {@code sluice.burst} is set, it follows
   * the share.
   *
   * @return permits that may be taken at once
   */
  public int burst() {
    return burst;
  }

  /**
   * Returns how many instances the budget is divided among now.
   *
   * @return the divisor of the budget
   */
  public double instances() {
    return instances;
  }

  /**
   * Returns the budget: what the database takes on the fallback path, all instances together. It
   * is {@code sluice.budget} unless an operator changed it at runtime over JMX.
   *
   * @return permits per second
   */
  public double budget() {
    return budget;
  }

  /**
   * Returns where the flag's answer comes from: for a {@link RedisBreakerFlag}, what the key said
   * at the last read or {@link FlagState#UNREACHABLE}; for a local flag, its own state.
   *
   * @return the flag's source state
   */
  public FlagState flagState() {
    return flagState;
  }

  /**
   * Returns how long ago the flag was last read successfully from its source.
   *
   * @return the age of a {@link RedisBreakerFlag}'s local copy; {@link Duration#ZERO} for a flag
   *     held in local memory
   */
  public Duration sinceFlagRead() {
    return sinceFlagRead;
  }

  /**
   * Returns the live instance count the Redis registry last reported
   * ({@code sluice.instances=redis}). {@link #instances()} is the divisor in force: the same
   * count once the registry has answered, {@code sluice.instances.assumed} before.
   *
   * @return instances counted by the registry, this one included; {@code 0} when the count is
   *     fixed or the registry has never answered
   */
  public int liveInstances() {
    return liveInstances;
  }

  /**
   * Returns how many places of its concurrency cap this instance has in use: statements under
   * auto-commit admitted while limiting and not yet returned, open transactions (one each, from
   * the door to the end), and in {@code connection} scope connections checked out. A transaction
   * or a connection begun while not limiting counts from its first statement while limiting; a
   * statement already executing when limiting began is not counted.
   *
   * @return the count; {@code 0} when there is no cap ({@code sluice.concurrency} not set)
   */
  public int inFlight() {
    return inFlight;
  }

  /**
   * Returns this instance's cap on statements in flight: its share of a fixed
   * {@code sluice.concurrency}, or where {@code auto} has brought it.
   *
   * @return the cap; {@code 0} when there is none
   */
  public int concurrencyLimit() {
    return concurrencyLimit;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT,
        "Stats[%s: limiting=%s, recovering=%s, mode=%s, admitted=%d, rejected=%d,"
            + " shadowRejected=%d, forced=%d, share=%s/s, burst=%d, instances=%s, flag=%s,"
            + " flagReadAgo=%dms, liveInstances=%d, inFlight=%d, concurrencyLimit=%d,"
            + " answered=%d, joined=%d, answersKept=%d]", name,
        limiting, recovering, Counts.modeName(shadow), admitted, rejected, shadowRejected, forced,
        Share.rate(permitsPerSecond), burst,
        Share.rate(instances), flagState, sinceFlagRead.toMillis(),
        liveInstances, inFlight, concurrencyLimit, answered, joined, answersKept);
  }
}
