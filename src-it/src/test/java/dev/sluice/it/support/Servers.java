package dev.sluice.it.support;

/**
 * The servers every test class shares: one PostgreSQL and one Redis per test JVM, started on
 * first use and stopped when the JVM exits. Tests that stop or restart a server start one of their
 * own instead ({@link Postgres#startEmbedded()}, {@link Redis#startEmbedded()}).
 *
 * <p>This class is threadsafe.
 */
public final class Servers {
  private Servers() {}

  /** The shared PostgreSQL. */
  public static Postgres postgres() {
    return PostgresHolder.INSTANCE;
  }

  /** The shared Redis. */
  public static Redis redis() {
    return RedisHolder.INSTANCE;
  }

  private static final class PostgresHolder {
    static final Postgres INSTANCE = closedAtExit(Postgres.fromEnvironmentOrEmbedded());
  }

  private static final class RedisHolder {
    static final Redis INSTANCE = closedAtExit(Redis.fromEnvironmentOrEmbedded());
  }

  /** Closes {@code server} when the JVM exits. */
  public static <T extends AutoCloseable> T closedAtExit(T server) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } catch (Exception e) {
        // exiting: a server that will not stop is ended with the process group
      }
    }, "sluice-it-stop-" + server));
    return server;
  }
}
