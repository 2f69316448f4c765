package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Priority;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
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
  static final String KEY = "k1-0123456789abcdef0123456789abcdef";
  static final String OTHER_KEY = "k2-fedcba9876543210fedcba9876543210";
  private static final ShareKeys KEYS = ShareKeys.of(KEY);
  private final Sharing a = new Sharing("shared", KEYS, 5_000, wall::get);
  private final Sharing b = new Sharing("shared", KEYS, 5_000, wall::get);

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
      a.offer(Store.Slot.holding(result(i, clock.get())));
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
      a.offer(Store.Slot.holding(result(1, clock.get())));
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
    a.offer(Store.Slot.holding(result(1, clock.get())));
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
    assertThat(b.dropped(Sharing.Drop.UNSIGNED)).as("garbage is unsigned").isEqualTo(6);
    assertThat(heardBy(b, message)).as("the same message, right environment").hasSize(1);
    a.offer(Store.Slot.holding(result(2, clock.get())));
    assertThat(a.next(null, clock::get)).as("its environment unknown: not sent").isNull();
    assertThat(a.unshared()).isEqualTo(1);
  }

  @Test
  void aResult_arrivesAsOldAsItWas_plusTheTransitByTheWallClocks() {
    a.offer(Store.Slot.holding(result(1, clock.get() - 1_200 * MS))); // kept 1.2 s ago on a's clock
    String message = a.next(ENV, clock::get);
    wall.addAndGet(30); // 30 ms in transit
    clock.addAndGet(7_777 * MS); // b's clock: its own origin
    Kept heard = heardBy(b, message).get(0);
    assertThat(clock.get() - heard.keptAtNanos()).isEqualTo(1_230 * MS);

    a.offer(Store.Slot.holding(result(2, clock.get())));
    message = a.next(ENV, clock::get);
    wall.addAndGet(-60_000); // b's wall clock a minute behind a's: no negative transit
    assertThat(clock.get() - heardBy(b, message).get(0).keptAtNanos()).isZero();
  }

  @Test
  void heard_keptOnlyWhileLimiting_youngEnough_andNeverOverAYoungerResult() {
    AnswerSettings settings = new AnswerSettings(Duration.ofSeconds(5), Duration.ZERO, 1000,
        1 << 20);
    Answers receiver = Answers.create("shared", settings, clock::get,
        (budget, age, joined) -> new java.sql.SQLWarning(budget + " " + age), 1, KEYS, false);
    receiver.learned(ENV);
    receiver.channelHeard(true);

    // the receiver's wall clock
    Sharing sender = new Sharing("shared", KEYS, 5_000, System::currentTimeMillis);
    sender.offer(Store.Slot.holding(result(1, clock.get() - 1_000 * MS)));
    receiver.heard(sender.next(ENV, clock::get));
    assertThat(receiver.entries()).as("not limiting: nothing kept").isZero();

    receiver.limitingStarted();
    sender.offer(Store.Slot.holding(result(1, clock.get() - 1_000 * MS)));
    sender.offer(Store.Slot.holding(result(2, clock.get() - 5_000 * MS))); // as old as max-age: never answered
    receiver.heard(sender.next(ENV, clock::get));
    assertThat(receiver.entries()).isEqualTo(1);

    sender.offer(Store.Slot.holding(result(1, clock.get() - 3_000 * MS))); // older than the one kept
    receiver.heard(sender.next(ENV, clock::get));
    ReadKey one = result(1, 0).key();
    assertThat(receiver.answer(one, null, Priority.NORMAL)).isNotNull();
    assertThat(receiver.answeredFromOthers()).isEqualTo(1);
    assertThat(receiver.ageMillis(1.0)).as("the younger result answered, plus the transit")
        .isBetween(1_000L, 1_500L);
    assertThat(receiver.summaryNote()).contains("1 from other instances' results");
  }

  private static Answers sharingAnswers(AtomicLong clock) {
    AnswerSettings settings = new AnswerSettings(Duration.ofSeconds(5), Duration.ZERO, 1000,
        1 << 20);
    Answers answers = Answers.create("shared", settings, clock::get,
        (budget, age, joined) -> new java.sql.SQLWarning(budget + " " + age), 1, KEYS, false);
    answers.learned(ENV);
    return answers;
  }

  @Test
  void fences_travelSigned_namesOrEveryTable_heardWhateverTheEnvironment_notByTheirSender() {
    FenceOutbox outbox = new FenceOutbox();
    assertThat(a.fence(outbox, ENV)).as("none waits").isNull();
    outbox.wrote(new String[] {"orders", "\"odd name\""});
    String names = a.fence(outbox, null);
    outbox.wrote(null);
    String all = a.fence(outbox, ENV);
    assertThat(names).startsWith("f1 ");
    List<String[]> fenced = new ArrayList<>();
    assertThat(b.read(names, "another-environment", clock.get(), k -> { }, fenced::add))
        .isNull();
    assertThat(b.read(all, null, clock.get(), k -> { }, fenced::add)).isNull();
    assertThat(fenced.get(0)).containsExactlyInAnyOrder("orders", "\"odd name\"");
    assertThat(fenced.get(1)).as("every table").isNull();
    assertThat(a.read(all, ENV, clock.get(), k -> { }, fenced::add)).as("its own").isNull();
    assertThat(fenced).hasSize(2);
    assertThat(a.fencesSent()).isEqualTo(2);
    assertThat(b.fencesHeard()).isEqualTo(2);
  }

  @Test
  void forgedUnsignedReplayedOrOverAgeFences_areDropped_eachCounted_nothingFenced() {
    FenceOutbox outbox = new FenceOutbox();
    outbox.wrote(new String[] {"orders"});
    String genuine = a.fence(outbox, ENV);
    List<String[]> fenced = new ArrayList<>();
    String altered = withWord(genuine, 6, "*");
    assertThat(b.read(altered, ENV, clock.get(), k -> { }, fenced::add))
        .isEqualTo(Sharing.Drop.BAD_SIGNATURE);
    String unsigned = genuine.substring(0, genuine.lastIndexOf(' '));
    assertThat(b.read(unsigned, ENV, clock.get(), k -> { }, fenced::add))
        .isEqualTo(Sharing.Drop.UNSIGNED);
    assertThat(b.read("f1 * x", ENV, clock.get(), k -> { }, fenced::add))
        .isEqualTo(Sharing.Drop.UNSIGNED);
    Sharing stranger = new Sharing("shared", ShareKeys.of(OTHER_KEY), 5_000, wall::get);
    outbox.wrote(null);
    assertThat(b.read(stranger.fence(outbox, ENV), ENV, clock.get(), k -> { }, fenced::add))
        .isEqualTo(Sharing.Drop.UNKNOWN_KEY);
    assertThat(fenced).isEmpty();
    assertThat(b.read(genuine, ENV, clock.get(), k -> { }, fenced::add)).isNull();
    assertThat(b.read(genuine, ENV, clock.get(), k -> { }, fenced::add))
        .isEqualTo(Sharing.Drop.REPLAYED);
    outbox.wrote(null);
    String late = a.fence(outbox, ENV);
    wall.addAndGet(5_001);
    assertThat(b.read(late, ENV, clock.get(), k -> { }, fenced::add))
        .isEqualTo(Sharing.Drop.EXPIRED);
    assertThat(fenced).hasSize(1);
    assertThat(b.fencesHeard()).isEqualTo(1);
  }

  /**
   * A write on the sender: its fence goes first, the result kept before it is not sent at all;
   * on the receiver the fence (every table: H2's catalog is not read) stops its own result kept
   * before, and the one it heard before, from being answered.
   */
  @Test
  void aWriteOnTheSender_fencesTheReceiversResults_andTheSenderSendsNoneKeptBefore() {
    Answers sender = sharingAnswers(clock);
    Answers receiver = sharingAnswers(clock);
    sender.limitingStarted();
    receiver.limitingStarted();
    receiver.channelHeard(true);
    receiver.kept(result(1, clock.get())); // the receiver's own
    sender.kept(result(2, clock.get()));
    receiver.heard(sender.nextShared()); // heard
    receiver.nextShared(); // the receiver's own went out; nothing else waits there
    sender.kept(result(3, clock.get())); // kept before the write, not yet sent
    clock.addAndGet(MS);
    Session writer = sender.tracker().session(null);
    sender.tracker().started(writer, "UPDATE items SET name = 'uno' WHERE id = 1", null);
    sender.tracker().ended(writer, 0, true, false);

    String first = sender.nextShared();
    assertThat(first).as("the fence goes first").startsWith("f1 ");
    assertThat(sender.nextShared()).as("result 3 was kept before the write: not sent").isNull();
    assertThat(sender.sharedUnsent()).isEqualTo(1);
    ReadKey one = result(1, 0).key();
    ReadKey two = result(2, 0).key();
    assertThat(receiver.answer(one, null, Priority.NORMAL)).isNotNull();
    assertThat(receiver.answer(two, null, Priority.NORMAL)).isNotNull();
    clock.addAndGet(MS);
    assertThat(receiver.heard(first)).isNull();

    assertThat(receiver.answer(one, null, Priority.NORMAL)).as("its own, kept before").isNull();
    assertThat(receiver.answer(two, null, Priority.NORMAL)).as("heard, kept before").isNull();
    assertThat(receiver.sharedFencesHeard()).isEqualTo(1);
    receiver.limitingStopped();
    receiver.kept(result(1, clock.get()));
    String again = withWord(first, 3, "99");
    assertThat(receiver.heard(again)).as("altered: dropped while not limiting too")
        .isEqualTo("bad-signature");
  }

  @Test
  void aHeardResult_isAnsweredOnlyWhileTheChannelIsHeard_andOnlyIfHeardSinceItCameBack() {
    Answers receiver = sharingAnswers(clock);
    receiver.limitingStarted();
    receiver.kept(result(1, clock.get())); // its own
    Sharing sender = new Sharing("shared", KEYS, 5_000, System::currentTimeMillis);
    sender.offer(Store.Slot.holding(result(2, clock.get())));
    ReadKey own = result(1, 0).key();
    ReadKey heard = result(2, 0).key();
    receiver.heard(sender.next(ENV, clock::get)); // before any subscription: not answered
    assertThat(receiver.answer(heard, null, Priority.NORMAL)).isNull();

    receiver.channelHeard(true);
    sender.offer(Store.Slot.holding(result(3, clock.get())));
    receiver.heard(sender.next(ENV, clock::get));
    ReadKey three = result(3, 0).key();
    assertThat(receiver.answer(three, null, Priority.NORMAL)).isNotNull();

    receiver.channelHeard(false); // lost, or silent for ping + timeout
    assertThat(receiver.answer(three, null, Priority.NORMAL)).as("not heard now").isNull();
    assertThat(receiver.answer(own, null, Priority.NORMAL)).as("its own").isNotNull();
    clock.addAndGet(MS);
    receiver.channelHeard(true);
    assertThat(receiver.answer(three, null, Priority.NORMAL))
        .as("heard before the break: a fence sent meanwhile was missed").isNull();
    assertThat(receiver.answer(own, null, Priority.NORMAL)).isNotNull();
  }

  /** Replaces the {@code index}th blank-separated word of a message, keeping the rest. */
  private static String withWord(String message, int index, String word) {
    String[] parts = message.split(" ");
    parts[index] = word;
    return String.join(" ", parts);
  }

  @Test
  void aForgedMessage_isDropped_asBadSignature_andNothingOfItIsHeard() {
    a.offer(Store.Slot.holding(result(1, clock.get())));
    String message = a.next(ENV, clock::get);
    String[] parts = message.split(" ");
    Kept other = result(666, clock.get());
    String forged = withWord(message, 6,
        java.util.Base64.getEncoder().encodeToString(KeptCodec.encode(other, clock.get())));
    assertThat(heardBy(b, forged)).isEmpty();
    assertThat(heardBy(b, withWord(message, 5, Long.toString(wall.get() + 1)))).as("age altered")
        .isEmpty();
    assertThat(heardBy(b, withWord(message, parts.length - 1, "AAAA"))).isEmpty();
    assertThat(b.dropped(Sharing.Drop.BAD_SIGNATURE)).isEqualTo(3);
    assertThat(heardBy(b, message)).as("the genuine message, untouched").hasSize(1);
    assertThat(b.heard()).isEqualTo(1);
  }

  @Test
  void unknownKeys_otherBudgets_replays_andOverAgeMessages_areDropped_eachCounted() {
    Sharing stranger = new Sharing("shared", ShareKeys.of(OTHER_KEY), 5_000, wall::get);
    stranger.offer(Store.Slot.holding(result(1, clock.get())));
    assertThat(heardBy(b, stranger.next(ENV, clock::get))).isEmpty();
    assertThat(b.dropped(Sharing.Drop.UNKNOWN_KEY)).isEqualTo(1);

    Sharing otherBudget = new Sharing("another", KEYS, 5_000, wall::get);
    otherBudget.offer(Store.Slot.holding(result(1, clock.get())));
    assertThat(heardBy(b, otherBudget.next(ENV, clock::get))).as("signed for another channel")
        .isEmpty();
    assertThat(b.dropped(Sharing.Drop.BAD_SIGNATURE)).isEqualTo(1);

    a.offer(Store.Slot.holding(result(1, clock.get())));
    String first = a.next(ENV, clock::get);
    a.offer(Store.Slot.holding(result(2, clock.get())));
    String second = a.next(ENV, clock::get);
    assertThat(heardBy(b, second)).hasSize(1);
    assertThat(heardBy(b, second)).as("the same again").isEmpty();
    assertThat(heardBy(b, first)).as("an earlier sequence, after a later one").isEmpty();
    assertThat(b.dropped(Sharing.Drop.REPLAYED)).isEqualTo(2);

    a.offer(Store.Slot.holding(result(3, clock.get())));
    String late = a.next(ENV, clock::get);
    wall.addAndGet(5_001);
    assertThat(heardBy(b, late)).as("sent 5,001 ms ago, max-age 5 s").isEmpty();
    assertThat(b.dropped(Sharing.Drop.EXPIRED)).isEqualTo(1);
  }

  @Test
  void rotation_theFirstKeySigns_everyKeyVerifies() {
    Sharing rotated = new Sharing("shared", ShareKeys.of(OTHER_KEY + "," + KEY), 5_000,
        wall::get);
    Sharing old = new Sharing("shared", ShareKeys.of(KEY), 5_000, wall::get);
    old.offer(Store.Slot.holding(result(1, clock.get())));
    assertThat(heardBy(rotated, old.next(ENV, clock::get))).as("the old key still verifies")
        .hasSize(1);
    rotated.offer(Store.Slot.holding(result(2, clock.get())));
    String byNewKey = rotated.next(ENV, clock::get);
    assertThat(byNewKey.split(" ")[1]).isEqualTo(ShareKeys.of(OTHER_KEY).signingId());
    assertThat(heardBy(old, byNewKey)).as("an instance without the new key").isEmpty();
    assertThat(old.dropped(Sharing.Drop.UNKNOWN_KEY)).isEqualTo(1);
    Sharing updated = new Sharing("shared", ShareKeys.of(OTHER_KEY), 5_000, wall::get);
    assertThat(heardBy(updated, byNewKey)).hasSize(1);
  }

  @Test
  void sealed_noRowTravelsInClear_andEveryInstanceWithTheKeysOpensIt_whateverItsOwnSetting() {
    Sharing sealing = new Sharing("shared", KEYS, true, 5_000, wall::get);
    Kept kept = result(1, clock.get());
    sealing.offer(Store.Slot.holding(kept));
    String message = sealing.next(ENV, clock::get);
    assertThat(message).startsWith(Sharing.SEALED_VERSION + " ");
    byte[] sql = kept.key().sql().getBytes(StandardCharsets.UTF_8);
    assertThat(contains(KeptCodec.encode(kept, clock.get()), sql))
        .as("the clear encoding carries the text (the check below can fail)").isTrue();
    byte[] sealed = Base64.getDecoder().decode(message.split(" ")[6]);
    assertThat(contains(sealed, sql)).as("the sealed one does not").isFalse();
    assertThat(contains(sealed, "one".getBytes(StandardCharsets.UTF_8)))
        .as("nor the row's value").isFalse();

    assertThat(heardBy(b, message)).as("b does not seal, and opens it")
        .extracting(k -> k.key().sql()).containsExactly(kept.key().sql());
    Sharing rotated = new Sharing("shared", ShareKeys.of(OTHER_KEY + "," + KEY), 5_000,
        wall::get);
    assertThat(heardBy(rotated, message)).as("the old key, second in the list, opens it")
        .hasSize(1);
  }

  @Test
  void aSealedResult_alteredOrMovedToAnotherBudget_andSignedAgain_doesNotOpen() {
    Sharing sealing = new Sharing("shared", KEYS, true, 5_000, wall::get);
    sealing.offer(Store.Slot.holding(result(1, clock.get())));
    String message = sealing.next(ENV, clock::get);
    byte[] sealed = Base64.getDecoder().decode(message.split(" ")[6]);
    sealed[sealed.length / 2] ^= 1;
    String altered = signed("shared", withWord(message, 6,
        Base64.getEncoder().encodeToString(sealed)));
    Sharing another = new Sharing("another", KEYS, true, 5_000, wall::get);
    another.offer(Store.Slot.holding(result(2, clock.get())));
    sealing.offer(Store.Slot.holding(result(3, clock.get())));
    String moved = signed("shared", withWord(sealing.next(ENV, clock::get), 6,
        another.next(ENV, clock::get).split(" ")[6])); // a later sequence: no replay

    assertThat(heardBy(b, altered)).as("a flipped bit: its tag fails").isEmpty();
    assertThat(heardBy(b, moved)).as("sealed for another budget's channel").isEmpty();
    assertThat(b.dropped(Sharing.Drop.UNDECODABLE)).isEqualTo(2);
    assertThat(b.dropped(Sharing.Drop.BAD_SIGNATURE)).as("signed again: only the seal fails")
        .isZero();
  }

  /** {@code message} with its signature made again over what it now says, on {@code budget}. */
  private static String signed(String budget, String message) {
    String text = message.substring(0, message.lastIndexOf(' '));
    return text + ' ' + KEYS.sign("sluice:" + budget + ":answers\n" + text);
  }

  private static boolean contains(byte[] bytes, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= bytes.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (bytes[i + j] != part[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Test
  void keys_areChecked_andNeverShown() {
    assertThat(ShareKeys.problem("short")).isEqualTo("the key has 5 characters, fewer than 32");
    assertThat(ShareKeys.problem(KEY + ",tiny")).isEqualTo(
        "key 2 of 2 has 4 characters, fewer than 32");
    assertThat(ShareKeys.problem(KEY + ", " + KEY)).contains("key 2 of 2 has blanks");
    assertThat(ShareKeys.of(KEY + "," + OTHER_KEY).toString()).doesNotContain(KEY)
        .doesNotContain(OTHER_KEY).matches("share keys \\[[0-9a-f]{8}, [0-9a-f]{8}\\] .*");
  }
}
