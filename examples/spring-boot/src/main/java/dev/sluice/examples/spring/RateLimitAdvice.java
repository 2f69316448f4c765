package dev.sluice.examples.spring;

import dev.sluice.RateLimitExceededException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps a rejection by Sluice to {@code 503 Service Unavailable} with {@code Retry-After}.
 *
 * <p>Spring wraps the rejection before it gets here — {@code JdbcTemplate} in a
 * {@code TransientDataAccessResourceException}, the transaction manager in a
 * {@code CannotCreateTransactionException} — and {@code @ExceptionHandler} matches causes too, so
 * one handler serves both.
 */
@RestControllerAdvice
public class RateLimitAdvice {

  /**
   * Answers 503 at once.
   *
   * @param e the rejection
   * @return the problem, with {@code Retry-After} in whole seconds (at least 1)
   */
  @ExceptionHandler(RateLimitExceededException.class)
  public ResponseEntity<ProblemDetail> overBudget(RateLimitExceededException e) {
    long seconds = Math.max(1, (e.retryAfterMillis() + 999) / 1000);
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
        "The database is over its budget while the cache is down; retry in " + seconds + " s.");
    problem.setProperty("budget", e.budgetName());
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds)).body(problem);
  }
}
