package dev.sluice.internal.limit;

import dev.sluice.Priority;
import dev.sluice.RateLimitExceededException;

/**
 * One kind of limit a door passes while limiting, in its own room: the rate ({@link RateLimit}),
 * the cap on calls in flight ({@link Concurrency}), the recovery hold ({@link RecoveryHold}, which
 * only counts demand). The {@link Limiter} composes them in a fixed order and alone decides what
 * happens on a refusal (shadow mode passes it, enforce mode throws). Adding a kind of limit is a
 * class that implements this, plus its line in {@code Limiter.admit}.
 *
 * <p>Each method is on the request path while limiting: no lock, no allocation but a refusal's
 * exception, and each limit's field in the limiter holds one class (the JIT inlines the calls).
 */
interface AdmitLimit {

  /**
   * Takes this limit's part of a call at a door, at {@code priority}.
   *
   * @param priority the call's priority
   * @return {@code false} when the limit refuses the call (nothing was taken)
   */
  boolean tryAcquire(Priority priority);

  /** Gives back what {@link #tryAcquire} took, for a call that a later limit refused. */
  void releaseUnused();

  /**
   * The exception of a refusal by this limit, just after {@link #tryAcquire} said no.
   *
   * @param priority the call's priority
   * @param refuser makes the budget's exceptions
   * @return the exception to throw
   */
  RateLimitExceededException refuse(Priority priority, Refuser refuser);
}
