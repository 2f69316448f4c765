package dev.sluice.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

/** The after-run checks every framework test makes on its pool. */
public final class PoolAssert {
  private PoolAssert() {}

  /**
   * Asserts that the rig's pool is as it was: no connection left checked out, no physical
   * connection evicted or added, and the same PostgreSQL backends serving it.
   */
  public static void undisturbed(Rig rig, PoolState before) {
    Waits.until(Duration.ofSeconds(5), "no connection of " + rig + " is checked out",
        () -> rig.pool().getHikariPoolMXBean().getActiveConnections() == 0);
    PoolState after = rig.state();
    assertThat(after.active()).as("connections still checked out of %s", rig).isZero();
    assertThat(after.total()).as("physical connections of %s", rig).isEqualTo(before.total());
    assertThat(after.backendPids()).as("PostgreSQL backend PIDs of %s", rig)
        .isEqualTo(before.backendPids());
  }
}
