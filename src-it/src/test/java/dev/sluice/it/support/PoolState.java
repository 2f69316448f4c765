package dev.sluice.it.support;

import java.util.Set;

/**
 * What a pool looked like at one moment, read from HikariCP and from PostgreSQL itself.
 *
 * @param total the pool's physical connections
 * @param active connections checked out
 * @param backendPids the PostgreSQL backends serving the pool (by application name)
 */
public record PoolState(int total, int active, Set<Integer> backendPids) {}
