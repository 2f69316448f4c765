package dev.sluice.internal.answer;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * This instance's side of sharing kept results with the other instances of its budget
 * ({@code sluice.stale.share}): the results it kept wait here for the sending thread, which
 * encodes them ({@link KeptCodec}); what the others sent is read back into results.
 *
 * <p><b>Why share.</b> An instance answers only reads it has itself seen answered while limiting,
 * and its share of the budget shrinks as the fleet grows: with 1/k<sup>1.4</sup> popularity, four
 * instances answer 79&nbsp;% of a 4-second outage's reads from their own results, one store fed
 * by the whole budget 86&nbsp;% ({@code docs/answers.md}). Shared, every instance answers from
 * every admitted read of the budget.
 *
 * <p><b>Answering the same as the live result.</b> A result is heard only from an instance whose
 * getters convert values the same way: the same JDBC driver and version, JVM time zone and
 * locale ({@link #environment}); a message from any other is ignored, as is one this instance
 * sent. Values travel as they were kept, tagged by class ({@link KeptCodec}): a result with a
 * value of any other class stays on its instance.
 *
 * <p><b>Age.</b> A message carries the result's age when it was encoded and the sender's
 * wall-clock time then; the receiver adds the time in transit by its own wall clock when that is
 * positive, so a result is never younger here than there, and a clock ahead of the sender's only
 * makes results expire sooner.
 *
 * <p>This class is threadsafe and takes no lock; {@link #offer} is the only method a request
 * calls.
 */
final class Sharing {
  /** The most kept results waiting to be sent; more are not shared. */
  static final int OUTBOX = 1024;
  /** The most results one message carries. */
  static final int BATCH = 64;
  /** A longer transit (a wall clock far off) counts as this long: older than any max-age. */
  private static final long MAX_TRANSIT_MILLIS = 86_400_000L;

  private final ConcurrentLinkedQueue<Kept> outbox = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final String sender = Long.toHexString(ThreadLocalRandom.current().nextLong() | 1L);
  private final LongSupplier wallMillis;
  private final LongAdder sent = new LongAdder();
  private final LongAdder heard = new LongAdder();
  private final LongAdder unshared = new LongAdder();

  Sharing(LongSupplier wallMillis) {
    this.wallMillis = wallMillis;
  }

  /** Queues a result this instance kept, unless {@value #OUTBOX} already wait. */
  void offer(Kept kept) {
    if (queued.incrementAndGet() > OUTBOX) {
      queued.decrementAndGet();
      unshared.increment();
      return;
    }
    outbox.add(kept);
  }

  /**
   * The next message to send: the queued results, encoded, at most {@value #BATCH} of them, or
   * {@code null} when none is queued. One message for many: limiting starts with a burst of
   * results on a machine whose CPUs are busiest then, and a round trip per result left them
   * waiting a quarter of a second in the drill's first second.
   *
   * @param environment this instance's {@link #environment}; {@code null} while unknown
   * @param nanoTime the answers' clock, read as each result is encoded
   */
  String next(String environment, LongSupplier nanoTime) {
    StringBuilder message = null;
    int results = 0;
    for (Kept kept = poll(); kept != null; kept = results < BATCH ? poll() : null) {
      byte[] encoded = environment == null ? null
          : KeptCodec.encode(kept, nanoTime.getAsLong());
      if (encoded == null) {
        unshared.increment();
        continue;
      }
      if (message == null) {
        message = new StringBuilder(64 + encoded.length * 4 / 3).append(sender).append(' ')
            .append(environment).append(' ').append(wallMillis.getAsLong());
      }
      message.append(' ').append(Base64.getEncoder().encodeToString(encoded));
      sent.increment();
      results++;
    }
    return message == null ? null : message.toString();
  }

  private Kept poll() {
    Kept kept = outbox.poll();
    if (kept != null) {
      queued.decrementAndGet();
    }
    return kept;
  }

  /**
   * Hands each result a message carries to {@code into}, as old as it is here; nothing for this
   * instance's own message, one from another environment, or a result that does not decode.
   *
   * @param message as {@link #next} made it
   * @param environment this instance's {@link #environment}; {@code null} while unknown
   * @param nowNanos the answers' clock now
   * @param into takes each result
   */
  void read(String message, String environment, long nowNanos, Consumer<Kept> into) {
    String[] parts = message.split(" ");
    if (parts.length < 4 || parts[0].equals(sender) || environment == null
        || !parts[1].equals(environment)) {
      return;
    }
    long transitMillis;
    try {
      transitMillis = wallMillis.getAsLong() - Long.parseLong(parts[2]);
    } catch (NumberFormatException e) {
      return;
    }
    transitMillis = Math.max(0, Math.min(MAX_TRANSIT_MILLIS, transitMillis));
    long sentAtNanos = nowNanos - transitMillis * 1_000_000L;
    for (int i = 3; i < parts.length; i++) {
      Kept kept;
      try {
        kept = KeptCodec.decode(Base64.getDecoder().decode(parts[i]), sentAtNanos);
      } catch (IllegalArgumentException notBase64) {
        kept = null;
      }
      if (kept != null) {
        heard.increment();
        into.accept(kept);
      }
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

  /** Results heard from the other instances. */
  long heard() {
    return heard.sum();
  }

  /** Results not shared: the outbox was full, or a value of a class the codec does not carry. */
  long unshared() {
    return unshared.sum();
  }
}
