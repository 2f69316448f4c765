package dev.sluice.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Await;
import dev.sluice.testing.LogTap;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * {@link ResultChannel} over a {@link FakeLink}: what is queued is sent on the budget's channel,
 * what Redis does not take is dropped, not retried, and the operator reads one WARN when sharing
 * stops and one INFO when it is back, not a line per message. Real Redis: {@code
 * AnswersSharedTest}.
 */
class ResultChannelTest {
  private static final Duration SOON = Duration.ofSeconds(10);

  @Test
  void sends_dropsWhatRedisRefuses_andSaysOnceWhenSharingStopsAndOnceWhenItIsBack() {
    FakeLink link = new FakeLink();
    Queue<String> outbox = new ConcurrentLinkedQueue<>();
    Runnable[] warmed = {null};
    try (LogTap log = LogTap.open();
        ResultChannel channel = ResultChannel.start("orders", link, Duration.ofMillis(100),
            Duration.ofMillis(100), () -> warmed[0] = () -> {}, outbox::poll, m -> null)) {
      outbox.add("first");
      Await.until("sent", SOON, () -> link.sent.size() == 1);
      assertThat(link.sent).containsExactly("sluice:orders:answers first");
      assertThat(warmed[0]).as("the warm-up ran first").isNotNull();

      link.down = true;
      outbox.add("lost-1");
      outbox.add("lost-2");
      Await.until("dropped", SOON, outbox::isEmpty);
      outbox.add("lost-3");
      Await.until("dropped again", SOON, () -> channel.lost() == 3);
      assertThat(log.lines("WARN", "kept results are not shared")).hasSize(1).first().asString()
          .contains("orders - kept results are not shared with the other instances: Redis did"
              + " not take them on sluice:orders:answers (fake Redis is down); each instance"
              + " answers from its own reads until it does");

      link.down = false;
      outbox.add("second");
      Await.until("sent again", SOON, () -> link.sent.size() == 2);
      assertThat(link.sent).containsExactly("sluice:orders:answers first",
          "sluice:orders:answers second");
      // the INFO follows the send that succeeded: wait for it, not for the send
      Await.until("said so", SOON, () -> !log.lines("INFO", "shared again").isEmpty());
      assertThat(log.lines("INFO", "shared again")).hasSize(1).first().asString()
          .contains("kept results are shared again on sluice:orders:answers (3 message(s) not"
              + " sent meanwhile)");
      assertThat(log.lines("WARN", "kept results are not shared")).hasSize(1);
    }
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("sluice-answers-") && t.getName().contains("orders"));
  }
}
