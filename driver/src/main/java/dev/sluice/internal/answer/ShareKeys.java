package dev.sluice.internal.answer;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys that sign and verify a budget's shared results ({@code sluice.stale.share-key}): an
 * HMAC-SHA256 over a message's whole text, with the first key; a message is verified with the
 * key its id names, any of the list, so that a key is rotated by putting the new one first on
 * every instance, then removing the old one.
 *
 * <p>A key's id is the first 8 hex digits of the SHA-256 of {@code sluice-share-key-id:} and the
 * key: it says which key signed, and gives away nothing the signature itself does not.
 *
 * <p>With {@code sluice.stale.share-encrypt}, a result's bytes are also sealed with AES-256-GCM
 * ({@link #seal}) under a key derived from the signing key (the HMAC-SHA256 of
 * {@code sluice-share-encrypt} by it), with a random 96-bit nonce each: the derived key is not
 * the signing key, and both come from the one secret the operator already rotates.
 *
 * <p>Threadsafe: a {@link Mac} or {@link Cipher} is made per call of the sending or the hearing
 * thread (a few hundred nanoseconds, off every request path); the key material is never shown,
 * in {@link #toString()} neither.
 */
final class ShareKeys {
  /** The fewest characters a key may have: 32 random characters are some 190 bits or more. */
  static final int MIN_LENGTH = 32;
  private static final String ALGORITHM = "HmacSHA256";
  private static final String CIPHER = "AES/GCM/NoPadding";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom NONCES = new SecureRandom();

  private final List<String> ids;
  private final List<SecretKeySpec> keys;
  /** The keys that seal results, each derived from the signing key at the same place. */
  private final List<SecretKeySpec> sealing;

  private ShareKeys(List<String> ids, List<SecretKeySpec> keys) {
    this.ids = List.copyOf(ids);
    this.keys = List.copyOf(keys);
    List<SecretKeySpec> derived = new ArrayList<>();
    for (SecretKeySpec key : keys) {
      derived.add(new SecretKeySpec(mac(key, "sluice-share-encrypt"), "AES"));
    }
    this.sealing = List.copyOf(derived);
  }

  /**
   * The keys of a {@code sluice.stale.share-key} value, checked as its key's parser checks it.
   *
   * @param list one or more keys separated by commas; the first signs
   * @return the keys
   * @throws IllegalArgumentException saying which key is too short; never showing one
   */
  static ShareKeys of(String list) {
    String problem = problem(list);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    List<String> ids = new ArrayList<>();
    List<SecretKeySpec> keys = new ArrayList<>();
    for (String key : list.split(",", -1)) {
      byte[] material = key.getBytes(StandardCharsets.UTF_8);
      ids.add(id(material));
      keys.add(new SecretKeySpec(material, ALGORITHM));
    }
    return new ShareKeys(ids, keys);
  }

  /**
   * What is wrong with a list of keys, without showing any of it; {@code null} when nothing is.
   *
   * @param list one or more keys separated by commas
   * @return the problem, as "key 2 of 3 has 12 characters, fewer than 32", or {@code null}
   */
  static String problem(String list) {
    String[] parts = list == null ? new String[0] : list.split(",", -1);
    if (parts.length == 0) {
      return "no key is given";
    }
    for (int i = 0; i < parts.length; i++) {
      String key = parts[i];
      String which = parts.length == 1 ? "the key" : "key " + (i + 1) + " of " + parts.length;
      if (!key.equals(key.strip())) {
        return which + " has blanks around it";
      }
      if (key.length() < MIN_LENGTH) {
        return which + " has " + key.length() + " characters, fewer than " + MIN_LENGTH;
      }
    }
    return null;
  }

  private static String id(byte[] material) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update("sluice-share-key-id:".getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(sha.digest(material), 0, 4);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /** The id of the key that signs. */
  String signingId() {
    return ids.get(0);
  }

  /** How many keys verify. */
  int count() {
    return keys.size();
  }

  /**
   * Signs {@code text} with the first key.
   *
   * @return the signature, Base64 without padding (no blank in it)
   */
  String sign(String text) {
    return Base64.getEncoder().withoutPadding().encodeToString(mac(keys.get(0), text));
  }

  /**
   * Whether the key {@code id} names is one of these.
   *
   * @param id a key id as a message carries it
   */
  boolean knows(String id) {
    return ids.indexOf(id) >= 0;
  }

  /**
   * Whether {@code signature} is the signature of {@code text} by the key {@code id} names, in
   * time independent of where they differ.
   */
  boolean verify(String id, String text, String signature) {
    int at = ids.indexOf(id);
    if (at < 0) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getDecoder().decode(signature);
    } catch (IllegalArgumentException notBase64) {
      return false;
    }
    return MessageDigest.isEqual(mac(keys.get(at), text), given);
  }

  /**
   * Seals {@code plain} with the first key's sealing key: AES-256-GCM, a random nonce, and
   * {@code bound} authenticated with it (not carried).
   *
   * @return the nonce, then the ciphertext and its 16-byte tag
   */
  byte[] seal(byte[] plain, byte[] bound) {
    byte[] nonce = new byte[NONCE_BYTES];
    NONCES.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance(CIPHER);
      cipher.init(Cipher.ENCRYPT_MODE, sealing.get(0), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(bound);
      byte[] sealed = new byte[NONCE_BYTES + cipher.getOutputSize(plain.length)];
      System.arraycopy(nonce, 0, sealed, 0, NONCE_BYTES);
      cipher.doFinal(plain, 0, plain.length, sealed, NONCE_BYTES);
      return sealed;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + CIPHER, e);
    }
  }

  /**
   * Opens what {@link #seal} sealed with the key {@code id} names.
   *
   * @return the plain bytes; {@code null} when the key is unknown, or the bytes or
   *     {@code bound} are not what was sealed
   */
  byte[] open(String id, byte[] sealed, byte[] bound) {
    int at = ids.indexOf(id);
    if (at < 0 || sealed.length < NONCE_BYTES + TAG_BITS / 8) {
      return null;
    }
    try {
      Cipher cipher = Cipher.getInstance(CIPHER);
      cipher.init(Cipher.DECRYPT_MODE, sealing.get(at),
          new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
      cipher.updateAAD(bound);
      return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
    } catch (AEADBadTagException altered) {
      return null;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + CIPHER, e);
    }
  }

  private static byte[] mac(SecretKeySpec key, String text) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + ALGORITHM, e);
    }
  }

  @Override
  public String toString() {
    return "share keys " + ids + " (the first signs)";
  }
}
