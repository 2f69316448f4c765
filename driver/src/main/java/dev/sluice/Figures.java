package dev.sluice;

import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.limit.Concurrency;
import dev.sluice.internal.limit.Limiter;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * The figures of one budget, each read where it lives when asked: what {@link Stats} copies into
 * a snapshot, and what each meter ({@link SluiceMetrics}) and each MXBean attribute
 * ({@link EnforcerJmx}) reads alone, so that a scrape of some forty meters builds no snapshot at
 * all. One per enforcer, made with it.
 *
 * <p>Every read is pure: a counter's sum, a volatile field, or what a call now would find
 * ({@link #limiting()}). None makes a transition, counts demand, logs or drops kept results;
 * those happen on the request path (the first call that sees the flag change, or the recovery
 * settle) and at {@code close()}. So however often, and whenever, the figures are read, the
 * decisions are the same ({@code ReadingFiguresChangesNothingTest}).
 *
 * <p>This class is threadsafe: it holds only threadsafe parts, and reads them.
 */
final class Figures {
  private static final IntSupplier NO_REGISTRY = () -> 0;

  private final Limiter limiter;
  private final IntSupplier liveInstances;
  /** {@code null}: answers off. */
  private final Answers answers;

  Figures(Limiter limiter, IntSupplier liveInstances, Answers answers) {
    this.limiter = limiter;
    this.liveInstances = liveInstances == null ? NO_REGISTRY : liveInstances;
    this.answers = answers;
  }

  String name() {
    return limiter.name();
  }

  long admitted() {
    return limiter.counts().admitted();
  }

  long admitted(Priority p) {
    return limiter.counts().admitted(p);
  }

  long rejected() {
    return limiter.counts().rejected();
  }

  long rejected(Priority p) {
    return limiter.counts().rejected(p);
  }

  long shadowRejected() {
    return limiter.counts().shadowRejected();
  }

  long shadowRejected(Priority p) {
    return limiter.counts().shadowRejected(p);
  }

  long forced() {
    return limiter.counts().forced();
  }

  boolean shadow() {
    return limiter.counts().shadow();
  }

  /** Whether a call now would be charged: the flag is open, or a recovery holds or would begin. */
  boolean limiting() {
    return limitingWith(flagOpen());
  }

  /** {@link #limiting()}, given what the flag says now ({@code open}). */
  boolean limitingWith(boolean open) {
    return limiter.hold().limitingNow(open);
  }

  /** Whether a call now would be charged with the flag closed: the recovery hold. */
  boolean recovering() {
    boolean open = flagOpen();
    return !open && limiter.hold().limitingNow(false);
  }

  boolean flagOpen() {
    return limiter.hold().flag().isOpen();
  }

  double permitsPerSecond() {
    return limiter.bucket().permitsPerSecond();
  }

  int burst() {
    return limiter.bucket().burst();
  }

  double instances() {
    return limiter.share().instances();
  }

  double budget() {
    return limiter.share().budget();
  }

  /** The flag's source state, given what the flag says now ({@code open}) for a local flag. */
  FlagState flagState(boolean open) {
    BreakerFlag flag = limiter.hold().flag();
    return flag instanceof RedisBreakerFlag ? ((RedisBreakerFlag) flag).state()
        : open ? FlagState.OPEN : FlagState.CLOSED;
  }

  FlagState flagState() {
    return flagState(flagOpen());
  }

  Duration sinceFlagRead() {
    BreakerFlag flag = limiter.hold().flag();
    return flag instanceof RedisBreakerFlag ? ((RedisBreakerFlag) flag).sinceLastRead()
        : Duration.ZERO;
  }

  int liveInstances() {
    return liveInstances.getAsInt();
  }

  int inFlight() {
    Concurrency concurrency = limiter.concurrency();
    return concurrency == null ? 0 : concurrency.inFlight();
  }

  int concurrencyLimit() {
    Concurrency concurrency = limiter.concurrency();
    return concurrency == null ? 0 : concurrency.limit();
  }

  long answered() {
    return answers == null ? 0 : answers.answered();
  }

  long answered(Priority p) {
    return answers == null ? 0 : answers.answered(p);
  }

  long joined() {
    return answers == null ? 0 : answers.joined();
  }

  long joined(Priority p) {
    return answers == null ? 0 : answers.joined(p);
  }

  int answersKept() {
    return answers == null ? 0 : answers.entries();
  }

  long answersKeptBytes() {
    return answers == null ? 0 : answers.bytes();
  }

  long sharedSent() {
    return answers == null ? 0 : answers.sharedSent();
  }

  long sharedHeard() {
    return answers == null ? 0 : answers.sharedHeard();
  }

  long sharedDropped(String reason) {
    return answers == null ? 0 : answers.sharedDropped(reason);
  }

  long notEligible(String reason) {
    return answers == null ? 0 : answers.notEligible(reason);
  }

  long answerAgeMillis(double quantile) {
    return answers == null ? -1 : answers.ageMillis(quantile);
  }
}
