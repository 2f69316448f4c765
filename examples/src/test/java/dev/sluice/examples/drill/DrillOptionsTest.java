package dev.sluice.examples.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Scope;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DrillOptionsTest {

  private static final Path OUT = Path.of("target", "x.svg");

  private static DrillOptions parse(String... args) {
    return DrillOptions.parse(args, OUT);
  }

  private static String error(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> parse(args)).getMessage();
  }

  @Test
  void parse_noFlags_takesTheArticleScenario() {
    DrillOptions o = parse();

    assertThat(o.load).isEqualTo(20_000);
    assertThat(o.budget).isEqualTo(500);
    assertThat(o.outageStart).isEqualTo(3);
    assertThat(o.outageLength).isEqualTo(4);
    assertThat(o.duration).isEqualTo(17);
    assertThat(o.instances).isEqualTo(4);
    assertThat(o.keys).isEqualTo(10_000);
    assertThat(o.skew).isEqualTo(1.4);
    assertThat(o.ttlSeconds).isEqualTo(30);
    assertThat(o.returnsEmpty).isTrue();
    assertThat(o.settleMillis).isEqualTo(2000);
    assertThat(o.scope).isEqualTo(Scope.STATEMENT);
    assertThat(o.out).isEqualTo(OUT);
    assertThat(o.help).isFalse();
  }

  @Test
  void parse_bothFlagStyles_areRead() {
    DrillOptions o = parse("--load=5000", "--budget", "250", "--scope", "CONNECTION",
        "--out", "a/b.svg");

    assertThat(o.load).isEqualTo(5000);
    assertThat(o.budget).isEqualTo(250);
    assertThat(o.scope).isEqualTo(Scope.CONNECTION);
    assertThat(o.out).isEqualTo(Path.of("a/b.svg"));
  }

  @Test
  void parse_outageLengthOnly_durationFollowsTheOutage() {
    assertThat(parse("--outage-start", "2", "--outage-length", "3").duration).isEqualTo(15);
  }

  @Test
  void outageAt_boundaries_startIncludedEndExcluded() {
    DrillOptions o = parse("--outage-start", "2", "--outage-length", "3");

    assertThat(o.outageAt(1.99)).isFalse();
    assertThat(o.outageAt(2.0)).isTrue();
    assertThat(o.outageAt(4.99)).isTrue();
    assertThat(o.outageAt(5.0)).isFalse();
  }

  @Test
  void parse_badValues_nameTheFlagAndTheValue() {
    assertThat(error("--skew", "3.5"))
        .isEqualTo("--skew must be a number from 0 to 3, but was \"3.5\"");
    assertThat(error("--cache-return", "cold"))
        .isEqualTo("--cache-return must be `empty` or `warm`, but was \"cold\"");
    assertThat(error("--keys", "0"))
        .isEqualTo("--keys must be a whole number from 1 to 100000, but was \"0\"");
    assertThat(error("--budget", "-5"))
        .isEqualTo("--budget must be a positive number of queries/s, but was \"-5\"");
    assertThat(error("--instances", "2.5"))
        .isEqualTo("--instances must be a whole number from 1 to 64, but was \"2.5\"");
    assertThat(error("--scope", "table"))
        .isEqualTo("--scope must be `statement` or `connection`, but was \"table\"");
    assertThat(error("--outage-length", "0")).startsWith("--outage-length must be");
    assertThat(error("--critical-writes", "-1")).isEqualTo("--critical-writes must be writes per"
        + " second from 0 to 10000, but was \"-1\"");
  }

  @Test
  void parse_redis_acceptsAUriAndNeverEchoesABadOne() {
    assertThat(parse().redis).isNull();
    assertThat(parse("--redis", "redis://localhost:6379").redis)
        .isEqualTo("redis://localhost:6379");
    assertThat(error("--redis", "http://user:secret@host"))
        .isEqualTo("--redis must be a URI such as redis://localhost:6379, but does not start with"
            + " redis:// or rediss://")
        .doesNotContain("secret");
  }

  @Test
  void parse_database_h2MariaDbOrAUrl_neverEchoingABadOne() {
    assertThat(parse().database).as("H2 in memory").isNull();
    assertThat(parse("--database", "H2").database).isNull();
    assertThat(parse("--database", "mariadb").database)
        .isEqualTo("jdbc:mariadb://127.0.0.1:3306/test?user=root");
    assertThat(parse("--database", "jdbc:mariadb://db:3306/app?user=u").database)
        .isEqualTo("jdbc:mariadb://db:3306/app?user=u");
    assertThat(error("--database", "jdbc:postgresql://db/app?password=secret"))
        .isEqualTo("--database must be h2, mariadb or a URL such as"
            + " jdbc:mariadb://127.0.0.1:3306/test?user=root, but does not start with"
            + " jdbc:mariadb:")
        .doesNotContain("secret");
  }

  @Test
  void parse_capacityDrop_mustFallDuringTheOutage() {
    assertThat(parse().capacityDrop).isEqualTo(-1);
    assertThat(parse().capacityLostAt(100)).isFalse();
    DrillOptions o = parse("--outage-start", "2", "--outage-length", "3", "--capacity-drop", "4");
    assertThat(o.capacityLostAt(3.9)).isFalse();
    assertThat(o.capacityLostAt(4)).isTrue();
    assertThat(o.capacityLostAt(10)).as("for the rest of the run").isTrue();
    assertThat(error("--outage-start", "2", "--outage-length", "3", "--capacity-drop", "5"))
        .isEqualTo("--capacity-drop must be a second during the outage (2 to 4), but was \"5\"");
    assertThat(error("--capacity-drop", "soon"))
        .isEqualTo("--capacity-drop must be a second during the outage, but was \"soon\"");
  }

  @Test
  void parse_durationShorterThanOutage_isRefused() {
    assertThat(error("--outage-start", "4", "--outage-length", "8", "--duration", "10"))
        .isEqualTo("--duration must cover the outage (--outage-start 4 + --outage-length 8"
            + " = 12 s), but was 10");
  }

  @Test
  void parse_unknownMissingOrRepeatedFlag_isRefused() {
    assertThat(error("--lod", "5")).startsWith("--lod is not a flag of the drill; known flags:");
    assertThat(error("--load")).isEqualTo("--load needs a value");
    assertThat(error("--load", "1", "--load", "2")).isEqualTo("--load is given twice");
    assertThat(error("5000")).isEqualTo("expected a flag such as --load, but was \"5000\"");
  }

  @Test
  void parse_tooManyThreads_isRefused() {
    assertThat(error("--instances", "64", "--threads", "500"))
        .isEqualTo("--instances times --threads must be at most 2000, but was 64 x 500 = 32000");
  }

  @Test
  void parse_settle_takesSecondsWithFractionsAndZero() {
    assertThat(parse("--settle", "0").settleMillis).isZero();
    assertThat(parse("--settle", "0.25").settleMillis).isEqualTo(250);
    assertThat(error("--settle", "-1"))
        .isEqualTo("--settle must be a number of seconds from 0 to 600, but was \"-1\"");
  }

  @Test
  void parse_staleMaxAge_addsTheAnsweringRunUnlessZeroOrConnectionScope() {
    assertThat(parse().staleMaxAgeMillis).isEqualTo(5000);
    assertThat(parse().runs()).containsExactly(RunKind.WITHOUT_SLUICE, RunKind.WITH_SLUICE,
        RunKind.SLUICE_ANSWERS);
    assertThat(parse("--stale-max-age", "0.5").staleMaxAgeMillis).isEqualTo(500);
    assertThat(parse("--stale-max-age", "0").runs()).containsExactly(RunKind.WITHOUT_SLUICE,
        RunKind.WITH_SLUICE);
    assertThat(parse("--scope", "connection").runs()).as("no statements to answer")
        .doesNotContain(RunKind.SLUICE_ANSWERS);
    assertThat(parse("--capacity-drop", "4").runs()).containsExactly(RunKind.WITHOUT_SLUICE,
        RunKind.WITH_SLUICE, RunKind.SLUICE_ANSWERS, RunKind.SLUICE_AUTO);
    assertThat(error("--stale-max-age", "-1")).isEqualTo("--stale-max-age must be a number of"
        + " seconds from 0 to 600, but was \"-1\"");
    assertThat(error("--stale-max-age", "5s")).startsWith("--stale-max-age must be");
  }

  @Test
  void parse_staleShare_onByDefault() {
    assertThat(parse().staleShare).isTrue();
    assertThat(parse("--stale-share", "off").staleShare).isFalse();
    assertThat(parse("--stale-share=on").staleShare).isTrue();
    assertThat(error("--stale-share", "yes")).isEqualTo("--stale-share must be on or off, but"
        + " was \"yes\"");
  }

  @Test
  void parse_cacheReturnWarm_keepsTheEntries() {
    assertThat(parse("--cache-return", "warm").returnsEmpty).isFalse();
  }

  @Test
  void parse_help_isSeen() {
    assertThat(parse("--help").help).isTrue();
  }
}
