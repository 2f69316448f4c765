package dev.sluice.internal.limit;

import dev.sluice.Scope;
import dev.sluice.internal.config.ConcurrencyCap;
import java.time.Duration;

/**
 * The limiter's settings, typed and checked: built once at the composition root from the key
 * table ({@code Enforcer.limitSettings}), so that no room of {@code internal.limit} reads the
 * settings' map.
 *
 * @param budget {@code sluice.budget}, all instances together
 * @param burst {@code sluice.burst}; {@code 0} when not set (the share decides)
 * @param scope {@code sluice.scope}
 * @param poolAutoCommit {@code sluice.pool-auto-commit} (driver mode)
 * @param stackTraces {@code sluice.stack-traces}
 * @param summaryInterval {@code sluice.summary-interval}
 * @param shadow {@code sluice.mode=shadow}
 * @param settle {@code sluice.recovery.settle}
 * @param threshold {@code sluice.recovery.threshold}
 * @param concurrency {@code sluice.concurrency}; {@code null}: no cap
 * @param reserve {@code sluice.reserve}
 * @param concurrencyMin {@code sluice.concurrency.min}
 * @param concurrencyMax {@code sluice.concurrency.max}
 */
public record LimitSettings(double budget, int burst, Scope scope, boolean poolAutoCommit,
    boolean stackTraces, Duration summaryInterval, boolean shadow, Duration settle,
    double threshold, ConcurrencyCap concurrency, double reserve, int concurrencyMin,
    int concurrencyMax) {}
