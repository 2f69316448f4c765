package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.FlagState;
import dev.sluice.internal.config.Unreachable;
import dev.sluice.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The flag's state machine, stepped by hand on a fake ticker: no threads, no Redis. */
class FlagReaderTest {
  private static final String KEY = "sluice:t:breaker";
  private static final long MS = 1_000_000;
  /** The default: 4 x (refresh + timeout). */
  private static final long UNREACHABLE_AFTER_MS = 1_800;

  private final FakeLink link = new FakeLink();
  private final AtomicLong now = new AtomicLong(1_000 * MS);
  private final RedisHealth health = new RedisHealth("t", "redis://fake", "the test", "test");
  private final List<FlagReader> made = new ArrayList<>();

  private FlagReader reader(Unreachable policy) {
    return reader(policy, link);
  }

  private FlagReader reader(Unreachable policy, RedisLink through) {
    link.millis = () -> now.get() / MS; // Redis' clock for the votes
    FlagReader reader = new FlagReader("t", through, health, new FlagReader.Timing(
        Duration.ofMillis(250), Duration.ofMillis(200), Duration.ofSeconds(1),
        Duration.ofSeconds(1), Duration.ofMillis(UNREACHABLE_AFTER_MS)), policy, now::get);
    made.add(reader);
    return reader;
  }

  @AfterEach
  void closeReaders() {
    made.forEach(FlagReader::close); // stops the writer threads that trip() and reset() start
  }

  private void advance(long millis) {
    now.addAndGet(millis * MS);
  }

  /** Redis fails every read for longer than unreachable-after: an outage, not a late read. */
  private void outage(FlagReader reader) {
    link.down = true;
    reader.poll();
    advance(UNREACHABLE_AFTER_MS + 1);
    reader.poll();
  }

  @Test
  void isOpen_beforeAnyRead_answersOpenAndUnreachable() {
    FlagReader reader = reader(Unreachable.OPEN);
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
  }

  @Test
  void poll_firstAnswerClosed_closesAtOnce() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
    assertThat(reader.state()).isEqualTo(FlagState.CLOSED);
  }

  @Test
  void poll_keySaysOpen_opens() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    link.strings.put(KEY, "open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.OPEN);
  }

  @Test
  void poll_keySaysClosedOtherwise_staysClosed() {
    FlagReader reader = reader(Unreachable.OPEN);
    for (String closed : List.of("closed", "CLOSED", "false", "0", "off", "no", "")) {
      link.strings.put(KEY, closed);
      reader.poll();
      assertThat(reader.isOpen()).as(closed).isFalse();
    }
  }

  @Test
  void poll_keySaysOpenInAnotherSpelling_staysClosedAsTheProtocolSays() {
    for (String odd : List.of("OPEN", "Open", "true", "1", "on", "yes", " open ", "OPEN please")) {
      FlagReader reader = reader(Unreachable.OPEN);
      link.strings.put(KEY, odd);
      reader.poll();
      assertThat(reader.isOpen()).as(odd).isFalse();
      assertThat(reader.state()).isEqualTo(FlagState.CLOSED);
    }
  }

  @Test
  void poll_redisFailsLongerThanUnreachableAfter_opensAndReportsUnreachable() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    outage(reader);
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
    assertThat(health.isDown()).isTrue();
  }

  /**
   * Issue 36, item 2: on a busy CPU one read took 0.5 to 1.1 s with a 200 ms timeout, each was
   * taken for an outage, and the flag flipped open (and the log said "unreachable", then "serves
   * again") dozens of times a run. A read that fails within unreachable-after of the last
   * successful one keeps the last value, logs nothing, and reports no outage.
   */
  @Test
  void poll_readsFailWithinUnreachableAfter_keepTheLastValueQuietly() {
    FlagReader reader = reader(Unreachable.OPEN);
    long read = now.get();
    reader.poll();
    link.down = true;
    for (long at = 0; at < UNREACHABLE_AFTER_MS; at += 250) {
      now.set(read + at * MS);
      reader.poll();
      reader.checkStale();
      assertThat(reader.isOpen()).as("%d ms after the last read", at).isFalse();
      assertThat(reader.state()).isEqualTo(FlagState.CLOSED);
    }
    now.set(read + UNREACHABLE_AFTER_MS * MS); // exactly the bound: still a late read
    reader.poll();
    reader.checkStale();
    assertThat(reader.isOpen()).isFalse();
    assertThat(health.isDown()).as("no WARN for a late read").isFalse();
    advance(1);
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
    assertThat(health.isDown()).isTrue();
  }

  @Test
  void poll_readFailsOnceBetweenAnswers_neverFlips() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    for (int i = 0; i < 40; i++) { // a late read every other refresh, for 20 s
      link.down = i % 2 == 0;
      reader.poll();
      reader.checkStale();
      assertThat(reader.isOpen()).as("refresh %d", i).isFalse();
      advance(i % 2 == 0 ? 1_100 : 250);
    }
    assertThat(health.isDown()).isFalse();
  }

  @Test
  void poll_keyOpenThenReadsFail_staysOpenAsTheKeySaid() {
    FlagReader reader = reader(Unreachable.CLOSED);
    link.strings.put(KEY, "open");
    reader.poll();
    link.down = true;
    advance(UNREACHABLE_AFTER_MS);
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.OPEN);
  }

  @Test
  void openWasPresumed_outageOpensTheFlag_isTrueUntilTheBreakerSaysOpen() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    outage(reader);
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.openWasPresumed()).isTrue();
    link.down = false;
    advance(100);
    reader.poll();
    advance(1_000);
    reader.poll(); // settled: the key says closed
    assertThat(reader.isOpen()).isFalse();
    assertThat(reader.openWasPresumed()).as("kept for the spell that just ended").isTrue();

    outage(reader);
    link.down = false;
    link.strings.put(KEY, "open"); // the breaker did open meanwhile
    reader.poll();
    assertThat(reader.openWasPresumed()).isFalse();
  }

  @Test
  void openWasPresumed_keyOpenBeforeTheOutage_isFalse() {
    FlagReader reader = reader(Unreachable.OPEN);
    link.strings.put(KEY, "open");
    reader.poll();
    outage(reader);
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.openWasPresumed()).isFalse();
  }

  @Test
  void openWasPresumed_tripOrOpenMessageDuringTheOutage_isFalse() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    outage(reader);
    reader.heard("open");
    assertThat(reader.openWasPresumed()).isFalse();

    FlagReader tripped = reader(Unreachable.OPEN);
    link.down = false;
    tripped.poll();
    outage(tripped);
    assertThat(tripped.openWasPresumed()).isTrue();
    tripped.trip(Duration.ofSeconds(5));
    assertThat(tripped.openWasPresumed()).isFalse();
  }

  @Test
  void poll_redisFailsUnderClosedPolicy_closes() {
    FlagReader reader = reader(Unreachable.CLOSED);
    link.strings.put(KEY, "open");
    reader.poll();
    outage(reader);
    assertThat(reader.isOpen()).isFalse();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
  }

  @Test
  void poll_redisFailsUnderLastPolicy_keepsLastValue() {
    FlagReader closedThen = reader(Unreachable.LAST);
    closedThen.poll();
    outage(closedThen);
    assertThat(closedThen.isOpen()).isFalse();

    link.down = false;
    link.strings.put(KEY, "open");
    FlagReader openThen = reader(Unreachable.LAST);
    openThen.poll();
    outage(openThen);
    assertThat(openThen.isOpen()).isTrue();
  }

  @Test
  void poll_lastPolicyNeverRead_answersOpen() {
    link.down = true;
    FlagReader reader = reader(Unreachable.LAST);
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void poll_afterOutageKeyClosed_closesOnlyAfterSettle() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    outage(reader);
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
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    outage(reader);
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
    FlagReader reader = reader(Unreachable.CLOSED);
    reader.poll();
    outage(reader);
    assertThat(reader.isOpen()).isFalse();
    link.down = false;
    link.strings.put(KEY, "open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void checkStale_noReadForUnreachableAfter_opens() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    advance(UNREACHABLE_AFTER_MS);
    reader.checkStale();
    assertThat(reader.isOpen()).isFalse();
    advance(1);
    reader.checkStale();
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.UNREACHABLE);
  }

  @Test
  void sinceLastRead_countsFromTheLastSuccessfulReadsStart() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    advance(300);
    link.down = true;
    reader.poll();
    assertThat(reader.sinceLastRead()).isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void heard_openMessage_opensAtOnce() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    reader.heard("open");
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.state()).isEqualTo(FlagState.OPEN);
  }

  @Test
  void heard_closedMessageWhileKeySaysOpen_staysOpen() {
    FlagReader reader = reader(Unreachable.OPEN);
    link.strings.put(KEY, "open");
    reader.poll();
    reader.heard("closed"); // a hint only: not started, so no read is even queued
    assertThat(reader.isOpen()).isTrue();
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void heard_closedMessageAfterDelete_closesOnTheRead() {
    FlagReader reader = reader(Unreachable.OPEN);
    link.strings.put(KEY, "open");
    reader.poll();
    link.strings.remove(KEY);
    reader.heard("closed");
    reader.poll(); // the read the message asks for
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void poll_startedBeforeTrip_staleClosedNotApplied() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    link.duringGet = () -> reader.trip(Duration.ofSeconds(5)); // the read saw no key
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
    assertThat(link.value(KEY)).isEqualTo("open");
  }

  @Test
  void poll_whileOwnTripIsUnwritten_closedKeyNotApplied() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    link.writesDown = true; // Redis answers reads, refuses the trip's SET
    assertThat(reader.trip(Duration.ofSeconds(5))).isFalse();
    reader.poll();
    advance(2_000); // past the settle time, within the trip
    reader.poll(); // the key says closed only because the trip is not written yet
    assertThat(reader.isOpen()).isTrue();
    advance(3_000);
    reader.poll(); // the trip is over: the key is the truth again
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void poll_readsBetweenTripAndItsWrite_staleClosedNotApplied() throws Exception {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    link.beforeWrite = () -> {
      writing.countDown();
      try {
        release.await(); // the SET on its way: not in Redis yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Thread app = new Thread(() -> reader.trip(Duration.ofMinutes(1)), "test-trip");
    app.start();
    assertThat(writing.await(5, TimeUnit.SECONDS)).isTrue();
    reader.poll(); // started after the trip, read before its SET: the key is still absent
    assertThat(reader.isOpen()).isTrue();
    link.beforeWrite = () -> {};
    release.countDown();
    app.join(5_000);
    Await.until("the trip written", Duration.ofSeconds(3), () -> link.value(KEY) != null);
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void poll_messageArrivesDuringRead_staleResultDropped() {
    FlagReader reader = reader(Unreachable.OPEN);
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
    FlagReader reader = reader(Unreachable.CLOSED);
    reader.poll();
    link.down = true;
    assertThat(reader.trip(Duration.ofSeconds(5))).isFalse();
    assertThat(reader.isOpen()).isTrue();
  }

  @Test
  void tripThenReset_writeKeyAndFollowLocally() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    assertThat(reader.trip(Duration.ofSeconds(5))).isTrue();
    assertThat(link.value(KEY)).isEqualTo("open");
    assertThat(reader.isOpen()).isTrue();
    assertThat(reader.reset()).isTrue();
    assertThat(link.value(KEY)).isNull();
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void tripThenReset_bothFailed_resetWinsWhenRedisAnswers() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    link.down = true;
    assertThat(reader.trip(Duration.ofMinutes(5))).isFalse();
    assertThat(reader.reset()).isFalse();
    link.strings.put(KEY, "open"); // the trip's SET, buffered in a frozen Redis, ran on resume
    link.down = false;
    Await.until("the reset written again", Duration.ofSeconds(3), () -> link.value(KEY) == null);
    reader.poll();
    assertThat(reader.isOpen()).isFalse();
  }

  @Test
  void trip_writtenLate_expiryCountsFromTheCall() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    link.down = true;
    assertThat(reader.trip(Duration.ofSeconds(10))).isFalse();
    advance(4_000);
    link.down = false;
    Await.until("the trip written again", Duration.ofSeconds(3), () -> link.ttl(KEY) != null);
    assertThat(link.ttl(KEY)).isEqualTo(Duration.ofSeconds(6));
  }

  @Test
  void trip_writtenAfterItsExpiry_deletesTheKey() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    link.down = true;
    assertThat(reader.trip(Duration.ofSeconds(10))).isFalse();
    advance(10_000);
    link.strings.put(KEY, "open"); // a buffered SET ran on resume, with the whole expiry
    link.down = false;
    Await.until("the expired trip written as a delete", Duration.ofSeconds(3),
        () -> link.value(KEY) == null);
  }

  @Test
  void tripAndReset_redisStuck_blockAtMostTheTimeout() throws Exception {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    CountDownLatch release = new CountDownLatch(1);
    link.beforeWrite = () -> {
      try {
        release.await(); // a write that never ends: a pool wait, a connect, a Sentinel lookup
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    long start = System.nanoTime();
    assertThat(reader.trip(Duration.ofMinutes(5))).isFalse();
    assertThat(reader.reset()).isFalse();
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(tookMillis).isGreaterThanOrEqualTo(400).isLessThan(1_000); // 2 x 200 ms
    link.beforeWrite = () -> {};
    release.countDown();
    Await.until("the reset written last", Duration.ofSeconds(3),
        () -> link.value(KEY) == null && link.writes == 2);
  }

  @Test
  void trip_ttlOfAThousandYears_isTakenWithoutOverflow() {
    FlagReader reader = reader(Unreachable.OPEN);
    reader.poll();
    assertThat(reader.trip(Duration.ofDays(365_000))).isTrue();
    assertThat(link.value(KEY)).isEqualTo("open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }

  /**
   * Issue 36, item 3: with every instance publishing its own breaker, one breaker closing set the
   * fleet's flag closed while another's was still open (3 runs of 4). The flag is open while any
   * instance's breaker votes open, and closes when none does.
   */
  @Test
  void reset_anotherInstancesBreakerStillOpen_keyStaysOpenUntilItResetsToo() {
    FlagReader a = reader(Unreachable.OPEN);
    FlagReader b = reader(Unreachable.OPEN);
    a.poll();
    b.poll();
    assertThat(a.trip(Duration.ofMinutes(1))).isTrue();
    assertThat(b.trip(Duration.ofMinutes(1))).isTrue();
    assertThat(a.reset()).isTrue();
    assertThat(link.value(KEY)).as("b's breaker is still open").isEqualTo("open");
    assertThat(a.isOpen()).as("a follows the key").isTrue();
    a.poll();
    assertThat(a.isOpen()).isTrue();
    assertThat(b.reset()).isTrue();
    assertThat(link.value(KEY)).isNull();
    a.poll();
    assertThat(a.isOpen()).isFalse();
    assertThat(b.isOpen()).isFalse();
  }

  @Test
  void reset_theOtherVoteExpires_keyLivesAsLongAsTheLongestVote() {
    FlagReader a = reader(Unreachable.OPEN);
    FlagReader b = reader(Unreachable.OPEN);
    assertThat(a.trip(Duration.ofSeconds(10))).isTrue();
    assertThat(link.ttl(KEY)).isEqualTo(Duration.ofSeconds(10));
    advance(2_000);
    assertThat(b.trip(Duration.ofSeconds(5))).isTrue();
    assertThat(link.ttl(KEY)).as("a's vote lives longer").isEqualTo(Duration.ofSeconds(8));
    assertThat(b.reset()).isTrue();
    assertThat(link.value(KEY)).isEqualTo("open");
    advance(8_000); // a's vote has expired: a reset of b now finds no live vote
    assertThat(b.reset()).isTrue();
    assertThat(link.value(KEY)).isNull();
  }

  @Test
  void reset_aTripVotesBetweenTheVoteAndTheDelete_keySetOpenAgain() {
    FlagReader b = reader(Unreachable.OPEN);
    AtomicLong deletes = new AtomicLong();
    RedisLink racing = new DelegatingLink(link) {
      @Override
      public void deleteAndPublish(String key, String channel, String message) {
        if (deletes.getAndIncrement() == 0) {
          b.trip(Duration.ofMinutes(1)); // voted after a's withdrawal, set before a's delete
        }
        super.deleteAndPublish(key, channel, message);
      }
    };
    FlagReader a = reader(Unreachable.OPEN, racing);
    assertThat(a.trip(Duration.ofMinutes(1))).isTrue();
    assertThat(a.reset()).isTrue();
    assertThat(link.value(KEY)).as("b's breaker opened meanwhile").isEqualTo("open");
  }

  /**
   * Issue 36, item 3: "Redis did not take the circuit breaker's move to CLOSED", and the key said
   * open until its expiry. A reset Redis did not take is written again until it lands, and given
   * up once the vote it withdraws has expired in Redis on its own.
   */
  @Test
  void reset_notTaken_isWrittenAgainUntilItLandsOrItsVoteExpires() {
    FlagReader reader = reader(Unreachable.OPEN);
    assertThat(reader.trip(Duration.ofSeconds(10))).isTrue();
    link.down = true;
    assertThat(reader.reset()).isFalse();
    link.down = false;
    Await.until("the reset written again and taken", Duration.ofSeconds(3),
        () -> link.value(KEY) == null && !reader.writePending());

    assertThat(reader.trip(Duration.ofSeconds(10))).isTrue();
    link.down = true;
    assertThat(reader.reset()).isFalse();
    assertThat(reader.writePending()).isTrue();
    advance(10_000); // the vote has expired in Redis: nothing left to withdraw
    Await.until("the reset given up", Duration.ofSeconds(3), () -> !reader.writePending());
  }

  /**
   * Issue 36, item 5: the starter publishes the breaker through a flag of its own; the data
   * source's flag in the same JVM waited for the message or the next read while the breaker beside
   * it was open. A trip opens every reader of the same Redis and key in this JVM at once, also when
   * Redis does not take it.
   */
  @Test
  void trip_anotherReaderOfTheSameFlagInThisJvm_opensAtOnce() {
    FlagReader dataSources = reader(Unreachable.OPEN);
    FlagReader publisher = reader(Unreachable.OPEN);
    dataSources.poll();
    publisher.poll();
    link.down = true;
    assertThat(publisher.trip(Duration.ofMinutes(1))).isFalse();
    assertThat(dataSources.isOpen()).as("without a read or a message").isTrue();
    assertThat(dataSources.openWasPresumed()).isFalse();
  }

  @Test
  void trip_aReaderOfAnotherKey_staysClosed() {
    FlagReader other = new FlagReader("other", link, health, new FlagReader.Timing(
        Duration.ofMillis(250), Duration.ofMillis(200), Duration.ofSeconds(1),
        Duration.ofSeconds(1), Duration.ofMillis(UNREACHABLE_AFTER_MS)), Unreachable.OPEN,
        now::get);
    made.add(other);
    other.poll();
    reader(Unreachable.OPEN).trip(Duration.ofMinutes(1));
    assertThat(other.isOpen()).isFalse();
  }

  @Test
  void reset_pendingThenTrip_tripWins() {
    FlagReader reader = reader(Unreachable.OPEN);
    link.strings.put(KEY, "open");
    reader.poll();
    link.down = true;
    assertThat(reader.reset()).isFalse();
    assertThat(reader.trip(Duration.ofMinutes(1))).isFalse();
    link.down = false;
    Await.until("the trip written", Duration.ofSeconds(3), () -> link.ttl(KEY) != null);
    assertThat(link.value(KEY)).isEqualTo("open");
    reader.poll();
    assertThat(reader.isOpen()).isTrue();
  }
}
