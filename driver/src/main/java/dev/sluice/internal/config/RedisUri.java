package dev.sluice.internal.config;

import dev.sluice.internal.redis.RedisEndpoint;

/** Checks and masks {@code redis://}, {@code rediss://} and {@code redis-sentinel://} URIs. */
public final class RedisUri {

  private RedisUri() {}

  /**
   * Returns {@code text} if it is a usable Redis URI: {@code redis://}, {@code rediss://} or
   * {@code redis-sentinel://}.
   *
   * @throws IllegalArgumentException if it is not
   */
  static String check(String text) {
    RedisEndpoint.parse(text);
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
