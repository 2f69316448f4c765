package dev.sluice.examples.drill;

import dev.sluice.Scope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The drill's scenario, read from command-line flags ({@code --load 20000} or
 * {@code --load=20000}). Every value is checked; a bad one is an
 * {@link IllegalArgumentException} naming the flag and the value.
 *
 * <p>Instances are immutable and threadsafe.
 */
final class DrillOptions {

  /** The local MariaDB of {@code --database mariadb}. */
  static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

  static final String HELP = String.join("\n",
      "The outage drill: a service whose cache answers most reads loses its cache; the breaker",
      "opens and the fallback goes to the database; the cache comes back empty and refills from",
      "the reads the database answers. Played three times: without Sluice, with Sluice refusing",
      "what is over the budget, and with Sluice answering those reads from recent results.",
      "",
      "Usage: mvn -q -pl examples -am compile exec:java -Ddrill=\"--load 5000 --budget 200"
          + " --instances 2\"",
      "",
      "Scenario",
      "  --load N            reads per second offered to the service        (default 20000)",
      "  --budget N          Sluice's budget: database queries/s, all instances (default 500)",
      "  --outage-start S    second at which the cache dies                  (default 3)",
      "  --outage-length S   seconds the cache stays down                    (default 4)",
      "  --duration S        seconds each run lasts          (default outage end + 10)",
      "  --instances N       application instances sharing the budget        (default 4)",
      "",
      "The cache (cache-aside: a miss reads the database and stores what it answered)",
      "  --keys N            keys in the key space, one database row each    (default 10000)",
      "  --skew S            popularity: key k is read in proportion to 1/k^S (default 1.4)",
      "  --ttl S             seconds an entry lives                          (default 30)",
      "  --cache-return R    empty (a restart, a cold replica) or warm (kept its entries)",
      "                                                                      (default empty)",
      "",
      "The service and its database",
      "  --threads N         worker threads (and pool connections) per instance (default 50)",
      "  --timeout-ms N      a read waiting longer than this for a thread fails (default 1000)",
      "  --db-cost-ms X      what one query costs the database alone         (default 1)",
      "  --db-crowding-ms X  what each other query running at once adds      (default 0.2)",
      "  --scope S           what costs a permit: statement or connection    (default statement)",
      "  --settle S          Sluice's sluice.recovery.settle, in seconds: limiting holds after the",
      "                      cache is back until demand has stayed low this long; 0 lets go at",
      "                      once, the moment the flag closes                (default 2)",
      "  --capacity-drop S   second, during the outage, at which the database loses half its",
      "                      capacity (each query costs twice: cost and crowding double) for the",
      "                      rest of the run; adds a third run, Sluice with",
      "                      sluice.concurrency=auto. It shows when the budget is more than the",
      "                      halved database serves (about 500 / --db-crowding-ms queries/s):",
      "                      try --capacity-drop 4 --db-crowding-ms 1.5   (default: none)",
      "  --stale-max-age S   the answering run's sluice.stale.max-age, in seconds: a read Sluice",
      "                      would refuse is answered from an identical read's result at most",
      "                      this old; 0 plays no answering run (nor does --scope connection,",
      "                      which has no statements to answer)                   (default 5)",
      "  --stale-share S     on: the answering run's instances share their kept results",
      "                      (sluice.stale.share) through --redis, or through a Redis the drill",
      "                      starts from Maven; off: each answers from its own    (default on)",
      "  --critical-writes N CRITICAL writes per second among the load (Priority.CRITICAL);",
      "                      the reads then run SHEDDABLE, so Sluice sheds them first:",
      "                      try --critical-writes 50  (default 0: no writes, every read NORMAL)",
      "  --redis URI         share the flag and count the instances through this Redis",
      "                      (redis://host:port); by default an in-process flag, no Redis",
      "  --database D        h2: H2 in memory (default); mariadb: the MariaDB at",
      "                      " + MARIADB + ", or a jdbc:mariadb:// URL;",
      "                      each query still costs what --db-cost-ms and --db-crowding-ms say.",
      "                      MariaDB takes 151 connections: try --threads 30 with it",
      "",
      "Output",
      "  --out FILE          where to write the SVG chart",
      "                      (default examples/target/sluice-drill.svg)",
      "  --help              print this and exit",
      "",
      "Exit code: 0; 2 for a bad flag; 3 for an invalid run (the machine was too busy to offer",
      "the load: a second more than " + OfferCheck.MARGIN_PERCENT + "% off it, or the generator"
          + " more than " + OfferCheck.MAX_BEHIND_MILLIS + " ms",
      "behind its schedule; it says why and prints no headline); 1 if the drill failed.");

  final double load;
  final double budget;
  final int outageStart;
  final int outageLength;
  final int duration;
  final int instances;
  final int keys;
  final double skew;
  final int ttlSeconds;
  final boolean returnsEmpty;
  final int threads;
  final int timeoutMillis;
  final double dbCostMillis;
  final double dbCrowdingMillis;
  final Scope scope;
  final long settleMillis;
  final double criticalWrites;
  /** The answering run's {@code sluice.stale.max-age} in milliseconds; 0: no such run. */
  final long staleMaxAgeMillis;
  /** Whether the answering run's instances share their kept results ({@code --stale-share}). */
  final boolean staleShare;
  /** The second at which the database loses half its capacity, or -1: never. */
  final int capacityDrop;
  final String redis;
  /** {@code --database}: a {@code jdbc:mariadb:} URL, or {@code null} for H2 in memory. */
  final String database;
  final Path out;
  final boolean help;

  private DrillOptions(Map<String, String> given, Path defaultOut) {
    help = given.containsKey("help");
    load = number(given, "load", "20000", 1, 200_000, "reads per second from 1 to 200000");
    budget = number(given, "budget", "500", 0.001, 1_000_000, "a positive number of queries/s");
    outageStart = integer(given, "outage-start", "3", 0, 600, "a second from 0 to 600");
    outageLength = integer(given, "outage-length", "4", 1, 600,
        "a number of seconds from 1 to 600");
    // long enough for the cache to refill at the budget and for the hold to end after it
    duration = integer(given, "duration", Integer.toString(outageStart + outageLength + 10), 1,
        1200, "a number of seconds from 1 to 1200");
    instances = integer(given, "instances", "4", 1, 64, "a whole number from 1 to 64");
    keys = integer(given, "keys", "10000", 1, 100_000, "a whole number from 1 to 100000");
    skew = number(given, "skew", "1.4", 0, 3, "a number from 0 to 3");
    ttlSeconds = integer(given, "ttl", "30", 1, 3600, "a number of seconds from 1 to 3600");
    returnsEmpty = cacheReturn(given.getOrDefault("cache-return", "empty"));
    threads = integer(given, "threads", "50", 1, 500, "a whole number from 1 to 500");
    timeoutMillis = integer(given, "timeout-ms", "1000", 1, 60_000,
        "milliseconds from 1 to 60000");
    dbCostMillis = number(given, "db-cost-ms", "1", 0, 1000, "milliseconds from 0 to 1000");
    dbCrowdingMillis = number(given, "db-crowding-ms", "0.2", 0, 1000,
        "milliseconds from 0 to 1000");
    scope = scope(given.getOrDefault("scope", "statement"));
    settleMillis = Math.round(1000 * number(given, "settle", "2", 0, 600,
        "a number of seconds from 0 to 600"));
    staleMaxAgeMillis = Math.round(1000 * number(given, "stale-max-age", "5", 0, 600,
        "a number of seconds from 0 to 600"));
    staleShare = onOff(given.getOrDefault("stale-share", "on"));
    criticalWrites = number(given, "critical-writes", "0", 0, 10_000,
        "writes per second from 0 to 10000");
    capacityDrop = integer(given, "capacity-drop", "-1", -1, 1200,
        "a second during the outage");
    redis = redis(given.get("redis"));
    database = database(given.get("database"));
    out = given.containsKey("out") ? Path.of(given.get("out")) : defaultOut;
    if (outageStart + outageLength > duration) {
      throw new IllegalArgumentException("--duration must cover the outage (--outage-start "
          + outageStart + " + --outage-length " + outageLength + " = "
          + (outageStart + outageLength) + " s), but was " + duration);
    }
    if (capacityDrop >= 0 && !outageAt(capacityDrop)) {
      throw new IllegalArgumentException("--capacity-drop must be a second during the outage ("
          + outageStart + " to " + (outageEnd() - 1) + "), but was \"" + given.get("capacity-drop")
          + "\"");
    }
    if (instances * threads > 2000) {
      throw new IllegalArgumentException("--instances times --threads must be at most 2000,"
          + " but was " + instances + " x " + threads + " = " + instances * threads);
    }
  }

  /**
   * Reads the flags.
   *
   * @param args the command line
   * @param defaultOut where the chart goes without {@code --out}
   * @return the options
   * @throws IllegalArgumentException naming the flag, for an unknown flag or a bad value
   */
  static DrillOptions parse(String[] args, Path defaultOut) {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new IllegalArgumentException("expected a flag such as --load, but was \"" + arg
            + "\"");
      }
      String name = arg.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (name.equals("help")) {
        value = "true";
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      checkKnown(name);
      if (given.put(name, value) != null) {
        throw new IllegalArgumentException("--" + name + " is given twice");
      }
    }
    return new DrillOptions(given, defaultOut);
  }

  /**
   * The runs to play, in order: without Sluice, with it, with it answering (unless
   * {@code --stale-max-age 0} or {@code --scope connection}), and with {@code --capacity-drop}
   * Sluice with {@code sluice.concurrency=auto}.
   */
  List<RunKind> runs() {
    List<RunKind> runs = new ArrayList<>(List.of(RunKind.WITHOUT_SLUICE, RunKind.WITH_SLUICE));
    if (answers()) {
      runs.add(RunKind.SLUICE_ANSWERS);
    }
    if (capacityDrop >= 0) {
      runs.add(RunKind.SLUICE_AUTO);
    }
    return List.copyOf(runs);
  }

  /** Whether the answering run is played. */
  boolean answers() {
    return staleMaxAgeMillis > 0 && scope == Scope.STATEMENT;
  }

  /** Whether the outage is on at second {@code t} of the run. */
  boolean outageAt(double t) {
    return t >= outageStart && t < outageStart + outageLength;
  }

  /** Whether the database has lost half its capacity at second {@code t} of the run. */
  boolean capacityLostAt(double t) {
    return capacityDrop >= 0 && t >= capacityDrop;
  }

  /** The second at which the cache comes back. */
  int outageEnd() {
    return outageStart + outageLength;
  }

  static final String[] KNOWN = {"load", "budget", "outage-start", "outage-length",
      "duration", "instances", "keys", "skew", "ttl", "cache-return", "threads", "timeout-ms",
      "db-cost-ms", "db-crowding-ms", "scope", "settle", "stale-max-age", "stale-share", "critical-writes",
      "capacity-drop", "redis", "database", "out", "help"};

  private static boolean onOff(String text) {
    return switch (text) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException("--stale-share must be on or off, but was \""
          + text + "\"");
    };
  }

  private static void checkKnown(String name) {
    for (String known : KNOWN) {
      if (known.equals(name)) {
        return;
      }
    }
    throw new IllegalArgumentException("--" + name + " is not a flag of the drill; known flags: --"
        + String.join(", --", KNOWN));
  }

  private static double number(Map<String, String> given, String name, String fallback,
      double min, double max, String what) {
    String text = given.getOrDefault(name, fallback);
    double value;
    try {
      value = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(name, what, text);
    }
    if (!(value >= min && value <= max)) {
      throw invalid(name, what, text);
    }
    return value;
  }

  private static int integer(Map<String, String> given, String name, String fallback, int min,
      int max, String what) {
    String text = given.getOrDefault(name, fallback);
    int value;
    try {
      value = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(name, what, text);
    }
    if (value < min || value > max) {
      throw invalid(name, what, text);
    }
    return value;
  }

  private static Scope scope(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "statement": return Scope.STATEMENT;
      case "connection": return Scope.CONNECTION;
      default: throw invalid("scope", "`statement` or `connection`", text);
    }
  }

  private static boolean cacheReturn(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "empty": return true;
      case "warm": return false;
      default: throw invalid("cache-return", "`empty` or `warm`", text);
    }
  }

  private static String redis(String text) {
    if (text == null) {
      return null;
    }
    String uri = text.trim();
    if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
      // never echo the value: it may hold a password
      throw new IllegalArgumentException("--redis must be a URI such as redis://localhost:6379,"
          + " but does not start with redis:// or rediss://");
    }
    return uri;
  }

  private static String database(String text) {
    if (text == null || text.trim().equalsIgnoreCase("h2")) {
      return null;
    }
    String url = text.trim();
    if (url.equalsIgnoreCase("mariadb")) {
      return MARIADB;
    }
    if (!url.startsWith("jdbc:mariadb:")) {
      // never echo the value: a URL may hold a password
      throw new IllegalArgumentException("--database must be h2, mariadb or a URL such as "
          + MARIADB + ", but does not start with jdbc:mariadb:");
    }
    return url;
  }

  private static IllegalArgumentException invalid(String name, String what, String text) {
    return new IllegalArgumentException("--" + name + " must be " + what + ", but was \"" + text
        + "\"");
  }
}
