package dev.sluice.testsupport;

/**
 * Texts made to share a {@link String#hashCode()} with another: the attack on anything that would
 * judge a text once and look the judgement up by its hash rather than by the whole text.
 */
public final class HashTwins {
  private HashTwins() {}

  /**
   * {@code prefix} followed by a comment of seven letters ({@code A} to {@code _}) chosen so that
   * the whole text's {@code hashCode()} is {@code target}'s.
   *
   * @param prefix the text that the comment ends
   * @param target the text whose hash the result takes
   * @return a text that differs from {@code target} (unless it equals it) with its hash
   */
  public static String twin(String prefix, String target) {
    String open = prefix + " /*";
    String close = "*/";
    int shift = 1;
    for (int i = 0; i < 7 + close.length(); i++) {
      shift *= 31;
    }
    int fixed = open.hashCode() * shift + close.hashCode();
    int base = 0;
    for (int i = 0; i < 7; i++) {
      base = base * 31 + 'A';
    }
    // target = fixed + (base + digits) * 31^2, all mod 2^32; 31 is odd, so 31^2 has an inverse
    int digits = (target.hashCode() - fixed) * inverse(31 * 31) - base;
    long rest = Integer.toUnsignedLong(digits); // < 2^32 < 31^7: seven digits in base 31
    char[] letters = new char[7];
    for (int i = 6; i >= 0; i--) {
      letters[i] = (char) ('A' + rest % 31);
      rest /= 31;
    }
    String twin = open + new String(letters) + close;
    if (twin.hashCode() != target.hashCode()) {
      throw new AssertionError("no twin: " + twin);
    }
    return twin;
  }

  /** The inverse of an odd {@code a} modulo 2^32, by Newton's iteration. */
  private static int inverse(int a) {
    int x = a; // right to 3 bits for an odd a; each step doubles the bits
    for (int i = 0; i < 5; i++) {
      x *= 2 - a * x;
    }
    return x;
  }
}
