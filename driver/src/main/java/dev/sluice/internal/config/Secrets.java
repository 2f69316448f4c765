package dev.sluice.internal.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one masking function for everything Sluice echoes: setting values, key names, database and
 * Redis URLs, in messages, logs, MXBean attributes and {@code getPropertyInfo}.
 *
 * <p>Design note. A value is often not the well-formed URI it should be: a {@code &} in a Redis
 * password ends the value in a URL ({@code redis://:r3dis}), a slash goes missing
 * ({@code redis:/:pw@host}), a password holds {@code @} or {@code /}. So the masking does not
 * parse; it hides every part that merely looks like a login, erring towards hiding too much:
 * <ul>
 *   <li>{@code password=...}-like parameters (also {@code pwd}, {@code secret}, {@code token},
 *       ...), up to the next separator or as a brace-quoted value;
 *   <li>after a scheme ({@code x:/}, {@code x://}), everything up to the <em>last</em> {@code @}
 *       but a user name before the first {@code :};
 *   <li>after a scheme with no {@code @} at all, an authority that is not {@code host[:port]}
 *       ({@code redis://:r3dis}, {@code redis://u:pa}): everything after its first {@code :};
 *   <li>with no scheme, the part between the last {@code :} and the last {@code @}, but an
 *       Oracle-style user name before a {@code /} ({@code thin:scott/tiger@db}).
 * </ul>
 *
 * <p>This class is stateless and threadsafe.
 */
public final class Secrets {

  /** What stands for a hidden secret. */
  public static final String MASK = "****";

  /** A password-like key and its value, up to the next separator: {@code password=...}. */
  private static final Pattern SECRET_PARAMETER = Pattern.compile(
      "(?i)((?:password|passwd|pwd|secret|token|accesskey|secretkey|share-?key)[A-Za-z0-9_.-]*\\s*=)"
          + "(\\{(?:[^}]|\\}\\})*\\}|[^&;,)]*)");
  /** A scheme and the slashes after it: where an authority, and a login, may start. */
  private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:/+");
  /** One host, a name or a bracketed IPv6 address, with an optional numeric port. */
  private static final Pattern HOST_PORT = Pattern.compile(
      "(?:\\[[0-9A-Fa-f:.]*\\]|[^:\\[\\]]+)(?::[0-9]{1,5})?");

  /** A property name that holds a secret: {@code password}, {@code sslpassword}, {@code token}. */
  private static final Pattern SECRET_NAME = Pattern.compile(
      "(?i).*(?:password|passwd|pwd|secret|token|accesskey|secretkey|share-?key).*");

  private Secrets() {}

  /**
   * Whether a property of this name holds a secret, whose value is never shown.
   *
   * @param name a property name, such as {@code password} or {@code sslpassword}
   * @return whether its value must be masked whole
   */
  public static boolean isSecretName(String name) {
    return name != null && SECRET_NAME.matcher(name).matches();
  }

  /**
   * Returns {@code text} with every login-looking part replaced by {@value #MASK}.
   *
   * @param text any text Sluice is about to show, or {@code null}
   * @return the text safe for messages and logs
   */
  public static String mask(String text) {
    if (text == null) {
      return null;
    }
    String masked = SECRET_PARAMETER.matcher(text).replaceAll("$1" + MASK);
    Matcher scheme = SCHEME.matcher(masked);
    return scheme.find() ? afterScheme(masked, scheme.end()) : withoutScheme(masked);
  }

  /** Masks the login of the authority starting at {@code start}. */
  private static String afterScheme(String text, int start) {
    int at = text.lastIndexOf('@');
    if (at >= start) {
      return text.substring(0, start) + login(text.substring(start, at), ':') + text.substring(at);
    }
    int end = start;
    while (end < text.length() && "/?#;&".indexOf(text.charAt(end)) < 0) {
      end++;
    }
    String authority = text.substring(start, end);
    if (authority.isEmpty()) {
      return text;
    }
    for (String host : authority.split(",", -1)) {
      if (!HOST_PORT.matcher(host).matches()) {
        int colon = authority.indexOf(':');
        return colon < 0 ? text.substring(0, start) + MASK + text.substring(end)
            : text.substring(0, start + colon + 1) + MASK + text.substring(end);
      }
    }
    return text;
  }

  /** {@code user:pass@host}, {@code pass@host}, Oracle's {@code thin:user/pass@host}. */
  private static String withoutScheme(String text) {
    int at = text.lastIndexOf('@');
    if (at < 0) {
      return text;
    }
    int slash = text.indexOf('/');
    int searchEnd = slash >= 0 && slash < at ? slash : at;
    int start = text.lastIndexOf(':', searchEnd - 1) + 1;
    String login = text.substring(start, at);
    if (login.isEmpty()) {
      return text;
    }
    return text.substring(0, start) + login(login, '/') + text.substring(at);
  }

  /** Keeps the user name before {@code separator}, if any, and masks the rest. */
  private static String login(String login, char separator) {
    int cut = login.indexOf(separator);
    if (cut < 0) {
      return login.isEmpty() ? login : MASK;
    }
    return login.substring(0, cut + 1) + MASK;
  }
}
