package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry member, stepped by hand over an in-memory Redis. */
class RegistryTest {
  private final FakeLink link = new FakeLink();
  private final RedisHealth health = new RedisHealth("t", "redis://fake", "the test", "test");
  private final List<Integer> counts = new ArrayList<>();

  /** The member under test: its counts are recorded. */
  private Registry watched() {
    return new Registry("t", link, health, Duration.ofSeconds(1), Duration.ofSeconds(5),
        counts::add);
  }

  private Registry member() {
    return new Registry("t", link, health, Duration.ofSeconds(1), Duration.ofSeconds(5),
        count -> {});
  }

  @Test
  void beat_countChanges_reportedOncePerChange() {
    Registry first = watched();
    first.beat();
    member().beat();
    first.beat();
    first.beat();
    assertThat(counts).containsExactly(1, 2);
    assertThat(first.liveCount()).isEqualTo(2);
  }

  @Test
  void beat_redisDown_keepsTheLastCount() {
    Registry first = watched();
    member().beat();
    member().beat();
    first.beat();
    link.down = true;
    first.beat();
    first.beat();
    assertThat(first.liveCount()).isEqualTo(3);
    assertThat(counts).containsExactly(3);
    assertThat(health.isDown()).isTrue();
  }

  @Test
  void liveCount_neverAnswered_isZero() {
    link.down = true;
    Registry first = watched();
    first.beat();
    assertThat(first.liveCount()).isZero();
    assertThat(counts).isEmpty();
  }

  @Test
  void member_ids_differ() {
    assertThat(member().member()).isNotEqualTo(member().member());
  }
}
