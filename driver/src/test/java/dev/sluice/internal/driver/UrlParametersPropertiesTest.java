package dev.sluice.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Stripping gives back exactly the URL the user would have given the real driver, and exactly the
 * settings inserted into it: generated delegate URLs of both families, with {@code sluice.*}
 * tokens inserted at random places among their parameters.
 */
class UrlParametersPropertiesTest {

  /** A delegate URL, the same URL with sluice tokens inserted, and the inserted settings. */
  record Case(String original, String withSluice, Map<String, String> settings) {}

  @Property(tries = 1000)
  void strip_queryFamilyWithInsertedTokens_returnsOriginalAndSettings(
      @ForAll("queryCases") Case c) {
    UrlParameters.Stripped stripped = UrlParameters.strip(c.withSluice());

    assertThat(stripped.url()).isEqualTo(c.original());
    assertThat(stripped.settings()).containsExactlyEntriesOf(c.settings());
  }

  @Property(tries = 1000)
  void strip_semicolonFamilyWithInsertedTokens_returnsOriginalAndSettings(
      @ForAll("semicolonCases") Case c) {
    UrlParameters.Stripped stripped = UrlParameters.strip(c.withSluice());

    assertThat(stripped.url()).isEqualTo(c.original());
    assertThat(stripped.settings()).containsExactlyEntriesOf(c.settings());
  }

  @Property(tries = 300)
  void strip_urlWithoutSluiceTokens_isUnchanged(@ForAll("queryCases") Case q,
      @ForAll("semicolonCases") Case s) {
    assertThat(UrlParameters.strip(q.original()).url()).isSameAs(q.original());
    assertThat(UrlParameters.strip(s.original()).url()).isSameAs(s.original());
  }

  // --- the ?a=b&c=d family: PostgreSQL, MySQL, MariaDB, Oracle Easy Connect ---

  @Provide
  Arbitrary<Case> queryCases() {
    Arbitrary<String> head = Arbitraries.oneOf(
        Combinators.combine(hosts(), ports(), names()).as(
            (h, p, d) -> "jdbc:postgresql://" + h + p + "/" + d),
        Combinators.combine(hosts(), ports(), names()).as(
            (h, p, d) -> "jdbc:postgresql://" + h + p + "," + h + "2" + p + "/" + d),
        Combinators.combine(hosts(), names()).as((h, d) ->
            "jdbc:mysql://address=(host=" + h + ")(port=3306)(user=app)(key=a=b)/" + d),
        Combinators.combine(hosts(), names()).as((h, d) ->
            "jdbc:mysql://(host=" + h + ",port=3306,user=app)/" + d),
        Combinators.combine(hosts(), names()).as((h, d) -> "jdbc:mariadb:replication://app:pw@"
            + h + ":3306," + h + "2/" + d),
        Combinators.combine(hosts(), names()).as((h, d) -> "jdbc:oracle:thin:@//" + h
            + ":1521/" + d),
        names().map(d -> "jdbc:postgresql:" + d));
    Arbitrary<String> token = Arbitraries.oneOf(
        Combinators.combine(keys(), queryValues()).as((k, v) -> k + "=" + v),
        keys(), // a valueless flag
        keys().map(k -> k + "="),
        Arbitraries.just(""));
    return cases(head, token, '?', '&', queryValues());
  }

  /** Values as a URL query carries them: percent escapes, '=', ';', '/', ':' and ','. */
  private static Arbitrary<String> queryValues() {
    return Arbitraries.strings().withChars("abcXYZ019=%;:/,.-_+ ()?{}\\'").ofMaxLength(12)
        .filter(v -> !v.contains("sluice"));
  }

  // --- the ;a=b family: H2, SQL Server, Derby ---

  @Provide
  Arbitrary<Case> semicolonCases() {
    Arbitrary<String> head = Arbitraries.oneOf(
        names().map(n -> "jdbc:h2:mem:" + n),
        Combinators.combine(hosts(), names()).as((h, n) -> "jdbc:h2:tcp://" + h + ":9092/~/" + n),
        hosts().map(h -> "jdbc:sqlserver://" + h + "\\SQLEXPRESS:1433"),
        Arbitraries.just("jdbc:sqlserver://"),
        names().map(n -> "jdbc:derby:memory:" + n));
    Arbitrary<String> token = Arbitraries.oneOf(
        Combinators.combine(keys(), semicolonValues()).as((k, v) -> k + "=" + v),
        Combinators.combine(keys(), bracedValues()).as((k, v) -> k + "=" + v),
        keys(),
        Arbitraries.just(""));
    return cases(head, token, ';', ';', semicolonValues());
  }

  /** H2 values: backslash escapes (a ';' included); braces and '?' that mean nothing there. */
  private static Arbitrary<String> semicolonValues() {
    Arbitrary<String> unit = Arbitraries.oneOf(
        Arbitraries.strings().withChars("abcXYZ019=%:/,.-_ ?&'(){}").ofLength(1),
        Arbitraries.of("\\;", "\\\\", "\\n"));
    return unit.list().ofMaxSize(8).map(units -> String.join("", units))
        .filter(v -> !v.startsWith("{") && !v.contains("sluice"));
  }

  /** SQL Server values quoted in braces: ';' and '=' inside, '}}' for a brace. */
  private static Arbitrary<String> bracedValues() {
    Arbitrary<String> unit = Arbitraries.oneOf(
        Arbitraries.strings().withChars("abcXYZ019=%;:/,.-_ ?&'({").ofLength(1),
        Arbitraries.just("}}"));
    return unit.list().ofMaxSize(8).map(units -> "{" + String.join("", units) + "}")
        .filter(v -> !v.contains("sluice"));
  }

  // --- shared pieces ---

  private static Arbitrary<String> hosts() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8),
        Arbitraries.of("127.0.0.1", "[::1]", "db.internal", "db-1.example.com"));
  }

  private static Arbitrary<String> ports() {
    return Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.integers().between(1, 65535).map(p -> ":" + p));
  }

  private static Arbitrary<String> names() {
    return Arbitraries.strings().withCharRange('a', 'z').withChars("_0123").ofMinLength(1)
        .ofMaxLength(8);
  }

  private static Arbitrary<String> keys() {
    return Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withChars("_.")
        .ofMinLength(1).ofMaxLength(10)
        .filter(k -> Character.isLetter(k.charAt(0)) && !k.toLowerCase().startsWith("sluice"));
  }

  /** Sluice settings: known keys and made-up ones, values or none, no key twice. */
  private static Arbitrary<List<Tuple.Tuple2<String, String>>> sluiceTokens(
      Arbitrary<String> values) {
    Arbitrary<String> key = Arbitraries.oneOf(
        Arbitraries.of(Keys.ALL).map(Key::name),
        Arbitraries.strings().withCharRange('a', 'z').withChars("-.").ofMinLength(1)
            .ofMaxLength(8).map(s -> Keys.PREFIX + s));
    Arbitrary<String> value = Arbitraries.oneOf(values, Arbitraries.just((String) null));
    return Combinators.combine(key, value).as(Tuple::of).list().ofMinSize(1).ofMaxSize(4)
        .uniqueElements(Tuple.Tuple2::get1);
  }

  private static Arbitrary<Case> cases(Arbitrary<String> head, Arbitrary<String> token,
      char opener, char separator, Arbitrary<String> values) {
    Arbitrary<List<String>> params = Arbitraries.oneOf(
        Arbitraries.just((List<String>) null), token.list().ofMinSize(1).ofMaxSize(5));
    Arbitrary<List<Integer>> positions = Arbitraries.integers().between(0, 1000).list()
        .ofSize(4);
    return Combinators.combine(head, params, sluiceTokens(values), positions)
        .as((h, p, s, pos) -> build(h, p, s, pos, opener, separator));
  }

  private static Case build(String head, List<String> params,
      List<Tuple.Tuple2<String, String>> sluice, List<Integer> positions, char opener,
      char separator) {
    String original = join(head, params, opener, separator);
    List<String> mixed = params == null ? new ArrayList<>() : new ArrayList<>(params);
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 0; i < sluice.size(); i++) {
      Tuple.Tuple2<String, String> setting = sluice.get(i);
      int at = positions.get(i) % (mixed.size() + 1);
      mixed.add(at, setting.get2() == null ? setting.get1()
          : setting.get1() + "=" + setting.get2());
    }
    // the settings, in the order they stand in the URL
    for (String t : mixed) {
      for (Tuple.Tuple2<String, String> setting : sluice) {
        if (t.equals(setting.get1()) || t.startsWith(setting.get1() + "=")) {
          settings.put(setting.get1(), setting.get2() == null ? "" : setting.get2());
        }
      }
    }
    return new Case(original, join(head, mixed, opener, separator), settings);
  }

  private static String join(String head, List<String> params, char opener, char separator) {
    return params == null ? head : head + opener + String.join(String.valueOf(separator), params);
  }
}
