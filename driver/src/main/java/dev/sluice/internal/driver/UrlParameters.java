package dev.sluice.internal.driver;

import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.RedisUri;
import dev.sluice.internal.config.Secrets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the {@code sluice.*} settings out of a database URL, leaving the rest byte for byte as the
 * user wrote it.
 *
 * <p>Design note. The URL is never parsed the way its driver parses it: that would take one parser
 * per database, and any decoding and re-encoding changes what the driver receives (the AWS JDBC
 * wrapper's #1222). Instead the URL is cut in two at its first top-level {@code ?} or {@code ;}
 * (outside parentheses, so MySQL's {@code address=(host=...)} and Oracle's
 * {@code (DESCRIPTION=...)} stay whole), and the rest is split into raw tokens:
 * <ul>
 *   <li>after a {@code ?} (PostgreSQL, MySQL, MariaDB, Oracle Easy Connect) on {@code &};
 *   <li>after a {@code ;} (H2, SQL Server, Derby) on {@code ;}, where a backslash escapes the next
 *       character (H2's {@code \;} inside {@code INIT=}) and a value opened by {@code {} right after
 *       the {@code =} runs to its closing {@code }}, with {@code }}} standing for one brace (SQL
 *       Server's quoting).
 * </ul>
 * Tokens that start with {@code sluice.} are removed; the others are joined again with the
 * separators they had, in their order, empty and valueless tokens included. When every token goes,
 * the {@code ?} or {@code ;} goes too. Nothing is ever added.
 *
 * <p>A {@code sluice.} key that the cut cannot reach (for example after a {@code ;} inside a
 * PostgreSQL query) would reach the database unseen, and some drivers ignore unknown keys: it is an
 * error instead. This class is stateless and threadsafe.
 */
public final class UrlParameters {

  /**
   * The URL without its {@code sluice.*} tokens and the settings those tokens gave.
   *
   * @param url the URL for the real driver
   * @param settings the {@code sluice.*} keys and their raw values, in URL order; a token without
   *     {@code =} gives an empty value
   */
  public record Stripped(String url, Map<String, String> settings) {
    /** Makes the record, keeping an unmodifiable copy of the settings. */
    public Stripped {
      Objects.requireNonNull(url, "url");
      settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }
  }

  /** White space, also percent-encoded or as {@code +}, before a parameter's key. */
  private static final Pattern LEADING_BLANKS = Pattern.compile("^(?:\\s|\\+|%20|%09)+");
  /** A separator, then {@code sluice.} in any case after any blanks: a key left in the URL. */
  private static final Pattern LEAK = Pattern.compile(
      "[?&;](?:\\s|\\+|%20|%09)*((?i:sluice\\.))");

  private UrlParameters() {}

  /**
   * Removes the {@code sluice.*} tokens from {@code url}.
   *
   * @param url a database URL, {@code jdbc:} included
   * @return the URL for the real driver and the settings taken out of it
   * @throws IllegalArgumentException when a key is given twice, or a {@code sluice.} key stands
   *     where it cannot be taken out; the message never shows the URL
   */
  public static Stripped strip(String url) {
    int start = parametersStart(url);
    if (start < 0) {
      checkNoLeak(url);
      return new Stripped(url, Map.of());
    }
    boolean semicolons = url.charAt(start) == ';';
    char separator = semicolons ? ';' : '&';
    List<String> kept = new ArrayList<>();
    Map<String, String> settings = new LinkedHashMap<>();
    List<String> tokens = tokens(url, start + 1, separator, semicolons);
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      if (isSluiceToken(token)) {
        take(token, settings);
        checkValueNotCut(token, i + 1 < tokens.size() ? tokens.get(i + 1) : null, separator);
      } else {
        kept.add(token);
      }
    }
    if (settings.isEmpty()) {
      checkNoLeak(url);
      return new Stripped(url, settings);
    }
    String head = url.substring(0, start);
    String rest = kept.isEmpty() ? "" : url.charAt(start) + String.join(String.valueOf(separator),
        kept);
    String stripped = head + rest;
    checkNoLeak(stripped);
    return new Stripped(stripped, settings);
  }

  /** The index of the first {@code ?} or {@code ;} outside parentheses, or -1. */
  static int parametersStart(String url) {
    int depth = 0;
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && depth > 0) {
        depth--;
      } else if ((c == '?' || c == ';') && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** Splits {@code url} from {@code from} on {@code separator}, honouring the escapes. */
  static List<String> tokens(String url, int from, char separator, boolean escapes) {
    List<String> tokens = new ArrayList<>();
    int tokenStart = from;
    int i = from;
    while (i < url.length()) {
      char c = url.charAt(i);
      if (escapes && c == '\\') {
        i += 2; // H2: the next character is literal, a ';' included
      } else if (escapes && c == '{' && isValueStart(url, tokenStart, i)) {
        i = afterBraces(url, i);
      } else if (c == separator) {
        tokens.add(url.substring(tokenStart, i));
        tokenStart = ++i;
      } else {
        i++;
      }
    }
    tokens.add(url.substring(tokenStart));
    return tokens;
  }

  /** Whether position {@code i} is just after the first {@code =} of the token. */
  private static boolean isValueStart(String url, int tokenStart, int i) {
    return i > tokenStart && url.charAt(i - 1) == '=' && url.indexOf('=', tokenStart) == i - 1;
  }

  /** The index after the brace-quoted value opening at {@code open} ({@code }}} is one brace). */
  private static int afterBraces(String url, int open) {
    int i = open + 1;
    while (i < url.length()) {
      if (url.charAt(i) == '}') {
        if (i + 1 < url.length() && url.charAt(i + 1) == '}') {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return i;
  }

  /**
   * Whether a token is Sluice's: {@code sluice.} in any case, after any white space (also
   * percent-encoded, or a {@code +}, which drivers decode to a space). A misspelled one is taken
   * all the same, and refused by name when the settings are parsed: it never reaches the database.
   */
  private static boolean isSluiceToken(String token) {
    return LEADING_BLANKS.matcher(token).replaceFirst("")
        .regionMatches(true, 0, Keys.PREFIX, 0, Keys.PREFIX.length());
  }

  private static void take(String token, Map<String, String> settings) {
    int eq = token.indexOf('=');
    String key = eq < 0 ? token : token.substring(0, eq);
    String value = eq < 0 ? "" : token.substring(eq + 1);
    if (settings.containsKey(key)) {
      throw new IllegalArgumentException(Secrets.mask(key)
          + " is given twice in the URL; give it once");
    }
    settings.put(key, value);
  }

  /**
   * Refuses a Redis URI cut short by a separator in its password:
   * {@code sluice.redis=redis://:a&b@h} leaves {@code b@h} as a parameter of its own, a piece of the password the database's driver
   * would receive. Such a piece has an {@code @} and no {@code =}; the message shows neither part.
   */
  private static void checkValueNotCut(String token, String next, char separator) {
    if (next != null && next.indexOf('=') < 0 && next.indexOf('@') >= 0
        && token.startsWith(Keys.REDIS.name() + "=")) {
      throw new IllegalArgumentException("sluice.redis is followed in the URL by a parameter"
          + " with an '@' and no '=': a '" + separator + "' inside the Redis password ends the"
          + " value there. Percent-encode it (" + (separator == '&' ? "%26" : "%3B") + "), or give"
          + " the password in sluice.redis.password or the " + RedisUri.PASSWORD_VARIABLE
          + " environment variable");
    }
  }

  /**
   * Refuses a URL in which {@code sluice.} still follows a separator: a key the cut could not
   * reach, which the real driver might silently ignore.
   */
  private static void checkNoLeak(String url) {
    Matcher leak = LEAK.matcher(url); // SLUICE.BUDGET or " sluice.budget" would leak the same
    if (leak.find()) {
      int end = leak.start(1);
      while (end < url.length() && "=&;?".indexOf(url.charAt(end)) < 0) {
        end++;
      }
      String key = Secrets.mask(url.substring(leak.start(1), end));
      throw new IllegalArgumentException(key + " stands where Sluice cannot take it out of the"
          + " URL (after a '" + url.charAt(leak.start()) + "' inside the database's own"
          + " parameters); put the sluice.* settings in the URL's first parameter list, or in"
          + " the connection properties");
    }
  }
}
