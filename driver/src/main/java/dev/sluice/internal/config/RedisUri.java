package dev.sluice.internal.config;

import java.util.function.UnaryOperator;

/**
 * Makes the endpoint of {@code sluice.redis} with its password from wherever it was given, and
 * masks Redis URIs. {@link RedisEndpoint} parses and checks them.
 */
public final class RedisUri {

  /** The environment variable that gives the Redis password when no setting does. */
  public static final String PASSWORD_VARIABLE = "SLUICE_REDIS_PASSWORD";

  private RedisUri() {}

  /**
   * Returns the endpoint of {@code sluice.redis}, its password taken from the URI, else
   * {@code sluice.redis.password}, else the environment variable {@value #PASSWORD_VARIABLE}.
   *
   * @param settings checked settings with {@code sluice.redis} set
   * @return where Redis is and how to log in
   * @throws IllegalArgumentException when both the URI and {@code sluice.redis.password} give a
   *     password
   */
  public static RedisEndpoint endpoint(Settings settings) {
    return endpoint(settings, System::getenv);
  }

  static RedisEndpoint endpoint(Settings settings, UnaryOperator<String> environment) {
    RedisEndpoint parsed = RedisEndpoint.parse(settings.get(Keys.REDIS));
    String password = settings.get(Keys.REDIS_PASSWORD);
    if (password != null && parsed.password() != null) {
      throw new IllegalArgumentException("sluice.redis.password is set, but sluice.redis has a"
          + " password too (" + Keys.REDIS.show(settings.get(Keys.REDIS)) + "); give it in one"
          + " place, preferably sluice.redis.password or " + PASSWORD_VARIABLE);
    }
    if (password == null && parsed.password() == null) {
      password = environment.apply(PASSWORD_VARIABLE); // as redis-cli reads REDISCLI_AUTH
    }
    if (password == null || password.isEmpty() || parsed.password() != null) {
      return parsed;
    }
    return parsed.withPassword(password);
  }

  /**
   * Returns {@code text} with any password replaced by {@code ****}; safe for logs and messages.
   * The same as {@link Secrets#mask}.
   *
   * @param text a Redis URI, valid or not
   * @return the masked text
   */
  public static String mask(String text) {
    return Secrets.mask(text);
  }
}
