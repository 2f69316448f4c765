package dev.sluice.internal.config;

/**
 * {@code sluice.stale.share-key}: the keys that sign the results a budget's instances share,
 * checked without ever showing one, and found in the setting or the environment.
 *
 * <p>Stateless, so threadsafe.
 */
public final class ShareKey {
  /** The environment variable that gives the keys when no setting does. */
  public static final String VARIABLE = "SLUICE_SHARE_KEY";
  /** The fewest characters a key may have: 32 random characters are some 190 bits or more. */
  public static final int MIN_LENGTH = 32;
  static final String KEY = "sluice.stale.share-key";
  static final String CONSTRAINT = "be one or more keys of at least " + MIN_LENGTH
      + " characters each, separated by commas (the first signs, all verify)";

  private ShareKey() {}

  /**
   * The key's parser: the list as given, when every key in it is long enough.
   *
   * @throws IllegalArgumentException naming the key, which of the list is wrong and how, never
   *     any of its characters
   */
  static String check(String list) {
    String[] parts = list.split(",", -1);
    for (int i = 0; i < parts.length; i++) {
      String key = parts[i];
      String which = parts.length == 1 ? "the key" : "key " + (i + 1) + " of " + parts.length;
      String problem = !key.equals(key.strip()) ? "has blanks around it"
          : key.length() < MIN_LENGTH ? "has " + key.length() + " characters" : null;
      if (problem != null) {
        throw new IllegalArgumentException(KEY + " must " + CONSTRAINT + ", but " + which + " "
            + problem + " (the value is not shown: it is secret; make one with"
            + " `openssl rand -base64 32`)");
      }
    }
    return list;
  }

  /**
   * Checks keys given in the environment variable {@value #VARIABLE}.
   *
   * @param list the variable's value
   * @return the list
   * @throws IllegalArgumentException naming the key and the variable, never a key's characters
   */
  public static String checkVariable(String list) {
    try {
      return check(list);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().replace(KEY + " must",
          KEY + " (from " + VARIABLE + ") must"), e);
    }
  }
}
