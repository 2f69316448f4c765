package dev.sluice.internal.answer;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * What an attacker who can publish on {@code sluice:<name>:answers} makes of a message it
 * sniffed there ({@code AnswersSharedAttackTest}): values changed, signatures stripped or made
 * with another key, the send time moved. For tests only.
 */
public final class ForgedMessages {
  private ForgedMessages() {}

  /** The message with every value {@code from} replaced by {@code to}; the signature kept. */
  public static String altered(String message, String from, String to) {
    String[] parts = message.split(" ");
    for (int i = 6; i < parts.length - 1; i++) {
      Kept kept = KeptCodec.decode(Base64.getDecoder().decode(parts[i]), 0);
      int n = kept.rows() * kept.columns().count();
      Object[] objects = new Object[n];
      String[] texts = new String[n];
      byte[][] bytes = new byte[n][];
      for (int r = 0; r < kept.rows(); r++) {
        for (int c = 1; c <= kept.columns().count(); c++) {
          int at = r * kept.columns().count() + c - 1;
          objects[at] = from.equals(kept.object(r, c)) ? to : kept.object(r, c);
          texts[at] = from.equals(kept.text(r, c)) ? to : kept.text(r, c);
          byte[] raw = kept.bytes(r, c);
          bytes[at] = raw != null && from.equals(new String(raw, StandardCharsets.UTF_8))
              ? to.getBytes(StandardCharsets.UTF_8) : raw;
        }
      }
      Kept forged = new Kept(kept.key(), kept.columns(), kept.dialect(), objects, texts, bytes,
          kept.rows(), kept.bytes(), 0);
      parts[i] = Base64.getEncoder().encodeToString(KeptCodec.encode(forged, 0));
    }
    return String.join(" ", parts);
  }

  /** The message as Sluice 0.3 sent it: no version, key id, sequence or signature. */
  public static String unsigned(String message) {
    String[] parts = message.split(" ");
    StringBuilder old = new StringBuilder(parts[2]).append(' ').append(parts[4]).append(' ')
        .append(parts[5]);
    for (int i = 6; i < parts.length - 1; i++) {
      old.append(' ').append(parts[i]);
    }
    return old.toString();
  }

  /**
   * The message signed again with {@code key} for the budget {@code budget}, its send time set
   * to {@code wallMillis} and its sequence to {@code sequence}: what an instance holding that
   * key would have sent.
   */
  public static String signed(String message, String budget, String key, long wallMillis,
      long sequence) {
    ShareKeys keys = ShareKeys.of(key);
    String[] parts = message.split(" ");
    parts[1] = keys.signingId();
    parts[3] = Long.toString(sequence);
    parts[5] = Long.toString(wallMillis);
    String text = String.join(" ", java.util.Arrays.copyOf(parts, parts.length - 1));
    return text + ' ' + keys.sign("sluice:" + budget + ":answers\n" + text);
  }

  /** The message signed again with {@code key}, everything else as it was. */
  public static String resigned(String message, String budget, String key) {
    String[] parts = message.split(" ");
    return signed(message, budget, key, Long.parseLong(parts[5]), Long.parseLong(parts[3]));
  }
}
