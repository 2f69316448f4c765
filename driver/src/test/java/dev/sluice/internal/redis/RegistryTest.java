package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  void beat_onCountThrows_offersTheCountAgainAtTheNextBeat() {
    boolean[] fail = {true};
    Registry first = new Registry("t", link, health, Duration.ofSeconds(1), Duration.ofSeconds(5),
        count -> {
          if (fail[0]) {
            fail[0] = false;
            throw new IllegalStateException("a limiter that refused the count");
          }
          counts.add(count);
        });
    assertThatThrownBy(first::beat).isInstanceOf(IllegalStateException.class);
    assertThat(first.liveCount()).isZero();
    first.beat();
    assertThat(counts).containsExactly(1);
    assertThat(first.liveCount()).isEqualTo(1);
  }

  /**
   * Issue 10, item 1: a count the limiter threw on killed the scheduled heartbeat without a log
   * line; the member expired and the others counted this instance out.
   */
  @Test
  void start_onCountThrowsEveryTime_theHeartbeatGoesOn() throws Exception {
    CountDownLatch offered = new CountDownLatch(5);
    Registry member = new Registry("t", link, health, Duration.ofMillis(5), Duration.ofSeconds(5),
        count -> {
          offered.countDown();
          throw new IllegalArgumentException("a share the bucket cannot hold");
        });
    try {
      member.start(); // the first beat, on this thread, throws too: logged, not thrown
      assertThat(offered.await(10, TimeUnit.SECONDS)).as("five beats offered the count").isTrue();
    } finally {
      member.close();
    }
    assertThat(member.beatsFailed()).isGreaterThanOrEqualTo(5);
  }

  @Test
  void member_ids_differ() {
    assertThat(member().member()).isNotEqualTo(member().member());
  }

  /** A demand hook that records what it heard and what it missed. */
  private static final class Heard implements Registry.Demand {
    final List<Registry.Snapshot> snapshots = new ArrayList<>();
    int missed;

    @Override
    public String published() {
      return "12.5 100";
    }

    @Override
    public void missed() {
      missed++;
    }

    @Override
    public void heard(Registry.Snapshot snapshot) {
      snapshots.add(snapshot);
    }
  }

  @Test
  void beat_withDemand_publishesInTheHashAndHearsEveryMember() {
    Heard heard = new Heard();
    Registry first = new Registry("t", link, health, Duration.ofSeconds(1), Duration.ofSeconds(5),
        heard);
    link.hashes.computeIfAbsent("sluice:t:demand", k -> new java.util.HashMap<>())
        .put("other", "40 60");
    first.beat();

    assertThat(link.hashes.get("sluice:t:demand")).containsEntry(first.member(), "12.5 100");
    Registry.Snapshot snapshot = heard.snapshots.get(0);
    assertThat(snapshot.self()).isEqualTo(first.member());
    assertThat(snapshot.live()).isEqualTo(1);
    assertThat(snapshot.members()).containsEntry("other", new Registry.Published(40, 60))
        .containsEntry(first.member(), new Registry.Published(12.5, 100));
  }

  @Test
  void beat_withDemand_redisDown_missedNotHeard_andCloseLeavesATombstone() {
    Heard heard = new Heard();
    Registry first = new Registry("t", link, health, Duration.ofSeconds(1), Duration.ofSeconds(5),
        heard).start();
    assertThat(heard.snapshots).hasSize(1);
    link.down = true;
    first.beat();
    assertThat(heard.missed).isEqualTo(1);
    assertThat(heard.snapshots).hasSize(1);
    assertThat(health.isDown()).isTrue();

    link.down = false;
    first.close();
    assertThat(link.hashes.get("sluice:t:demand")).containsEntry(first.member(), "left");
  }

  @Test
  void published_unreadableNumbers_areNaN() {
    assertThat(Registry.Published.parse("x 5")).isEqualTo(new Registry.Published(Double.NaN, 5));
    assertThat(Registry.Published.parse("7").share()).isNaN();
  }
}
