package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.answer.ForgedMessages;
import dev.sluice.testing.Await;
import dev.sluice.testing.LogTap;
import dev.sluice.testing.TestRedis;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/**
 * Signed sharing against a real Redis, as an attacker who can {@code PUBLISH} and
 * {@code SUBSCRIBE} on {@code sluice:<name>:answers} would try it: a sniffed message with its
 * values changed, the same re-signed with a key of the attacker's own, stripped of its signature,
 * sent again, or sent as if from long ago. None is answered; each is counted under its reason
 * and said once at WARN. The genuine message is heard once. Two instances of one budget over one
 * H2 database, each on a fake clock (budget 0.01/s, burst 1), as in {@link AnswersSharedTest}.
 * With {@code sluice.stale.share-encrypt}, the spy reads no row of what it hears.
 */
@SuppressWarnings("try")
class AnswersSharedAttackTest {
  private static final String KEY = AnswersSharedTest.KEY;
  private static final String ATTACKER_KEY = "attacker-key-0123456789abcdef01234";
  private static final String NEW_KEY = "new-share-key-0123456789abcdef0123";
  private static final Duration REFILL = Duration.ofSeconds(100);
  private static final Duration DELIVERY = Duration.ofSeconds(10);
  private static TestRedis redis;
  private static int budgets;

  private final BreakerFlag.Manual flag = BreakerFlag.manual();
  private final FakeTicker tickerA = new FakeTicker();
  private final FakeTicker tickerB = new FakeTicker();
  private Connection keepAlive;
  private javax.sql.DataSource h2;
  private String name;
  private final BlockingQueue<String> sniffed = new LinkedBlockingQueue<>();
  private Jedis spy;
  private Thread spyThread;

  @BeforeAll
  static void startRedis() {
    redis = TestRedis.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void database() throws SQLException {
    name = "attacked-" + ++budgets + "-" + ProcessHandle.current().pid();
    String url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    h2 = AnswersSeenTest.plain(url);
    keepAlive = DriverManager.getConnection(url);
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
      s.execute("INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    keepAlive.close();
    if (spy != null) {
      spy.close();
      spyThread.join(TimeUnit.SECONDS.toMillis(10));
    }
  }

  private RateLimitedDataSource instance(FakeTicker ticker, String keys) {
    return instance(ticker, keys, redis.uri());
  }

  private RateLimitedDataSource instance(FakeTicker ticker, String keys, String redisUri) {
    return instance(ticker, keys, redisUri, false);
  }

  private RateLimitedDataSource instance(FakeTicker ticker, String keys, String redisUri,
      boolean encrypt) {
    Properties p = new Properties();
    if (encrypt) {
      p.setProperty("sluice.stale.share-encrypt", "true");
    }
    p.setProperty("sluice.stale.max-age", "30s"); // the wall clocks' age check: far from a slow test
    p.setProperty("sluice.recovery.settle", "0");
    p.setProperty("sluice.redis", redisUri);
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.share-key", keys);
    return RateLimitedDataSource.builder(h2).name(name).budget(0.01).burst(1).breakerFlag(flag)
        .properties(p).ticker(ticker).build();
  }

  /** The attacker's ear on the channel: every message, as Redis delivers it. */
  private void sniff() {
    String channel = "sluice:" + name + ":answers";
    spy = redis.client();
    JedisPubSub ear = new JedisPubSub() {
      @Override
      public void onMessage(String on, String message) {
        sniffed.add(message);
      }
    };
    spyThread = new Thread(() -> spy.subscribe(ear, channel), "spy-" + name);
    spyThread.setDaemon(true);
    spyThread.start();
    try (Jedis look = redis.client()) {
      Await.until("the spy listens", DELIVERY,
          () -> look.pubsubNumSub(channel).get(channel) >= 3);
    }
  }

  private void subscribers(int count) {
    String channel = "sluice:" + name + ":answers";
    try (Jedis look = redis.client()) {
      Await.until(count + " subscribers", DELIVERY,
          () -> look.pubsubNumSub(channel).get(channel) >= count);
    }
  }

  private void publish(String message) {
    try (Jedis attacker = redis.client()) {
      attacker.publish("sluice:" + name + ":answers", message);
    }
  }

  private static void limiting(RateLimitedDataSource ds) throws SQLException {
    AnswersSeenTest.byId(ds, 3);
    assertThatThrownBy(() -> AnswersSeenTest.byId(ds, 3))
        .isInstanceOf(RateLimitExceededException.class);
  }

  private static long dropped(RateLimitedDataSource ds) {
    return Answers.REASONS.stream().mapToLong(r -> ds.stats().sharedDropped(r)).sum();
  }

  /** The reasons, as the stats name them. */
  private static final class Answers {
    static final java.util.List<String> REASONS = dev.sluice.internal.answer.Answers
        .sharedDropReasons();
  }

  @Test
  void encrypted_theSpyReadsNoRow_andAnInstanceThatDoesNotEncryptAnswersFromIt()
      throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, KEY, redis.uri(), true);
        RateLimitedDataSource b = instance(tickerB, KEY)) {
      AnswersSharedTest.hearing(a, b);
      sniff();
      flag.trip();
      limiting(a);
      limiting(b);
      tickerA.advance(REFILL);
      assertThat(AnswersSeenTest.byId(a, 1)).isEqualTo("1:one"); // kept, sealed, sent
      String message = null;
      for (String m = sniffed.poll(10, TimeUnit.SECONDS); m != null && message == null;
          m = sniffed.poll(10, TimeUnit.SECONDS)) {
        message = m.startsWith("f1 ") ? null : m; // a's read of id 3 may have sent a fence
      }
      assertThat(message).as("the spy heard a's result").startsWith("e1 ");
      String[] parts = message.split(" ");
      for (int i = 6; i < parts.length - 1; i++) {
        String opened = new String(java.util.Base64.getDecoder().decode(parts[i]),
            java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(opened).as("a result as the spy decodes it").doesNotContain("one")
            .doesNotContain("ITEMS").doesNotContain("items");
      }

      Await.until("b keeps a's result", DELIVERY, () -> b.stats().answersKept() == 1);
      tickerB.advance(Duration.ofMillis(100));
      assertThat(AnswersSeenTest.byId(b, 1)).as("b does not encrypt, and reads it")
          .startsWith("1:one (");
      assertThat(dropped(b)).isZero();
    }
  }

  @Test
  void forgedUnsignedWronglyKeyedOverAgeAndReplayed_areNeverAnswered_eachCounted()
      throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, KEY);
        RateLimitedDataSource b = instance(tickerB, KEY);
        LogTap log = LogTap.open()) {
      AnswersSharedTest.hearing(a, b);
      sniff();
      flag.trip();
      limiting(a); // b refuses nothing yet: it is not limiting, and ignores what it hears
      tickerA.advance(REFILL);
      assertThat(AnswersSeenTest.byId(a, 1)).isEqualTo("1:one");
      String genuine = null;
      for (String m = sniffed.poll(10, TimeUnit.SECONDS); m != null && genuine == null;
          m = sniffed.poll(10, TimeUnit.SECONDS)) {
        genuine = m.contains(" ") ? m : null;
      }
      assertThat(genuine).as("the spy heard a's result").isNotNull();
      limiting(b);
      long heardBefore = b.stats().sharedHeard();

      String evil = ForgedMessages.altered(genuine, "one", "evil");
      publish(evil); // values changed, a's signature kept
      publish(ForgedMessages.resigned(evil, name, ATTACKER_KEY)); // signed by a key of its own
      publish(ForgedMessages.unsigned(evil)); // as Sluice 0.3 sent it, trusted then
      publish(ForgedMessages.signed(genuine, name, KEY, System.currentTimeMillis() - 31_000,
          1_000_000)); // genuine, as sent 31 s ago (max-age 30 s): sniffed and held back
      Await.until("b counts four drops", DELIVERY, () -> dropped(b) == 4);
      assertThat(b.stats().sharedDropped("bad-signature")).isEqualTo(1);
      assertThat(b.stats().sharedDropped("unknown-key")).isEqualTo(1);
      assertThat(b.stats().sharedDropped("unsigned")).isEqualTo(1);
      assertThat(b.stats().sharedDropped("expired")).isEqualTo(1);
      assertThat(b.stats().sharedHeard()).isEqualTo(heardBefore);
      tickerB.advance(Duration.ofMillis(10));
      assertThatThrownBy(() -> AnswersSeenTest.byId(b, 1)).as("nothing kept for read 1")
          .isInstanceOf(RateLimitExceededException.class);
      assertThat(b.stats().answered()).isZero();

      publish(genuine); // b was not limiting when it came: heard now, once
      Await.until("b hears the genuine one", DELIVERY,
          () -> b.stats().sharedHeard() == heardBefore + 1);
      publish(genuine);
      Await.until("the replay counted", DELIVERY, () -> b.stats().sharedDropped("replayed") == 1);
      assertThat(AnswersSeenTest.byId(b, 1)).startsWith("1:one (");
      assertThat(b.stats().sharedHeard()).isEqualTo(heardBefore + 1);
      Await.until("a counts its three drops", DELIVERY, () -> dropped(a) == 3);
      // once per reason on each instance: a hears the attacker too (its own genuine message and
      // the one re-signed with its key and sender are its own: never counted)
      // each drop is counted, then logged by the subscriber's thread: wait for the last line
      Await.until("a WARN per reason on each instance", DELIVERY,
          () -> log.lines("WARN", "was dropped (").size() >= 8);
      assertThat(log.lines("WARN", "was dropped (")).hasSize(8)
          .noneMatch(line -> line.contains(KEY) || line.contains(ATTACKER_KEY));
      assertThat(a.stats().sharedDropped("expired") + a.stats().sharedDropped("replayed"))
          .isZero();
      assertThat(log.lines("WARN", "was dropped (bad-signature)")).first().asString()
          .contains("check who may PUBLISH");
    }
  }

  /**
   * A write fence (issue 38, item 6) sniffed and forged: another table's with a's signature
   * kept, re-signed with the attacker's key, stripped of its signature, and the genuine
   * one sent again. None fences anything on b: each is counted under its reason, and the result b
   * kept after the genuine fence is still answered.
   */
  @Test
  void forgedUnsignedOrReplayedFences_fenceNothing_eachCounted() throws Exception {
    try (RateLimitedDataSource a = instance(tickerA, KEY);
        RateLimitedDataSource b = instance(tickerB, KEY)) {
      AnswersSharedTest.hearing(a, b);
      sniff();
      flag.trip();
      limiting(a);
      limiting(b);
      tickerA.advance(REFILL);
      try (Connection c = a.getConnection(); Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE items SET name = 'uno' WHERE id = 1");
      }
      String genuine = null;
      for (String m = sniffed.poll(10, TimeUnit.SECONDS); m != null && genuine == null;
          m = sniffed.poll(10, TimeUnit.SECONDS)) {
        genuine = m.startsWith("f1 ") ? m : null;
      }
      assertThat(genuine).as("the spy heard a's fence").isNotNull();
      Await.until("b hears the fence", DELIVERY,
          () -> b.enforcer().answers().sharedFencesHeard() == 1);
      tickerB.advance(REFILL);
      assertThat(AnswersSeenTest.byId(b, 1)).isEqualTo("1:uno"); // kept after the fence
      long before = dropped(b);

      String[] parts = genuine.split(" ");
      assertThat(parts[6]).as("H2's catalog is not read: every table").isEqualTo("*");
      parts[6] = java.util.Base64.getEncoder().encodeToString("other".getBytes(UTF_8));
      publish(String.join(" ", parts)); // another table, a's signature kept
      publish(ForgedMessages.resigned(String.join(" ", parts), name, ATTACKER_KEY));
      publish(genuine.substring(0, genuine.lastIndexOf(' ')) + " *"); // no signature
      publish(genuine);
      Await.until("b counts four drops", DELIVERY, () -> dropped(b) == before + 4);
      assertThat(b.stats().sharedDropped("bad-signature")).isEqualTo(2);
      assertThat(b.stats().sharedDropped("unknown-key")).isEqualTo(1);
      assertThat(b.stats().sharedDropped("replayed")).isEqualTo(1);
      assertThat(b.enforcer().answers().sharedFencesHeard()).isEqualTo(1);
      tickerB.advance(Duration.ofMillis(10));
      assertThat(AnswersSeenTest.byId(b, 1)).isEqualTo("1:uno (10 ms old)");
    }
  }

  @Test
  void rotation_theNewKeySignsOnceFirst_theOldStillVerifiesUntilRemoved() throws Exception {
    try (RateLimitedDataSource rotated = instance(tickerA, NEW_KEY + "," + KEY);
        RateLimitedDataSource old = instance(tickerB, KEY)) {
      AnswersSharedTest.hearing(rotated, old);
      subscribers(2); // pub/sub delivers to whoever listens when a message is sent
      flag.trip();
      limiting(rotated);
      limiting(old);
      tickerA.advance(REFILL);
      tickerB.advance(REFILL);
      AnswersSeenTest.byId(old, 1); // kept and sent with the old key: rotated verifies it
      AnswersSeenTest.byId(rotated, 2); // signed with the new key: old cannot verify it
      Await.until("rotated keeps old's result", DELIVERY,
          () -> rotated.stats().sharedHeard() == 1);
      Await.until("old drops rotated's", DELIVERY,
          () -> old.stats().sharedDropped("unknown-key") >= 1);
      assertThat(old.stats().sharedHeard()).isZero();
    }
  }

  /** The ACL of docs/redis.md for the budget {@code budget}: its keys, its channels, its commands. */
  static String[] aclRecipe(String budget, String password) {
    return new String[] {"on", ">" + password, "resetkeys", "~sluice:" + budget + ":*",
        "resetchannels", "&sluice:" + budget + ":*", "-@all", "+get", "+set", "+del",
        "+publish", "+subscribe", "+ping", "+eval", "+zrem", "+hdel", "+time", "+zadd",
        "+zremrangebyscore", "+pexpire", "+zcard", "+hset", "+hgetall"};
  }

  /**
   * The ACL recipe of docs/redis.md, on a real Redis: instances logged in as the budget's user
   * share their results; that user cannot publish on another budget's channel, nor another
   * budget's user on this one (NOPERM).
   */
  @Test
  void theAclRecipe_confinesABudgetsInstances_toItsOwnKeysAndChannels() throws Exception {
    String user = "sluice-" + name;
    String other = "sluice-other-" + name;
    try (Jedis admin = redis.client()) {
      admin.aclSetUser(user, aclRecipe(name, "pw-" + name));
      admin.aclSetUser(other, aclRecipe("other-" + name, "pw-other"));
    }
    String confined = redis.uri().replace("redis://", "redis://" + user + ":pw-" + name + "@");
    try (RateLimitedDataSource a = instance(tickerA, KEY, confined);
        RateLimitedDataSource b = instance(tickerB, KEY, confined);
        LogTap log = LogTap.open()) {
      AnswersSharedTest.hearing(a, b);
      subscribers(2);
      flag.trip();
      limiting(a);
      limiting(b);
      tickerA.advance(REFILL);
      assertThat(AnswersSeenTest.byId(a, 1)).isEqualTo("1:one");
      Await.until("b hears a through the confined user", DELIVERY,
          () -> b.stats().sharedHeard() == 1);
      tickerB.advance(Duration.ofMillis(5));
      assertThat(AnswersSeenTest.byId(b, 1)).startsWith("1:one (");
      assertThat(log.lines("WARN", "NOPERM")).isEmpty();
    }
    try (Jedis asUser = redis.client()) {
      asUser.auth(user, "pw-" + name);
      assertThatThrownBy(() -> asUser.publish("sluice:other-" + name + ":answers", "x"))
          .hasMessageContaining("NOPERM");
      assertThatThrownBy(() -> asUser.get("sluice:other-" + name + ":breaker"))
          .hasMessageContaining("NOPERM");
    }
    try (Jedis asOther = redis.client()) {
      asOther.auth(other, "pw-other");
      assertThatThrownBy(() -> asOther.publish("sluice:" + name + ":answers", "forged"))
          .hasMessageContaining("NOPERM");
    }
  }

  @Test
  void sharingWithoutAKey_orWithAShortOne_isRefusedAtBuild_neverShowingTheKey() {
    Properties p = new Properties();
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.max-age", "5s");
    p.setProperty("sluice.redis", redis.uri());
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share=true needs sluice.stale.share-key");
    p.setProperty("sluice.stale.share-key", KEY + ",tooShort-secret-9");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share-key must be one or more keys of at least 32")
        .hasMessageContaining("key 2 of 2 has 17 characters")
        .message().doesNotContain("tooShort").doesNotContain(KEY);
    p.setProperty("sluice.stale.share", "false");
    p.setProperty("sluice.stale.share-key", KEY);
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share-key is set, but sluice.stale.share is not")
        .message().doesNotContain(KEY);
    p.remove("sluice.stale.share-key");
    p.setProperty("sluice.stale.share-encrypt", "true");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share-encrypt is set (\"true\"), but"
            + " sluice.stale.share is not");
    p.setProperty("sluice.stale.share", "true");
    p.setProperty("sluice.stale.share-key", KEY);
    p.setProperty("sluice.stale.share-encrypt", "yes");
    assertThatThrownBy(() -> RateLimitedDataSource.builder(h2).name(name).budget(10)
        .properties(p).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.stale.share-encrypt must be `true` or `false`")
        .hasMessageContaining("yes");
  }
}
