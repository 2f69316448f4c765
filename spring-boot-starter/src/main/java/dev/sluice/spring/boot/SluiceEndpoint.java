package dev.sluice.spring.boot;

import dev.sluice.BreakerFlag;
import dev.sluice.RateLimitedDataSource;
import dev.sluice.RateLimitedDataSourceMXBean;
import dev.sluice.Stats;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.lang.Nullable;

/**
 * The Actuator endpoint {@code sluice}: each budget's figures, and the incident operations of its
 * MXBean. {@code GET /actuator/sluice} lists the budgets, {@code GET /actuator/sluice/<name>} shows
 * one, and {@code POST /actuator/sluice/<name>} with {@code {"flag": "open"}} (or
 * {@code "closed"}) trips or resets a manual flag, with {@code {"budget": 200}} changes the budget
 * until the next start, with {@code {"mode": "shadow"}} (or {@code "enforce"}) switches the mode
 * until the next start, and with {@code {"recovery": "end"}} ends a recovery at once. Writes need
 * the endpoint exposed, as every Actuator write does. Each change is one optional field of the one
 * write operation; several in one request are checked first, then made in that order (budget,
 * mode, flag, recovery), so that {@code {"flag": "closed", "recovery": "end"}} stops limiting at
 * once and a bad field changes nothing.
 *
 * <p>This class is threadsafe.
 */
@Endpoint(id = "sluice")
public final class SluiceEndpoint {
  /** How the changes made here are named in the WARN lines the library logs for each. */
  private static final String VIA = "Actuator";
  /** Compared by name, so that Resilience4j's classes load only when the flag is theirs. */
  private static final String FOLLOWING = "dev.sluice.spring.boot.Resilience4jFlag$Following";

  private static final Set<String> MODES = Set.of("enforce", "shadow");

  private final Budgets budgets;
  private final Function<String, BreakerFlag> flags;

  SluiceEndpoint(Budgets budgets, Function<String, BreakerFlag> flags) {
    this.budgets = budgets;
    this.flags = flags;
  }

  /**
   * Lists every budget's figures.
   *
   * @return the figures by budget name
   */
  @ReadOperation
  public Map<String, Map<String, Object>> budgets() {
    Map<String, Map<String, Object>> all = new LinkedHashMap<>();
    budgets.all().forEach((name, sluice) -> all.put(name, describe(sluice)));
    return all;
  }

  /**
   * Shows one budget's figures.
   *
   * @param name the budget's {@code sluice.name}
   * @return its figures, or {@code null} (404) when there is no such budget
   */
  @ReadOperation
  public Map<String, Object> budget(@Selector String name) {
    RateLimitedDataSource sluice = budgets.all().get(name);
    return sluice == null ? null : describe(sluice);
  }

  /**
   * Changes one budget during an incident: trips or resets its manual flag, changes its budget,
   * switches shadow/enforce, ends a recovery. Each change is logged at WARN and lasts until the
   * next start.
   *
   * @param name the budget's {@code sluice.name}
   * @param flag {@code open} to trip the manual flag, {@code closed} to reset it, or absent
   * @param budget the new budget in permits per second, all instances together, or absent
   * @param mode {@code shadow} or {@code enforce}, or absent
   * @param recovery {@code end} to end a recovery at once (nothing happens when none is on), or
   *     absent
   * @return the figures after the change, or {@code null} (404) when there is no such budget
   * @throws InvalidEndpointRequestException (400) naming the field and the value, for a bad one;
   *     then nothing changes
   */
  @WriteOperation
  public Map<String, Object> change(@Selector String name, @Nullable String flag,
      @Nullable Double budget, @Nullable String mode, @Nullable String recovery) {
    RateLimitedDataSource sluice = budgets.all().get(name);
    if (sluice == null) {
      return null;
    }
    RateLimitedDataSourceMXBean management = sluice.management(VIA);
    try {
      check(management, flags.apply(name), flag, mode, recovery);
      if (budget != null) { // first: the one change that can still be refused
        management.setBudget(budget);
      }
      if (mode != null) {
        management.setMode(mode.trim());
      }
      if (flag != null) {
        setFlag(management, flag);
      }
      if (recovery != null) {
        management.endRecovery();
      }
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
    }
    return describe(sluice);
  }

  /**
   * Refuses a bad field before any change is made, with the library's own message where it has
   * one (the operation then throws having changed nothing).
   */
  private static void check(RateLimitedDataSourceMXBean management, BreakerFlag sluiceFlag,
      @Nullable String flag, @Nullable String mode, @Nullable String recovery) {
    if (mode != null && !MODES.contains(mode.trim().toLowerCase(Locale.ROOT))) {
      management.setMode(mode);
    }
    if (flag != null) {
      flagOpen(flag);
      if (!management.isFlagManual()) {
        refuseFlag(sluiceFlag, flag);
        setFlag(management, flag);
      }
    }
    if (recovery != null && !"end".equals(recovery.trim().toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("recovery must be `end`, but was \"" + recovery + "\"");
    }
  }

  /**
   * Refuses to move a flag that follows a Resilience4j breaker, saying where to move it: the
   * breaker itself, so that the application's fallback and Sluice agree.
   */
  private static void refuseFlag(BreakerFlag sluiceFlag, String flag) {
    if (sluiceFlag != null && sluiceFlag.getClass().getName().equals(FOLLOWING)) {
      String breaker = ((Resilience4jFlag.Following) sluiceFlag).breakerName(); // loaded: present
      String state = flagOpen(flag) ? "FORCE_OPEN" : "CLOSE";
      throw new UnsupportedOperationException("the flag follows " + sluiceFlag + ", so it opens"
          + " and closes with it; move the breaker instead (Resilience4j's Actuator endpoint:"
          + " POST /actuator/circuitbreakers/" + breaker + " {\"updateState\":\"" + state
          + "\"}, or CircuitBreaker.transitionTo...State() in code)");
    }
  }

  private static void setFlag(RateLimitedDataSourceMXBean management, String flag) {
    if (flagOpen(flag)) {
      management.tripFlag();
    } else {
      management.resetFlag();
    }
  }

  private static boolean flagOpen(String flag) {
    switch (flag.trim().toLowerCase(Locale.ROOT)) {
      case "open":
        return true;
      case "closed":
        return false;
      default:
        throw new IllegalArgumentException("flag must be `open` or `closed`, but was \"" + flag
            + "\"");
    }
  }

  /** A count as a count ({@code 4}, not {@code 4.0}); a fraction as it is. */
  private static Number whole(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Number) (long) value : value;
  }

  private static Map<String, Object> describe(RateLimitedDataSource sluice) {
    Stats stats = sluice.stats();
    RateLimitedDataSourceMXBean management = sluice.management();
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("limiting", stats.limiting());
    shown.put("recovering", stats.recovering());
    shown.put("mode", management.getMode().toLowerCase(Locale.ROOT));
    shown.put("budget", stats.budget());
    shown.put("instances", whole(stats.instances()));
    shown.put("permitsPerSecond", stats.permitsPerSecond());
    shown.put("burst", stats.burst());
    shown.put("scope", management.getScope().toLowerCase(Locale.ROOT));
    shown.put("admitted", stats.admitted());
    shown.put("rejected", stats.rejected());
    shown.put("shadowRejected", stats.shadowRejected());
    shown.put("forced", stats.forced());
    shown.put("answered", stats.answered());
    shown.put("joined", stats.joined());
    shown.put("answersKept", stats.answersKept());
    shown.put("answersKeptBytes", stats.answersKeptBytes());
    shown.put("answerAgeP99Millis", stats.answerAgeMillis(0.99));
    shown.put("notEligible", stats.notEligibleByReason());
    shown.put("sharedSent", stats.sharedSent());
    shown.put("sharedHeard", stats.sharedHeard());
    shown.put("sharedDropped", stats.sharedDroppedByReason());
    shown.put("flag", management.getFlag());
    shown.put("flagState", stats.flagState().name().toLowerCase(Locale.ROOT));
    shown.put("flagManual", management.isFlagManual());
    shown.put("sinceFlagReadMillis", stats.sinceFlagRead().toMillis());
    return shown;
  }
}
