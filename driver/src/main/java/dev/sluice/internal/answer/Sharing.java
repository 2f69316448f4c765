package dev.sluice.internal.answer;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * This instance's side of sharing kept results with the other instances of its budget
 * ({@code sluice.stale.share}): the results it kept wait here for the sending thread, which
 * encodes them ({@link KeptCodec}); what the others sent is read back into results. Shared, every
 * instance answers from every admitted read of the budget, not only from its own share's.
 *
 * <p>What a receiver keeps from a message:
 * <ul>
 *   <li>only results of an instance whose getters convert values the same way (driver and
 *       version, JVM time zone and locale: {@link #environment}), never its own;
 *   <li>nothing of a message unsigned, signed by an unknown key or wrongly ({@link ShareKeys}),
 *       older than {@code max-age} by the wall clocks, or not above the last sequence heard from
 *       its sender (at most {@value #SENDERS_KEPT} senders remembered); each counted under its
 *       {@link Drop reason}, nothing of it decoded;
 *   <li>with {@code sluice.stale.share-encrypt}, results sealed ({@link ShareKeys#seal}; the
 *       message begins {@value #SEALED_VERSION}), opened after the signature is checked;
 *   <li>a result's age plus the positive transit time, so it is never younger here than there.
 * </ul>
 *
 * <p>A write fence ({@link Fences}) travels in a message of its own, signed and checked as results
 * are, and applied whatever the receiver's environment and also while it is not limiting
 * ({@link Tracker#fenceHeard}). A fence goes before the results of its tick, and a result this
 * instance's own fences exclude is never sent ({@link #next(String, LongSupplier, Predicate)}).
 *
 * <p>This class is threadsafe and takes no lock; {@link #offer} is the only method a request
 * calls. The long form: docs/answers.md#sharing-kept-results-between-instances; the messages and
 * keys: docs/redis.md#signed-messages-and-key-rotation.
 */
final class Sharing {
  /** The most kept results waiting to be sent; more are not shared. */
  static final int OUTBOX = 1024;
  /** The most results one message carries. */
  static final int BATCH = 64;
  /** The most senders whose last sequence is remembered; more are forgotten, oldest first. */
  static final int SENDERS_KEPT = 4096;
  /** The format's first word. */
  static final String VERSION = "s1";
  /** The first word of a message whose results are sealed ({@code sluice.stale.share-encrypt}). */
  static final String SEALED_VERSION = "e1";
  /** The first word of a message of write fences. */
  static final String FENCE_VERSION = "f1";
  /** A fence of every table, in a message of fences. */
  private static final String EVERY_TABLE = "*";
  /** A longer transit (a wall clock far off) counts as this long: older than any max-age. */
  private static final long MAX_TRANSIT_MILLIS = 86_400_000L;
  /** How long past max-age a sender's last sequence is remembered: a generous clock skew. */
  private static final long SKEW_MILLIS = 60_000L;

  /** Why a message heard was dropped, counted: a word per reason, as the stats name it. */
  enum Drop {
    /** Not a signed message of this format: from an older Sluice, or not from Sluice. */
    UNSIGNED("unsigned"),
    /** Signed by a key this instance does not have. */
    UNKNOWN_KEY("unknown-key"),
    /** The signature does not match: forged, or altered on the way. */
    BAD_SIGNATURE("bad-signature"),
    /** Sent longer than {@code max-age} ago by the wall clocks. */
    EXPIRED("expired"),
    /** A sequence at or below the last one heard from its sender. */
    REPLAYED("replayed"),
    /** From an instance whose getters convert values otherwise (driver, version, zone, locale). */
    ENVIRONMENT("environment"),
    /** A signed result that does not decode (a counted result, not a message). */
    UNDECODABLE("undecodable");

    private final String word;

    Drop(String word) {
      this.word = word;
    }

    /** The reason's word, as in the stats and the meters. */
    String word() {
      return word;
    }
  }

  /** The slots of the results to send: a result the store lets go meanwhile is not sent. */
  private final ConcurrentLinkedQueue<Store.Slot> outbox = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final String sender = Long.toHexString(ThreadLocalRandom.current().nextLong() | 1L);
  private final AtomicLong sequence = new AtomicLong();
  private final String channel;
  private final ShareKeys keys;
  /** Whether this instance seals the results it sends. */
  private final boolean seal;
  /** What a sealed result is bound to: this budget's channel. */
  private final byte[] bound;
  private final long maxAgeMillis;
  private final LongSupplier wallMillis;
  /** Each sender heard from: the last sequence, and when it was heard (this wall clock). */
  private final Map<String, long[]> senders = new ConcurrentHashMap<>();
  private final LongAdder sent = new LongAdder();
  private final LongAdder fencesSent = new LongAdder();
  private final LongAdder fencesHeard = new LongAdder();
  private final LongAdder heard = new LongAdder();
  private final LongAdder unshared = new LongAdder();
  private final LongAdder[] dropped = new LongAdder[Drop.values().length];

  /**
   * @param budgetName the budget's {@code sluice.name}: the channel's name is signed with each
   *     message, so a message of one budget is no message of another sharing the keys
   * @param keys the keys that sign and verify
   * @param maxAgeMillis {@code sluice.stale.max-age}: an older message is dropped
   * @param wallMillis the wall clock, as {@code System::currentTimeMillis}
   */
  Sharing(String budgetName, ShareKeys keys, long maxAgeMillis, LongSupplier wallMillis) {
    this(budgetName, keys, false, maxAgeMillis, wallMillis);
  }

  /**
   * As {@link #Sharing(String, ShareKeys, long, LongSupplier)}, sealing each result sent when
   * {@code seal} ({@code sluice.stale.share-encrypt}).
   */
  Sharing(String budgetName, ShareKeys keys, boolean seal, long maxAgeMillis,
      LongSupplier wallMillis) {
    this.channel = "sluice:" + budgetName + ":answers";
    this.keys = keys;
    this.seal = seal;
    this.bound = channel.getBytes(StandardCharsets.UTF_8);
    this.maxAgeMillis = maxAgeMillis;
    this.wallMillis = wallMillis;
    for (int i = 0; i < dropped.length; i++) {
      dropped[i] = new LongAdder();
    }
  }

  /**
   * Queues a result this instance kept, unless {@value #OUTBOX} already wait. The outbox holds
   * the result's slot in the store: a result evicted before it is sent is let go, not kept
   * reachable here beyond {@code sluice.stale.memory}, and is not sent.
   */
  void offer(Store.Slot kept) {
    if (queued.incrementAndGet() > OUTBOX) {
      queued.decrementAndGet();
      unshared.increment();
      return;
    }
    outbox.add(kept);
  }

  /**
   * The next message to send: the queued results, encoded, at most {@value #BATCH} of them, and
   * signed; or {@code null} when none is queued. One message for many: limiting starts with a
   * burst of results on a machine whose CPUs are busiest then, and a round trip per result left
   * them waiting a quarter of a second in the drill's first second.
   *
   * <p>The text: {@code s1 <key id> <sender> <sequence> <environment> <wall ms> <result>...
   * <signature>}, each result Base64, the signature over all before it and the channel's name.
   *
   * @param environment this instance's {@link #environment}; {@code null} while unknown
   * @param nanoTime the answers' clock, read as each result is encoded
   */
  String next(String environment, LongSupplier nanoTime) {
    return next(environment, nanoTime, kept -> true);
  }

  /**
   * As {@link #next(String, LongSupplier)}, sending only the results {@code unfenced} admits:
   * this instance's fences, so that a result kept before a write here is not sent after the
   * write's fence (it would reach the others after the fence, and be answered there).
   */
  String next(String environment, LongSupplier nanoTime, Predicate<Kept> unfenced) {
    StringBuilder message = null;
    int results = 0;
    for (Kept kept = poll(); kept != null; kept = results < BATCH ? poll() : null) {
      byte[] encoded = environment == null || !unfenced.test(kept) ? null
          : KeptCodec.encode(kept, nanoTime.getAsLong());
      if (encoded == null) {
        unshared.increment();
        continue;
      }
      if (seal) {
        encoded = keys.seal(encoded, bound);
      }
      if (message == null) {
        message = new StringBuilder(128 + encoded.length * 4 / 3)
            .append(seal ? SEALED_VERSION : VERSION).append(' ')
            .append(keys.signingId()).append(' ').append(sender).append(' ')
            .append(sequence.incrementAndGet()).append(' ').append(environment).append(' ')
            .append(wallMillis.getAsLong());
      }
      message.append(' ').append(Base64.getEncoder().encodeToString(encoded));
      sent.increment();
      results++;
    }
    if (message == null) {
      return null;
    }
    String signed = message.toString();
    return signed + ' ' + keys.sign(channel + '\n' + signed);
  }

  /**
   * The message of the fences {@code outbox} holds, signed; {@code null} when none waits.
   *
   * @param outbox this instance's fences waiting to travel
   * @param environment this instance's {@link #environment}; {@code null} while unknown (a
   *     fence is heard whatever the receiver's)
   */
  String fence(FenceOutbox outbox, String environment) {
    String[] tables = outbox.take();
    if (tables == null) {
      return null;
    }
    StringBuilder message = new StringBuilder(96).append(FENCE_VERSION).append(' ')
        .append(keys.signingId()).append(' ').append(sender).append(' ')
        .append(sequence.incrementAndGet()).append(' ')
        .append(environment == null ? "-" : environment).append(' ')
        .append(wallMillis.getAsLong());
    if (tables == FenceOutbox.ALL) {
      message.append(' ').append(EVERY_TABLE);
    }
    for (String table : tables) {
      message.append(' ').append(Base64.getEncoder().encodeToString(
          table.getBytes(StandardCharsets.UTF_8)));
    }
    fencesSent.increment();
    String signed = message.toString();
    return signed + ' ' + keys.sign(channel + '\n' + signed);
  }

  /** Whether {@code message} is one of fences (not yet checked). */
  static boolean isFence(String message) {
    return message.startsWith(FENCE_VERSION + ' ');
  }

  /** The next result queued and still kept; those let go meanwhile count as not shared. */
  private Kept poll() {
    for (Store.Slot slot = outbox.poll(); slot != null; slot = outbox.poll()) {
      queued.decrementAndGet();
      Kept kept = slot.kept();
      if (kept != null) {
        return kept;
      }
      unshared.increment();
    }
    return null;
  }

  /**
   * Hands each result a message carries to {@code into}, as old as it is here, if the message
   * is signed by a known key, young enough and not heard before; nothing for this instance's own
   * message. Called by one thread at a time (the subscriber's).
   *
   * @param message as {@link #next} made it
   * @param environment this instance's {@link #environment}; {@code null} while unknown
   * @param nowNanos the answers' clock now
   * @param into takes each result
   * @return why the message was dropped, {@code null} when it was not (its own included); a
   *     message counts once, under its first reason
   */
  Drop read(String message, String environment, long nowNanos, Consumer<Kept> into) {
    return read(message, environment, nowNanos, into, tables -> { });
  }

  /**
   * As {@link #read(String, String, long, Consumer)}, handing the fences of a message of fences
   * to {@code fenced}: the tables' names, or {@code null} for every table.
   */
  Drop read(String message, String environment, long nowNanos, Consumer<Kept> into,
      Consumer<String[]> fenced) {
    Drop why = check(message, environment);
    if (why != null) {
      dropped[why.ordinal()].increment();
      return why;
    }
    String[] parts = message.split(" ");
    if (parts[2].equals(sender)) {
      return null;
    }
    if (parts[0].equals(FENCE_VERSION)) {
      return readFences(parts, fenced);
    }
    long transitMillis = Math.max(0, Math.min(MAX_TRANSIT_MILLIS,
        wallMillis.getAsLong() - Long.parseLong(parts[5])));
    long sentAtNanos = nowNanos - transitMillis * 1_000_000L;
    boolean sealed = parts[0].equals(SEALED_VERSION);
    for (int i = 6; i < parts.length - 1; i++) {
      Kept kept;
      try {
        byte[] bytes = Base64.getDecoder().decode(parts[i]);
        bytes = sealed ? keys.open(parts[1], bytes, bound) : bytes;
        kept = bytes == null ? null : KeptCodec.decode(bytes, sentAtNanos);
      } catch (IllegalArgumentException notBase64) {
        kept = null;
      }
      if (kept == null) {
        dropped[Drop.UNDECODABLE.ordinal()].increment();
      } else {
        heard.increment();
        into.accept(kept);
      }
    }
    return null;
  }

  /** Hands a checked message's fences on; one that does not decode is dropped, not guessed at. */
  private Drop readFences(String[] parts, Consumer<String[]> fenced) {
    String[] tables = new String[parts.length - 7];
    for (int i = 6; i < parts.length - 1; i++) {
      if (parts[i].equals(EVERY_TABLE)) {
        tables = null;
        break;
      }
      try {
        tables[i - 6] = new String(Base64.getDecoder().decode(parts[i]), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException notBase64) {
        tables = null; // signed, yet not a table's name: an instance of another version
        break;
      }
    }
    fenced.accept(tables);
    fencesHeard.increment(); // after: a count read elsewhere says the fence is applied
    return null;
  }

  /**
   * Why {@code message} is not to be heard, checked in order: its form and signature first
   * (nothing unsigned is believed, the sender's id and sequence included), then its environment,
   * age and sequence; {@code null}: hear it (or it is this instance's own).
   */
  private Drop check(String message, String environment) {
    int signatureAt = message.lastIndexOf(' ');
    String[] parts = message.split(" ");
    boolean fences = parts[0].equals(FENCE_VERSION);
    if (parts.length < 8
        || !(fences || parts[0].equals(VERSION) || parts[0].equals(SEALED_VERSION))) {
      return Drop.UNSIGNED;
    }
    if (!keys.knows(parts[1])) {
      return Drop.UNKNOWN_KEY;
    }
    if (!keys.verify(parts[1], channel + '\n' + message.substring(0, signatureAt),
        message.substring(signatureAt + 1))) {
      return Drop.BAD_SIGNATURE;
    }
    if (parts[2].equals(sender)) {
      return null;
    }
    if (!fences && (environment == null || !parts[4].equals(environment))) {
      return Drop.ENVIRONMENT; // a write changes the data for every reader: fences are heard
    }
    long sequenceHeard;
    long sentAt;
    try {
      sequenceHeard = Long.parseLong(parts[3]);
      sentAt = Long.parseLong(parts[5]);
    } catch (NumberFormatException signedButMalformed) {
      return Drop.UNDECODABLE;
    }
    long now = wallMillis.getAsLong();
    if (now - sentAt > maxAgeMillis) {
      return Drop.EXPIRED;
    }
    return heardBefore(parts[2], sequenceHeard, now) ? Drop.REPLAYED : null;
  }

  /** Whether {@code sequence} is at or below the last heard from {@code from}; records it. */
  private boolean heardBefore(String from, long sequenceHeard, long now) {
    long[] last = senders.get(from);
    if (last != null && sequenceHeard <= last[0]) {
      return true;
    }
    if (last == null && senders.size() >= SENDERS_KEPT) {
      forgetSenders(now);
    }
    senders.put(from, new long[] {sequenceHeard, now});
    return false;
  }

  /**
   * Forgets the senders not heard for {@code max-age} plus a minute (their messages are over-age
   * by now), and if none is that old, the one heard longest ago.
   */
  private void forgetSenders(long now) {
    String oldest = null;
    long oldestAt = Long.MAX_VALUE;
    for (Iterator<Map.Entry<String, long[]>> i = senders.entrySet().iterator(); i.hasNext(); ) {
      Map.Entry<String, long[]> entry = i.next();
      long at = entry.getValue()[1];
      if (now - at > maxAgeMillis + SKEW_MILLIS) {
        i.remove();
      } else if (at < oldestAt) {
        oldestAt = at;
        oldest = entry.getKey();
      }
    }
    if (senders.size() >= SENDERS_KEPT && oldest != null) {
      senders.remove(oldest);
    }
  }

  /**
   * Signs and verifies a message once (and seals and opens one, when sealing), so that the JDK's
   * HMAC and cipher are loaded before they are needed.
   */
  void warmUp() {
    String signature = keys.sign(channel);
    keys.verify(keys.signingId(), channel, signature);
    if (seal) {
      keys.open(keys.signingId(), keys.seal(bound, bound), bound);
    }
  }

  /**
   * What the getters of a result depend on besides the database: the driver and its version,
   * the JVM's time zone and locale, as a word without spaces.
   *
   * @param driverName the JDBC driver's name
   * @param driverVersion its version
   */
  static String environment(String driverName, String driverVersion) {
    String text = driverName + '\n' + driverVersion + '\n' + java.util.TimeZone.getDefault().getID()
        + '\n' + java.util.Locale.getDefault().toLanguageTag();
    long hash = 0xcbf29ce484222325L; // FNV-1a, 64 bits
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
    }
    return Long.toHexString(hash);
  }

  /** Results sent to the other instances. */
  long sent() {
    return sent.sum();
  }

  /** Messages of write fences sent to the other instances. */
  long fencesSent() {
    return fencesSent.sum();
  }

  /** Messages of write fences heard from the other instances, signed and young enough. */
  long fencesHeard() {
    return fencesHeard.sum();
  }

  /** Results heard from the other instances. */
  long heard() {
    return heard.sum();
  }

  /**
   * Results not shared: the outbox was full, a value of a class the codec does not carry, or
   * the store let the result go before it was sent.
   */
  long unshared() {
    return unshared.sum();
  }

  /** Messages (results, for {@link Drop#UNDECODABLE}) heard and dropped for {@code why}. */
  long dropped(Drop why) {
    return dropped[why.ordinal()].sum();
  }

  /** The reason of a word, as {@link Drop#word()} gives it; {@code null} for no reason. */
  static Drop reason(String word) {
    for (Drop d : DROPS) { // not values(): a read of the figures allocates nothing
      if (d.word.equalsIgnoreCase(word)) {
        return d;
      }
    }
    return null;
  }

  private static final Drop[] DROPS = Drop.values();
}
