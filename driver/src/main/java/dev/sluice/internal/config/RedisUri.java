package dev.sluice.internal.config;

import java.net.URI;
import java.util.Locale;

/** Checks and masks {@code redis://} and {@code rediss://} URIs. */
public final class RedisUri {

  private RedisUri() {}

  /**
   * Returns {@code text} if it is a usable Redis URI.
   *
   * @throws IllegalArgumentException if it is not
   */
  static String check(String text) {
    URI uri = URI.create(text);
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("redis") && !scheme.equals("rediss")) {
      throw new IllegalArgumentException("scheme");
    }
    if (uri.getHost() == null || uri.getPort() > 65535) {
      throw new IllegalArgumentException("host");
    }
    String path = uri.getPath();
    if (path != null && !path.isEmpty() && !path.equals("/")
        && !path.substring(1).chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("db");
    }
    return text;
  }

  /**
   * Returns {@code text} with any password replaced by {@code ****}; safe for logs and messages.
   *
   * @param text a Redis URI, valid or not
   * @return the masked text
   */
  public static String mask(String text) {
    if (text == null) {
      return null;
    }
    int scheme = text.indexOf("://");
    int at = text.lastIndexOf('@');
    if (scheme < 0 || at < scheme) {
      return text;
    }
    int colon = text.indexOf(':', scheme + 3);
    String user = colon >= 0 && colon < at ? text.substring(scheme + 3, colon) + ":" : "";
    return text.substring(0, scheme + 3) + user + "****" + text.substring(at);
  }
}
