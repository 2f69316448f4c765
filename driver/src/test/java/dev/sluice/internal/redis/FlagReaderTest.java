package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.FlagState;
import dev.sluice.RedisBreakerFlag.WhenUnreachable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The flag's state machine, stepped by hand on a fake ticker: no threads, no Redis. */
class FlagReaderTest {
  private static final String KEY = "sluice:t:breaker";
  private static final long MS = 1_000_000;

  private final FakeLink link = new FakeLink();
  private final AtomicLong now = new AtomicLong(1_000 * MS);
  private final RedisHealth health = new RedisHealth("t", "redis://fake", "test");

  private FlagReader reader(WhenUnreachable policy) {
    return new FlagReader("t", link, health, new FlagReader.Timing(Duration.ofMillis(250),
        Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofSeconds(1)), policy, now::get);
  }

  private void advance(long millis) {
    now.addAndGet(millis * MS);
  }

  @Test
  void isOpen_beforeAnyRead_answersOpenAndUnreachable() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
  }

  @Test
  void poll_firstAnswerClosed_closesAtOnce() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
    assertThat(reader.state()).isEqualTo(FlagState.CLOSED);
  }

  @Test
  void poll_keySaysOpen_opens() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    link.strings.put(KEY, "open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.OPEN);
  }

  @Test
  void poll_keySaysAnythingElse_staysClosed() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    link.strings.put(KEY, "OPEN please");
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void poll_redisFails_opensAndReportsUnreachable() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    link.down = true;
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
    assertThat(health.isDown()).isTrue();
  }

  @Test
  void poll_redisFailsUnderClosedPolicy_closes() {
    FlagReader reader = reader(WhenUnreachable.CLOSED);
    link.strings.put(KEY, "open");
    reader.poll();
    link.down = true;
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
  }

  @Test
  void poll_redisFailsUnderLastPolicy_keepsLastValue() {
    FlagReader closedThen = reader(WhenUnreachable.LAST);
    closedThen.poll();
    link.down = true;
    closedThen.poll();
    assertThat(closedThen.isOpen()).isFalse();

    link.down = false;
    link.strings.put(KEY, "open");
    FlagReader openThen = reader(WhenUnreachable.LAST);
    openThen.poll();
    link.down = true;
    openThen.poll();
    assertThat(openThen.isOpen()).isTrue();
  }

  @Test
  void poll_lastPolicyNeverRead_answersOpen() {
    link.down = true;
    FlagReader reader = reader(WhenUnreachable.LAST);
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void poll_afterOutageKeyClosed_closesOnlyAfterSettle() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    link.down = true;
    reader.poll();
    link.down = false;
    advance(100);
    reader.poll(); // Redis answers again: healthy since now
    assertThat(reader.state()).isEqualTo(FlagState.CLOSED);
    assertThat(reader.isOpen()).isTrue();
    advance(999);
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    advance(1);
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void poll_failureDuringSettle_restartsSettle() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    link.down = true;
    reader.poll();
    link.down = false;
    reader.poll();
    advance(800);
    link.down = true;
    reader.poll(); // flaps
    link.down = false;
    advance(100);
    reader.poll();
    advance(900);
    reader.poll();
    assertThat(reader.isOpen()).isTrue(); // 1000 ms since the first outage, 900 since the flap
    advance(100);
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void poll_afterOutageKeyOpen_opensAtOnce() {
    FlagReader reader = reader(WhenUnreachable.CLOSED);
    reader.poll();
    link.down = true;
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
    link.down = false;
    link.strings.put(KEY, "open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void checkStale_noReadForRefreshPlusTimeout_opens() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    advance(450);
    reader.checkStale();
    assertThat(reader.isOpen()).isFalse();
    advance(1);
    reader.checkStale();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
  }

  @Test
  void sinceLastRead_countsFromTheLastSuccessfulReadsStart() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    advance(300);
    link.down = true;
    reader.poll();
    assertThat(reader.sinceLastRead()).isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void heard_openMessage_opensAtOnce() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    reader.heard("open");
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.OPEN);
  }

  @Test
  void heard_closedMessage_closesWhenSettled() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    link.strings.put(KEY, "open");
    reader.poll();
    reader.heard("closed");
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void poll_messageArrivesDuringRead_staleResultDropped() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    link.duringGet = () -> reader.heard("open"); // the read saw the key before the SET
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    link.duringGet = () -> {};
    link.strings.put(KEY, "open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void trip_redisDown_opensLocallyAndReportsFalse() {
    FlagReader reader = reader(WhenUnreachable.CLOSED);
    reader.poll();
    link.down = true;
    assertThat(reader.trip(Duration.ofSeconds(5))).isFalse();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void tripThenReset_writeKeyAndFollowLocally() {
    FlagReader reader = reader(WhenUnreachable.OPEN);
    reader.poll();
    assertThat(reader.trip(Duration.ofSeconds(5))).isTrue();
    assertThat(link.strings).containsEntry(KEY, "open");
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.reset()).isTrue();
    assertThat(link.strings).doesNotContainKey(KEY);
    assertThat(reader.isOpen()).isFalse();
  }
}
