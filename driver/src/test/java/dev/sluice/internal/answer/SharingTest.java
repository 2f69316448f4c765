package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Priority;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link Sharing} and the answers' side of it, without Redis (a message is a string handed from
 * one {@link Sharing} to another; {@code AnswersSharedTest} carries them through a real Redis):
 * batching, the outbox's bound, what is not heard, the age a result arrives with, and that a
 * heard result is kept only while limiting, only while young enough, never over a younger one.
 */
class SharingTest {
  private static final long MS = 1_000_000L;
  private static final String ENV = Sharing.environment("H2 JDBC Driver", "2.3.232");

  private final AtomicLong wall = new AtomicLong(1_000_000);
  private final AtomicLong clock = new AtomicLong(50_000 * MS);
  private final Sharing a = new Sharing(wall::get);
  private final Sharing b = new Sharing(wall::get);

  private static Kept result(int id, long keptAtNanos) {
    return KeptCodec.sample("SELECT id, name FROM items WHERE id = " + id, keptAtNanos);
  }

  private List<Kept> heardBy(Sharing receiver, String message) {
    List<Kept> heard = new ArrayList<>();
    receiver.read(message, ENV, clock.get(), heard::add);
    return heard;
  }

  @Test
  void queuedResults_travelInOneMessage_atMostBatchAtATime() {
    assertThat(a.next(ENV, clock::get)).as("nothing queued").isNull();
    for (int i = 0; i < Sharing.BATCH + 3; i++) {
      a.offer(result(i, clock.get()));
    }
    String first = a.next(ENV, clock::get);
    String second = a.next(ENV, clock::get);
    assertThat(a.next(ENV, clock::get)).isNull();
    assertThat(heardBy(b, first)).hasSize(Sharing.BATCH);
    assertThat(heardBy(b, second)).extracting(k -> k.key().sql())
        .containsExactly("SELECT id, name FROM items WHERE id = 64",
            "SELECT id, name FROM items WHERE id = 65", "SELECT id, name FROM items WHERE id = 66");
    assertThat(a.sent()).isEqualTo(Sharing.BATCH + 3);
    assertThat(b.heard()).isEqualTo(Sharing.BATCH + 3);
  }

  @Test
  void theOutbox_holdsAtMostItsBound_theRestIsNotShared() {
    for (int i = 0; i < Sharing.OUTBOX + 5; i++) {
      a.offer(result(1, clock.get()));
    }
    assertThat(a.unshared()).isEqualTo(5);
    int carried = 0;
    for (String m = a.next(ENV, clock::get); m != null; m = a.next(ENV, clock::get)) {
      carried += heardBy(b, m).size();
    }
    assertThat(carried).isEqualTo(Sharing.OUTBOX);
  }

  @Test
  void ownMessages_otherEnvironments_andGarbage_areNotHeard() {
    a.offer(result(1, clock.get()));
    String message = a.next(ENV, clock::get);
    assertThat(heardBy(a, message)).as("its own").isEmpty();
    List<Kept> other = new ArrayList<>();
    b.read(message, Sharing.environment("H2 JDBC Driver", "2.2.224"), clock.get(), other::add);
    assertThat(other).as("another driver version").isEmpty();
    b.read(message, null, clock.get(), other::add);
    assertThat(other).as("environment not known yet").isEmpty();
    for (String garbage : new String[] {"", "x", "x " + ENV + " 1", "x " + ENV + " soon AAAA",
        "x " + ENV + " 1 !!!", "x " + ENV + " 1 AAAA"}) {
      assertThat(heardBy(b, garbage)).as(garbage).isEmpty();
    }
    assertThat(heardBy(b, message)).as("the same message, right environment").hasSize(1);
    a.offer(result(2, clock.get()));
    assertThat(a.next(null, clock::get)).as("its environment unknown: not sent").isNull();
    assertThat(a.unshared()).isEqualTo(1);
  }

  @Test
  void aResult_arrivesAsOldAsItWas_plusTheTransitByTheWallClocks() {
    a.offer(result(1, clock.get() - 1_200 * MS)); // kept 1.2 s ago on a's clock
    String message = a.next(ENV, clock::get);
    wall.addAndGet(30); // 30 ms in transit
    clock.addAndGet(7_777 * MS); // b's clock: its own origin
    Kept heard = heardBy(b, message).get(0);
    assertThat(clock.get() - heard.keptAtNanos()).isEqualTo(1_230 * MS);

    a.offer(result(2, clock.get()));
    message = a.next(ENV, clock::get);
    wall.addAndGet(-60_000); // b's wall clock a minute behind a's: no negative transit
    assertThat(clock.get() - heardBy(b, message).get(0).keptAtNanos()).isZero();
  }

  @Test
  void heard_keptOnlyWhileLimiting_youngEnough_andNeverOverAYoungerResult() {
    AnswerSettings settings = new AnswerSettings(Duration.ofSeconds(5), Duration.ZERO, 1000,
        1 << 20);
    Answers receiver = Answers.create("shared", settings, clock::get,
        (budget, age, joined) -> new java.sql.SQLWarning(budget + " " + age), 1, true);
    receiver.learned(ENV);

    Sharing sender = new Sharing(System::currentTimeMillis); // the receiver's wall clock
    sender.offer(result(1, clock.get() - 1_000 * MS));
    receiver.heard(sender.next(ENV, clock::get));
    assertThat(receiver.entries()).as("not limiting: nothing kept").isZero();

    receiver.refused(null);
    sender.offer(result(1, clock.get() - 1_000 * MS));
    sender.offer(result(2, clock.get() - 5_000 * MS)); // as old as max-age: never answered
    receiver.heard(sender.next(ENV, clock::get));
    assertThat(receiver.entries()).isEqualTo(1);

    sender.offer(result(1, clock.get() - 3_000 * MS)); // older than the one kept
    receiver.heard(sender.next(ENV, clock::get));
    ReadKey one = result(1, 0).key();
    assertThat(receiver.answer(one, null, Priority.NORMAL)).isNotNull();
    assertThat(receiver.answeredFromOthers()).isEqualTo(1);
    assertThat(receiver.ageMillis(1.0)).as("the younger result answered, plus the transit")
        .isBetween(1_000L, 1_500L);
    assertThat(receiver.summaryNote()).contains("1 from other instances' results");
  }
}
